"""Into the Dark's entries name the units they count: the list check's assignment, each
unit in one entry, as many as the entry's count."""

import pytest

from rules import get_ruleset
from tests.rules.entry_units import assert_each_unit_in_one_entry, assert_one_to_one, counted
from tests.support import fixture_lists

ITD = "into-the-dark"
LISTS = sorted(fixture_lists(ITD))


@pytest.mark.parametrize("slug", LISTS)
def test_every_unit_counts_in_one_entry_and_each_entry_names_as_many_as_it_has(slug):
    tiles = get_ruleset(ITD).list_entries(fixture_lists(ITD)[slug], None)
    # every entry's unit twice over: some entries go past their maximum, some units unplaced
    units = [dict(t.values) for t in tiles] * 2
    parsed, entries = counted(ITD, slug, units)
    assert_each_unit_in_one_entry(parsed, entries)
    assert_one_to_one(entries)
    assert sum(len(e.unit_ids) for e in entries) == sum(e.have for e in entries) > 0


def test_a_unit_is_named_by_the_entry_it_was_added_from():
    tiles = {t.key: t for t in get_ruleset(ITD).list_entries(fixture_lists(ITD)["viking"], None)}
    parsed, entries = counted(ITD, "viking", [dict(tiles["hird"].values)] * 2)
    by_key = {e.key: e for e in entries}
    assert by_key["hird"].unit_ids == parsed.unit_ids
    assert all(not e.unit_ids for e in entries if e.key != "hird")


def test_without_an_army_no_entry_names_a_unit():
    entries = get_ruleset(ITD).list_entries(fixture_lists(ITD)["viking"], None)
    assert all(e.unit_ids == () for e in entries)
