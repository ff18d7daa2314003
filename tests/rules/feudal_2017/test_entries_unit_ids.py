"""Feudal's entries name the units they count, each unit in one entry: a unit of a
column's own type in that column, a stand-in in its replacement (the column counts it but
does not name it), and no unit in the alternatives, whose units their column names."""

import pytest

from rules import get_ruleset
from rules.document import with_ids
from tests.rules.entry_units import assert_each_unit_in_one_entry, counted
from tests.support import fixture_lists

FEUDAL = "feudal-2017"
RULESET = get_ruleset(FEUDAL)
LISTS = sorted(fixture_lists(FEUDAL))
ALTERNATIVES = {"dismounted-knights", "brigans-bows", "mounted-brigans"}


def assert_counts_match(entries):
    by_key = {e.key: e for e in entries}
    stand_ins = [e for e in entries if e.replaces]
    for entry in entries:
        if entry.key in ALTERNATIVES:
            assert entry.unit_ids == ()
        elif entry.replaces:  # a stand-in: one to one
            assert len(entry.unit_ids) == entry.have, entry
    for column in ("core", "t1", "t2", "t3"):
        entry = by_key[column]
        # the column's count is its own units and the stand-ins for them
        standing = sum(e.have for e in stand_ins if e.replaces == entry.label)
        assert len(entry.unit_ids) + standing == entry.have, entry


@pytest.mark.parametrize("slug", LISTS)
@pytest.mark.parametrize("seed", (1, 2, 3))
def test_a_rolled_force_names_each_unit_once(slug, seed):
    data = fixture_lists(FEUDAL)[slug]
    document = with_ids(RULESET.roll_force(slug, data, seed))
    parsed, entries = counted(FEUDAL, slug, document["units"])
    assert_each_unit_in_one_entry(parsed, entries)
    assert_counts_match(entries)
    # a rolled force fills one matrix row: every unit has its place
    assert sorted(i for e in entries for i in e.unit_ids) == sorted(parsed.unit_ids)


@pytest.mark.parametrize("slug", LISTS)
def test_every_entry_once_over_names_each_unit_once(slug):
    tiles = RULESET.list_entries(fixture_lists(FEUDAL)[slug], None)
    units = [{**t.values, "name": t.label[:120]} for t in tiles]
    parsed, entries = counted(FEUDAL, slug, units)
    assert_each_unit_in_one_entry(parsed, entries)
    assert_counts_match(entries)


def test_a_stand_in_is_named_by_its_replacement_not_its_column():
    # North Welsh: any freemen may be brigans; core freemen, T2 brigans
    units = (
        [{"name": "Freemen", "type": "freemen"}] * 3
        + [{"name": "Brigans", "type": "brigans"}] * 2
        + [{"name": "Knights", "type": "knights"}]
    )
    parsed, entries = counted(FEUDAL, "north-welsh", units)
    by_key = {e.key: e for e in entries}
    stand_in = by_key["freemen-as-brigans"]
    assert stand_in.have == 1 and len(stand_in.unit_ids) == 1
    assert stand_in.unit_ids[0] in parsed.unit_ids[3:5]
    assert set(by_key["t2"].unit_ids) | set(stand_in.unit_ids) == set(parsed.unit_ids[3:5])
    assert by_key["core"].unit_ids == parsed.unit_ids[:3]
    assert_each_unit_in_one_entry(parsed, entries)
    assert_counts_match(entries)
