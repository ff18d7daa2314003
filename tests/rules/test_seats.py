"""Who may do what at the table: a phone records its own side's actions, and where the
source's player turns are one-sided only the phasing side's units inflict hits."""

from __future__ import annotations

import pytest

import rules
from rules import seats
from rules.table import Refused

NAMES = {"a": "Normans", "b": "Harold"}


def engine(slug: str):
    return rules.get_ruleset(slug).combat()


def at(combat, turn: int, first: str = "a") -> seats.Turn:
    return seats.Turn(combat, turn, first, NAMES)


@pytest.mark.parametrize(
    ("turn", "first", "phasing"), [(1, "a", "a"), (2, "a", "b"), (3, "a", "a"), (1, "b", "b")]
)
def test_one_sided_player_turns_alternate_from_the_side_that_goes_first(turn, first, phasing):
    assert at(engine("feudal-2017"), turn, first).phasing == phasing


@pytest.mark.parametrize("slug", ["into-the-dark", "dewitt-medieval"])
def test_a_source_that_works_combat_out_for_both_sides_has_no_phasing_side(slug):
    assert at(engine(slug), 2).phasing is None
    seats.may_attack(at(engine(slug), 1), "b", "b")  # either side, any turn
    seats.may_attack(at(engine(slug), 2), "a", "a")
    seats.may_end_phase(at(engine(slug), 1), "b")


@pytest.mark.parametrize(
    ("slug", "section"),
    [
        ("feudal-2017", "3.1 One-Sided Mêlée"),
        ("dark-ages-2015", "One-Sided Melee"),
        ("dark-ages-d5", "One-Sided Melee"),
    ],
)
def test_outside_its_player_turn_a_side_inflicts_no_hits_and_the_section_is_cited(slug, section):
    combat = engine(slug)
    seats.may_attack(at(combat, 1), "a", "a")
    with pytest.raises(Refused) as refused:
        seats.may_attack(at(combat, 1), "b", "b")
    assert refused.value.message.startswith("It is Normans' player turn")
    assert section in refused.value.message
    assert "Harold's units fight in their own player turn" in refused.value.message
    seats.may_attack(at(combat, 2), "b", "b")


def test_a_phone_records_only_its_own_units_actions():
    combat = engine("feudal-2017")
    with pytest.raises(Refused, match="This phone plays Normans: Harold's combats"):
        seats.may_attack(at(combat, 2), "a", "b")
    with pytest.raises(Refused, match="Harold's removals are recorded on their player's phone"):
        seats.own("a", "b", NAMES, "removals")
    seats.own("b", "b", NAMES, "removals")


def test_feudal_rallies_only_phasing_units_and_says_4_1a():
    combat = engine("feudal-2017")
    seats.may_rally(at(combat, 1), "a", "a")
    with pytest.raises(Refused, match=r"only phasing units rally \(4.1a Rallying\)"):
        seats.may_rally(at(combat, 2), "a", "a")
    # Dark Ages names no phasing rally: each side rallies its own in the rally phase
    seats.may_rally(at(engine("dark-ages-d5"), 2), "a", "a")


def test_only_the_phasing_player_moves_the_turn_on():
    combat = engine("dark-ages-2015")
    seats.may_end_phase(at(combat, 1), "a")
    with pytest.raises(Refused, match="It is Harold's player turn"):
        seats.may_end_phase(at(combat, 2), "a")


def test_undo_takes_back_ones_own_actions_only():
    seats.may_undo("a", "a", NAMES)
    seats.may_undo("b", "", NAMES)  # made before seats, or in a solo game
    with pytest.raises(Refused, match="made on Normans' phone: only their player takes it back"):
        seats.may_undo("b", "a", NAMES)


def test_a_solo_game_refuses_nothing():
    combat = engine("feudal-2017")
    seats.may_attack(at(combat, 1), None, "b")
    seats.may_rally(at(combat, 1), None, "b")
    seats.may_end_phase(at(combat, 2), None)
    seats.own(None, "b", NAMES, "removals")
    seats.may_undo(None, "a", NAMES)
