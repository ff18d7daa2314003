"""The entry-by-entry difference of two revisions of a list, for every rule set's shape."""

import copy

import rules
from armybuilder.catalog.list_diff import Vocabulary, diff_lists, entries, readable
from tests.support import fixture_lists
from tests.web.catalog.test_pins import DEWITT_LIST


def by_entry(changes):
    return {c.entry: c for c in changes}


def test_identical_lists_have_no_changes():
    for ruleset in ("into-the-dark", "dark-ages-2015", "dark-ages-d5", "feudal-2017"):
        for data in fixture_lists(ruleset).values():
            assert diff_lists(data, copy.deepcopy(data)) == []
    assert diff_lists(DEWITT_LIST, copy.deepcopy(DEWITT_LIST)) == []


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


def in_words(ruleset, before, after):
    words = Vocabulary.of(rules.get_ruleset(ruleset).unit_fields)
    return {c.entry: readable(c, words) for c in diff_lists(before, after)}


def label_of(ruleset, name, value):
    return next(f for f in rules.get_ruleset(ruleset).unit_fields if f.name == name).label_for(
        value
    )


def test_a_changed_match_is_read_by_the_unit_fields_labels_and_counts_in_words():
    before = fixture_lists("into-the-dark")["anglo-danish-1066"]
    after = copy.deepcopy(before)
    huscarls = after["entries"][0]
    huscarls["match"]["armour"] = ["mailed"]
    huscarls["max"] = 2
    change = in_words("into-the-dark", before, after)["entries:huscarls"]
    assert change.title == "Huscarls (entry)"
    armour = ", ".join(label_of("into-the-dark", "armour", v) for v in ("armoured", "mailed"))
    assert change.lines == (
        f"Armour: {armour} → {label_of('into-the-dark', 'armour', 'mailed')}",
        "Units: at most 3 → at most 2",
    )


def test_a_choice_option_is_named_and_its_count_worded():
    before = fixture_lists("dark-ages-d5")["viking"]
    after = copy.deepcopy(before)
    after["choices"][0]["options"][0]["max"] = 1
    (change,) = in_words("dark-ages-d5", before, after).values()
    assert change.title.endswith("(option)") and "raiders" not in change.title
    assert change.lines == ("Units: at most 2 → at most 1",)


def test_a_dark_ages_2015_required_entry_count_is_worded():
    before = fixture_lists("dark-ages-2015")["viking"]
    after = copy.deepcopy(before)
    after["required"][0]["count"] = before["required"][0]["count"] + 1
    (change,) = in_words("dark-ages-2015", before, after).values()
    n = before["required"][0]["count"]
    assert change.lines == (f"Units: exactly {n} → exactly {n + 1}",)


def test_a_force_matrix_replacement_and_columns_read_by_their_troop_names():
    before = fixture_lists("feudal-2017")["north-welsh"]
    after = copy.deepcopy(before)
    after["replacements"][0]["max"] = 1
    after["columns"]["t3"] = "serjeants"
    changes = in_words("feudal-2017", before, after)
    replacement = changes["replacements:freemen->brigans"]
    brigans = label_of("feudal-2017", "type", "brigans")
    assert replacement.title.startswith("Replacement: ") and replacement.title.endswith(brigans)
    assert replacement.lines == ("Units: no limit → at most 1",)
    columns = changes["columns"]
    assert columns.title == "Force-matrix columns"
    old = label_of("feudal-2017", "type", before["columns"]["t3"])
    assert columns.lines == (f"T3: {old} → {label_of('feudal-2017', 'type', 'serjeants')}",)


def test_a_dewitt_entry_reads_its_weapons_and_stands_in_words():
    after = copy.deepcopy(DEWITT_LIST)
    archers = after["entries"][1]
    archers["match"]["weapons"] = ["longbow"]
    archers["max_stands"] = 4
    del archers["match"]["arm"]
    change = in_words("dewitt-medieval", DEWITT_LIST, after)["entries:archers"]
    longbow = label_of("dewitt-medieval", "weapons", "longbow")
    bow = label_of("dewitt-medieval", "weapons", "bow")
    assert change.title == "Archers (entry)"
    assert change.lines == (
        f"Arm: {label_of('dewitt-medieval', 'arm', 'foot')} → any",
        f"Weapons: {longbow}, {bow} → {longbow}",
        "Stands a unit: no limit → at most 4",
    )


def test_a_limit_tightened_or_loosened_is_said_so_not_added():
    before = fixture_lists("into-the-dark")["anglo-danish-1066"]
    tighter = copy.deepcopy(before)
    tighter["limits"][0]["max_share"] = "1/5"
    (change,) = in_words("into-the-dark", before, tighter).values()
    assert (change.change, change.verb) == ("changed", "tightened")
    assert change.title == "Missile troops (limit)"
    assert change.lines == ("Share of the army: at most 1/4 → at most 1/5",)
    (change,) = in_words("into-the-dark", tighter, before).values()
    assert change.verb == "loosened"


def test_counts_moving_one_way_read_so_and_both_ways_or_other_fields_read_changed():
    before = fixture_lists("into-the-dark")["anglo-danish-1066"]  # Huscarls: 1 to 3

    def verb(**fields):
        after = copy.deepcopy(before)
        after["entries"][0].update(fields)
        return in_words("into-the-dark", before, after)["entries:huscarls"].verb

    assert verb(min=2, max=2) == "tightened"
    assert verb(min=0, max=None) == "loosened"
    assert verb(min=0, max=2) == "changed"  # fewer allowed, but none asked for
    assert verb(max=2, note="Fewer now.") == "changed"


def test_a_first_limit_in_a_list_that_had_none_is_one_added_limit():
    after = fixture_lists("into-the-dark")["anglo-danish-1066"]
    for before in ({**after, "limits": []}, {k: v for k, v in after.items() if k != "limits"}):
        (change,) = in_words("into-the-dark", before, after).values()
        assert (change.title, change.verb) == ("Missile troops (limit)", "added")
        (change,) = in_words("into-the-dark", after, before).values()
        assert (change.title, change.verb) == ("Missile troops (limit)", "removed")


def test_an_items_id_is_never_shown_as_a_change():
    before = {"entries": [{"id": "iaaaaaaaa", "key": "a", "name": "A", "min": 0}]}
    after = {"entries": [{"id": "ibbbbbbbb", "key": "a", "name": "A", "min": 1}]}
    (change,) = diff_lists(before, after)
    assert change.fields == {"min": (0, 1)}
