"""The Dark Ages entries name the units they count: the list check's fit (required units
and choices, a double army, d5 allies), each unit in one entry, as many as its count."""

import pytest

from rules import get_ruleset
from tests.rules.entry_units import assert_each_unit_in_one_entry, assert_one_to_one, counted
from tests.support import fixture_lists

EDITIONS = ("dark-ages-2015", "dark-ages-d5")
LISTS = [(rs, slug) for rs in EDITIONS for slug in sorted(fixture_lists(rs))]


def tiles(ruleset, slug):
    return get_ruleset(ruleset).list_entries(fixture_lists(ruleset)[slug], None)


@pytest.mark.parametrize(("ruleset", "slug"), LISTS)
def test_every_unit_counts_in_one_entry_and_each_entry_names_as_many_as_it_has(ruleset, slug):
    # every entry's unit twice over: choices overflow, some units find no place
    units = [dict(t.values) for t in tiles(ruleset, slug)] * 2
    parsed, entries = counted(ruleset, slug, units)
    assert_each_unit_in_one_entry(parsed, entries)
    assert_one_to_one(entries)
    assert sum(e.have for e in entries) > 0


@pytest.mark.parametrize("slug", sorted(fixture_lists("dark-ages-2015")))
def test_a_double_army_counts_each_unit_once(slug):
    units = [dict(t.values) for t in tiles("dark-ages-2015", slug)] * 2
    parsed, entries = counted("dark-ages-2015", slug, units, options={"army_size": 12})
    assert_each_unit_in_one_entry(parsed, entries)
    assert_one_to_one(entries)


def test_allied_units_are_named_by_their_allied_entries_only():
    own = [dict(t.values) for t in tiles("dark-ages-d5", "north-welsh")]
    parsed, entries = counted("dark-ages-d5", "north-welsh", own)
    allied = [e for e in entries if e.group.startswith("Allies from Strathclyde Welsh")]
    assert allied
    units = own + [dict(allied[0].values), dict(allied[0].values)]
    parsed, entries = counted("dark-ages-d5", "north-welsh", units)
    assert_each_unit_in_one_entry(parsed, entries)
    assert_one_to_one(entries)
    key = allied[0].key
    (tile,) = [e for e in entries if e.key == key]
    # allied units count against their own list's tiles, never the host's
    assert set(tile.unit_ids) <= set(parsed.unit_ids[len(own) :])
    assert tile.unit_ids
    host = {i for e in entries if not e.group for i in e.unit_ids}
    assert host <= set(parsed.unit_ids[: len(own)])
