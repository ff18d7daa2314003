"""A game's actions in words: a combat's line and a unit's card count hits in good English."""

from __future__ import annotations

from rules.combat import counted
from rules.table_words import line

NAMES = {"melee": "Phase 3: Melee"}


def combat(hits: int) -> dict:
    return {
        "turn": 2, "phase": "melee", "attacker_name": "Knights", "target_name": "Serjeants",
        "dice": [4], "seed": "",
        "result": {"hits": hits, "unit": "hits", "total": 3, "steps": [], "verdict": None},
    }  # fmt: skip


def test_one_hit_is_a_hit_and_any_other_count_is_hits():
    assert [counted(n, "hits") for n in (0, 1, 2)] == ["0 hits", "1 hit", "2 hits"]


def test_a_combat_of_one_hit_says_one_hit_in_the_log():
    said = line("combat", combat(1), NAMES).text
    assert said == "Turn 2, Phase 3: Melee: Knights against Serjeants: 1 hit (3 in all)"
    assert ": 4 hits (3 in all)" in line("combat", combat(4), NAMES).text


def test_a_unit_card_with_one_hit_says_one_hit():
    from rules.table import UnitState

    assert UnitState({"hits": 1}).damage_text() == "1 hit"
    assert UnitState({"hits": 3, "casualties": 1}).damage_text() == "1 casualty, 3 hits"
    assert UnitState({"hits": 0}).damage_text() == "no hits"


def test_a_kind_of_action_the_table_does_not_know_says_the_words_it_recorded():
    said = line("note", {"turn": 2, "said": "Turn 2: the ford holds"}, NAMES)
    assert (said.text, said.dice, said.steps) == ("Turn 2: the ford holds", "", ())
    assert line("war_cry", {}, NAMES).text == "War cry"
