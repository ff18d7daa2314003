"""A player's Dewitt list names the units each entry counts: the first entry a unit fits,
each unit in one entry, as many as the entry's count."""

from rules.registry import get_ruleset
from tests.rules.entry_units import assert_each_unit_in_one_entry, assert_one_to_one, counted
from tests.support import DEWITT_ARCHER, DEWITT_KNIGHT, DEWITT_LIST

DEWITT = "dewitt-medieval"


def test_each_unit_is_named_by_the_first_entry_it_fits():
    units = [
        DEWITT_KNIGHT,
        DEWITT_ARCHER,
        DEWITT_KNIGHT,
        {**DEWITT_ARCHER, "weapons": ["crossbow"]},
    ]
    parsed, entries = counted(DEWITT, "mine", units, lambda ruleset: {"mine": DEWITT_LIST})
    knights, archers = entries
    assert knights.unit_ids == (parsed.unit_ids[0], parsed.unit_ids[2])
    assert archers.unit_ids == (parsed.unit_ids[1],)  # crossbows fit no entry
    assert_each_unit_in_one_entry(parsed, entries)
    assert_one_to_one(entries)


def test_without_an_army_no_entry_names_a_unit():
    assert all(e.unit_ids == () for e in get_ruleset(DEWITT).list_entries(DEWITT_LIST, None))
