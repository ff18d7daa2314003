"""The muster.army/1 parser: strict, path-naming, defaults filled, nothing changed by a check."""

import copy

import pytest

import rules
from tests.support import army, example

UNIT = {"name": "Fyrd", "figures": 12}


def refusal(doc):
    with pytest.raises(rules.MalformedDocument) as caught:
        rules.parse_document(doc)
    return caught.value


def test_unknown_armour_names_the_path_and_the_allowed_values():
    err = refusal(army("into-the-dark", [UNIT, UNIT, dict(UNIT, armour="plate")]))
    assert err.path == "units[2].armour"
    assert err.message == (
        "units[2].armour: 'plate' is not one of unarmoured, protected, armoured, mailed, encased"
    )


@pytest.mark.parametrize(
    "change,path,words",
    [
        ({"format": "muster.army/2"}, "format", "is not supported"),
        ({"colour": "red"}, "colour", "unknown key"),
        ({"name": "   "}, "name", "must not be empty"),
        ({"name": "x" * 121}, "name", "at most 120"),
        ({"name": 7}, "name", "must be a string"),
        ({"ruleset": "warhammer"}, "ruleset", "is not one of"),
        ({"points_limit": 0}, "points_limit", "below the minimum 1"),
        ({"points_limit": 100001}, "points_limit", "above the maximum 100000"),
        ({"points_limit": "500"}, "points_limit", "whole number"),
        ({"options": {"command_and_control": "yes"}}, "options.command_and_control", "true or false"),
        ({"options": {"fog": True}}, "options.fog", "unknown key"),
        ({"units": {"name": "x"}}, "units", "must be a list"),
        ({"units": [7]}, "units[0]", "must be a unit"),
        ({"units": [{"figures": 3}]}, "units[0].name", "is required"),
        ({"units": [dict(UNIT, figures=True)]}, "units[0].figures", "whole number"),
        ({"units": [dict(UNIT, mounted=1)]}, "units[0].mounted", "true or false"),
        ({"units": [dict(UNIT, horses=4)]}, "units[0].horses", "unknown key"),
        ({"generals": [{"name": "Odo", "rating": "great"}]}, "generals[0].rating", "poor"),
        ({"generals": [{"name": "Odo", "champion": {"quality": "elite", "armour": "plate"}}]},
         "generals[0].champion.armour", "is not one of"),
        ({"notes": "bell\x07"}, "notes", "control character"),
        ({"notes": "x" * 5001}, "notes", "at most 5000"),
        ({"army_list": "norman-1067"}, "army_list", "known lists"),
    ],
)  # fmt: skip
def test_malformed_documents_are_refused_naming_the_path(change, path, words):
    doc = army("into-the-dark", [UNIT])
    doc.update(change)
    err = refusal(doc)
    assert err.path == path
    assert words in err.message
    assert err.message.startswith(path)


@pytest.mark.parametrize("missing", ["format", "name", "ruleset", "units"])
def test_required_top_level_keys(missing):
    doc = army("into-the-dark", [UNIT])
    del doc[missing]
    assert refusal(doc).path == missing


def test_a_document_must_be_an_object():
    assert refusal([1, 2]).path == ""


def test_more_than_500_units_are_refused():
    err = refusal(army("into-the-dark", [UNIT] * 501))
    assert err.path == "units"
    assert "at most 500" in err.message


def test_defaults_are_filled_and_strings_stripped():
    parsed = rules.parse_document(army("into-the-dark", [{"name": "  Fyrd  "}], name=" Saxons "))
    doc = parsed.to_document()
    assert doc["name"] == "Saxons"
    assert doc["units"][0] == {
        "name": "Fyrd",
        "figures": 12,
        "quality": "average",
        "density": "close",
        "armour": "unarmoured",
        "mounted": False,
        "training": "melee",
        "missile_weapon": None,
        "melee_weapon": "hand",
        "shieldwall": False,
        "warband": False,
        "skirmishers": False,
        "champion": False,
        "division": None,
        "mixed": None,
    }
    assert doc["options"] == {
        "command_and_control": False,
        "figure_scale": "25mm",
    }
    assert doc["army_list"] is None and doc["points_limit"] is None and doc["notes"] == ""


def test_notes_keep_newlines_and_tabs():
    parsed = rules.parse_document(army("into-the-dark", [UNIT], notes="line one\n\tline two"))
    assert parsed.notes == "line one\n\tline two"


def test_normalised_document_parses_to_itself():
    doc = rules.parse_document(example("into-the-dark-source-examples.json")).to_document()
    assert rules.parse_document(doc).to_document() == doc


def test_checking_never_changes_the_document():
    raw = example("into-the-dark-source-examples.json")
    before = copy.deepcopy(raw)
    rules.check_document(raw)
    assert raw == before


def test_a_float_that_is_a_whole_number_is_accepted_for_an_integer():
    parsed = rules.parse_document(army("into-the-dark", [dict(UNIT, figures=12.0)]))
    assert parsed.units[0]["figures"] == 12


def test_choice_values_are_type_strict():
    err = refusal(army("into-the-dark", [dict(UNIT, quality=3)]))
    assert err.path == "units[0].quality"


def test_army_list_is_checked_against_the_lists_handed_in():
    def lookup(ruleset):
        return {"test-list": {"entries": [{"name": "Anyone", "match": {}}]}}

    parsed = rules.parse_document(army("into-the-dark", [UNIT], army_list="test-list"), lookup)
    assert parsed.list_data == {"entries": [{"name": "Anyone", "match": {}}]}
    with pytest.raises(rules.MalformedDocument) as caught:
        rules.parse_document(army("into-the-dark", [UNIT], army_list="other"), lookup)
    assert "known lists: test-list" in caught.value.message


def test_canonical_order_restores_the_formats_key_order_and_changes_nothing_else():
    from rules.document import canonical_order

    doc = rules.parse_document(example("into-the-dark-source-examples.json")).to_document()
    shuffled = {k: doc[k] for k in sorted(doc, key=len)}  # the way PostgreSQL's jsonb keeps keys
    shuffled["units"] = [{k: u[k] for k in sorted(u)} for u in doc["units"]]
    restored = canonical_order(shuffled)
    assert restored == doc
    assert list(restored) == list(doc)
    assert [list(u) for u in restored["units"]] == [list(u) for u in doc["units"]]
    assert list(restored["generals"][0]) == list(doc["generals"][0])


def test_the_unit_memo_keeps_values_of_different_types_apart():
    """A unit parsed once is remembered by content; 1 and True must not share an entry."""
    from rules import check_document as check_raw
    from rules.errors import MalformedDocument

    good = {"name": "Levy", "figures": 12, "mounted": True}
    doc = {"format": "muster.army/1", "name": "A", "ruleset": "into-the-dark", "units": [good]}
    check_raw(doc)
    bad = dict(doc, units=[{"name": "Levy", "figures": 12, "mounted": 1}])
    with pytest.raises(MalformedDocument, match=r"units\[0\]\.mounted"):
        check_raw(bad)


def _list_refusal(doc):
    from rules.list_document import parse_list_document

    with pytest.raises(rules.MalformedDocument) as caught:
        parse_list_document(doc)
    return caught.value


LIST = {
    "format": "muster.list/1",
    "ruleset": "into-the-dark",
    "slug": "raiders",
    "name": "Raiders",
    "data": {},
}


@pytest.mark.parametrize(
    ("change", "path", "words"),
    [
        ({"colour": "red"}, "colour", "colour: unknown key; allowed keys: format, "),
        ({"format": "muster.other/9"}, "format", "format: 'muster.other/9' is not supported"),
        ({"ruleset": "chess"}, "ruleset", "ruleset: 'chess' is not one of "),
        ({"ruleset": "bad\u202etext"}, "ruleset", "ruleset: "),
    ],
)
def test_an_army_and_a_list_document_are_refused_alike_at_their_opening(change, path, words):
    """Both parsers read the opening (known keys, text rule, format, rule set) in one step."""
    army_error = refusal(army("into-the-dark", [UNIT]) | change)
    list_error = _list_refusal(LIST | change)
    assert (army_error.path, list_error.path) == (path, path)
    assert army_error.message.startswith(words)
    assert list_error.message.startswith(words)


def test_an_army_and_a_list_that_are_not_objects_say_which_document_they_are_not():
    assert refusal([]).message == "the document must be a JSON object, not a list"
    assert _list_refusal([]).message == "the list must be a JSON object, not a list"
