"""The Initiative roll-off (``rules.initiative``): due at the start of the source's Turn 2
and every Turn after, worked out per rule set from its source's section, replayed onto
where the game stands so the side holding it goes first, and worded in the log."""

from __future__ import annotations

import pytest

import rules
from rules import initiative, seats
from rules.table import INITIATIVE, NEXT_PHASE, Refused, Table, next_phase
from rules.table_words import line

NAMES = {"a": "Saxons", "b": "Normans"}


def engine(slug: str):
    return rules.get_ruleset(slug).combat()


def at_turn(slug: str, turn: int, holder: str = "a") -> Table:
    phases = engine(slug).phases({})
    return Table(turn, phases[0].key, {}, holder=holder)


def roll(slug: str, table: Table, dice, **options):
    combat = engine(slug)
    return initiative.roll_off(combat, options, combat.phases(options), table, NAMES, dice)


@pytest.mark.parametrize(
    ("slug", "bonus", "section"),
    [("dark-ages-2015", 3, "INITIATIVE"), ("dark-ages-d5", 3, "INITIATIVE"),
     ("feudal-2017", 2, "Initiative")],
)  # fmt: skip
def test_each_source_adds_its_bonus_for_the_side_holding_the_initiative(slug, bonus, section):
    rule = engine(slug).initiative({})
    assert (rule.bonus, rule.section) == (bonus, section)


@pytest.mark.parametrize("slug", ["dewitt-medieval"])
def test_a_rule_set_without_the_roll_offers_none_and_refuses_it(slug):
    combat = engine(slug)
    assert combat.initiative({}) is None
    table = Table(3, combat.phases({})[0].key, {})
    with pytest.raises(Refused, match="rolls no Initiative"):
        initiative.roll_off(combat, {}, combat.phases({}), table, NAMES, (6, 1))


def test_the_d5_edition_rolls_the_games_die():
    assert engine("dark-ages-d5").initiative({"dice": "d5"}).die.faces == (2, 3, 3, 4, 4, 5)


def test_the_other_side_takes_the_initiative_only_by_beating_the_holders_total():
    assert roll("dark-ages-2015", at_turn("dark-ages-2015", 3), (1, 5))["holder"] == "b"
    assert roll("dark-ages-2015", at_turn("dark-ages-2015", 3), (2, 5))["holder"] == "a"
    # Feudal: +2, and the Initiative side wins ties
    assert roll("feudal-2017", at_turn("feudal-2017", 3), (3, 5))["holder"] == "a"
    assert roll("feudal-2017", at_turn("feudal-2017", 3), (3, 6))["holder"] == "b"


@pytest.mark.parametrize("turn", [1, 2, 4])
def test_the_roll_is_due_only_at_the_start_of_the_sources_turn_2_and_after(turn):
    # the game counts player turns: the source's Turn 2 starts at the game's Turn 3
    with pytest.raises(Refused, match=r"start of Turn 2 .*\(INITIATIVE\)"):
        roll("dark-ages-2015", at_turn("dark-ages-2015", turn), (4, 6))


def test_the_roll_is_refused_once_anything_else_was_done_in_the_turn_or_made_already():
    table = at_turn("dark-ages-2015", 3)
    table.acted = 3
    with pytest.raises(Refused, match="No Initiative roll is due"):
        roll("dark-ages-2015", table, (4, 6))
    table = at_turn("dark-ages-2015", 3)
    table.record(INITIATIVE, roll("dark-ages-2015", table, (4, 6)), ())
    with pytest.raises(Refused, match="rolled already"):
        roll("dark-ages-2015", table, (4, 6))


def test_typed_dice_are_two_faces_of_the_die():
    with pytest.raises(Refused, match="type two D6s"):
        roll("dark-ages-2015", at_turn("dark-ages-2015", 3), (4,))
    with pytest.raises(Refused, match="7 is not a face of the D6"):
        roll("dark-ages-2015", at_turn("dark-ages-2015", 3), (4, 7))


def test_a_roll_from_a_seed_rolls_the_same_dice_again():
    combat = engine("feudal-2017")
    one = initiative.roll_off(combat, {}, combat.phases({}), at_turn("feudal-2017", 3), NAMES,
                              seed="abc123")  # fmt: skip
    two = initiative.roll_off(combat, {}, combat.phases({}), at_turn("feudal-2017", 3), NAMES,
                              seed="abc123")  # fmt: skip
    assert one == two and one["seed"] == "abc123" and len(one["dice"]) == 2


def test_replaying_a_lost_roll_hands_the_first_player_turn_to_the_other_side():
    combat = engine("dark-ages-2015")
    phases = combat.phases({})
    table = at_turn("dark-ages-2015", 3)
    assert seats.Turn(combat, 3, table.holder, NAMES).phasing == "a"
    table.record(INITIATIVE, roll("dark-ages-2015", table, (1, 6)), phases)
    assert table.holder == "b"
    assert seats.Turn(combat, 3, table.holder, NAMES).phasing == "b"
    with pytest.raises(Refused, match="It is Normans' player turn"):
        seats.may_attack(seats.Turn(combat, 3, table.holder, NAMES), "a", "a")
    # the next player turn is the other side's, and the holder keeps going first after
    while table.turn == 3:
        table.record(NEXT_PHASE, next_phase(phases, table), phases)
    assert seats.Turn(combat, table.turn, table.holder, NAMES).phasing == "a"
    assert seats.Turn(combat, 5, table.holder, NAMES).phasing == "b"
    assert Table.from_json(table.to_json()).holder == "b"


def test_the_log_words_the_roll_off_with_its_section():
    kept = roll("dark-ages-2015", at_turn("dark-ages-2015", 3), (4, 6))
    assert line(INITIATIVE, kept, {}).text == (
        "Turn 3: Saxons roll 4+3=7, Normans 6: Saxons keep the Initiative (INITIATIVE)"
    )
    assert line(INITIATIVE, kept, {}).dice == "4, 6 (typed)"
    taken = roll("dark-ages-2015", at_turn("dark-ages-2015", 3), (1, 5))
    assert line(INITIATIVE, taken, {}).text.endswith("Normans take the Initiative (INITIATIVE)")


def test_dark_ages_optional_penalty_takes_1_a_routed_unit_off_the_holders_roll_only():
    # 4+3-2=5 against 5 (the Normans' own lost unit does not count): the Saxons keep it
    kept = roll("dark-ages-2015", at_turn("dark-ages-2015", 3), (4, 5))
    combat = engine("dark-ages-2015")
    lost = initiative.roll_off(combat, {}, combat.phases({}), at_turn("dark-ages-2015", 3), NAMES,
                               (4, 6), lost={"a": 2, "b": 1})  # fmt: skip
    assert kept["holder"] == "a" and lost["holder"] == "b"
    assert line(INITIATIVE, lost, {}).text.startswith("Turn 3: Saxons roll 4+3-2=5, Normans 6:")


def test_feudal_optional_penalty_takes_1_a_removed_unit_off_both_rolls():
    combat = engine("feudal-2017")
    payload = initiative.roll_off(combat, {}, combat.phases({}), at_turn("feudal-2017", 3), NAMES,
                                  (1, 6), lost={"a": 0, "b": 2})  # fmt: skip
    # 1+2=3 against 6-2=4: the Normans take it
    assert payload["holder"] == "b"
    assert line(INITIATIVE, payload, {}).text.startswith("Turn 3: Saxons roll 1+2=3, Normans 6-2=4")
