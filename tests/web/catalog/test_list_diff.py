"""The entry-by-entry difference of two revisions of a list, for every rule set's shape."""

import copy

from armybuilder.catalog.list_diff import diff_lists, entries
from tests.support import fixture_lists


def by_entry(changes):
    return {c.entry: c for c in changes}


def test_identical_lists_have_no_changes():
    for ruleset in ("into-the-dark", "dark-ages-2015", "dark-ages-d5", "feudal-2017"):
        for data in fixture_lists(ruleset).values():
            assert diff_lists(data, copy.deepcopy(data)) == []


def test_entries_are_added_removed_and_changed_field_by_field():
    before = fixture_lists("into-the-dark")["anglo-danish-1066"]
    after = copy.deepcopy(before)
    removed = after["entries"].pop()  # the last entry
    after["entries"][0]["max"] = 1
    after["entries"][0]["note"] = "fewer"
    after["entries"].append({**copy.deepcopy(removed), "key": "new-one", "name": "New one"})
    changes = by_entry(diff_lists(before, after))
    assert changes[f"entries:{removed['key']}"].change == "removed"
    assert changes["entries:new-one"].change == "added"
    assert changes["entries:new-one"].label == "New one"
    first = changes[f"entries:{before['entries'][0]['key']}"]
    assert first.change == "changed"
    assert first.fields["max"] == (before["entries"][0]["max"], 1)
    assert set(first.fields) == {"max", "note"}
    assert len(changes) == 3


def test_a_choice_groups_options_are_entries_of_their_own():
    before = fixture_lists("dark-ages-d5")["viking"]
    after = copy.deepcopy(before)
    after["choices"][0]["options"][0]["max"] = 1
    (change,) = diff_lists(before, after)
    assert change.entry == "choices:support/options:raiders"
    assert change.fields == {"max": (2, 1)}


def test_force_matrix_replacements_and_columns_are_named_by_what_they_are():
    before = fixture_lists("feudal-2017")["north-welsh"]
    after = copy.deepcopy(before)
    after["replacements"][0]["max"] = 1
    after["columns"]["t3"] = "serjeants"
    changes = by_entry(diff_lists(before, after))
    assert changes["replacements:freemen->brigans"].fields == {"max": (None, 1)}
    assert changes["columns"].fields["value"][1]["t3"] == "serjeants"
    assert "schiltrons" in entries(before)
