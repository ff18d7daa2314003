"""Into the Dark army-list checks on synthetic lists, and the assignment solver behind them."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules.matching import fits
from rules.rulesets.into_the_dark.ruleset import RULESET as ITD
from tests.support import army

LIST = {
    "entries": [
        {"key": "huscarls", "name": "huscarls", "min": 1, "max": 2,
         "match": {"density": ["close"], "armour": ["mailed"], "mounted": [False]}},
        {"key": "fyrd", "name": "fyrd", "min": 0, "max": 4,
         "match": {"density": ["close"], "armour": ["unarmoured", "protected", "mailed"],
                   "mounted": [False]}},
        {"key": "horse", "name": "horsemen", "min": 0, "max": 2, "match": {"mounted": [True]}},
    ],
    "limits": [{"label": "Mounted troops", "match": {"mounted": [True]}, "max_share": "1/4"}],
}  # fmt: skip
HUSCARLS = {"name": "Huscarls", "armour": "mailed"}
FYRD = {"name": "Fyrd", "armour": "protected"}
HORSE = {"name": "Thegns", "mounted": True, "density": "loose", "figures": 4}


def report_for(units):
    doc = army("into-the-dark", units, army_list="test")
    return rules.check_document(doc, lambda slug: {"test": LIST})[1]


def codes(report):
    return sorted(i.code for i in report.issues)


def test_legal_army_fits_the_list():
    assert codes(report_for([HUSCARLS, FYRD, FYRD, HORSE])) == []


def test_unit_matching_no_entry_is_not_in_army_list():
    report = report_for([HUSCARLS, dict(FYRD, density="open")])
    assert codes(report) == ["not-in-army-list"]
    assert report.issues[0].unit == 1


def test_entry_minimum_unmet_is_army_list_min():
    assert codes(report_for([FYRD, FYRD])) == ["army-list-min"]


def test_entry_maximum_exceeded_is_army_list_max():
    report = report_for([HUSCARLS, HORSE, HORSE, HORSE, *[FYRD] * 9])
    assert codes(report) == ["army-list-max", "army-list-max"]
    messages = " ".join(i.message for i in report.issues)
    assert "at most 2 horsemen; the army has 3" in messages
    assert "at most 4 fyrd; the army has 9" in messages


def test_a_unit_fitting_two_entries_counts_where_it_helps():
    # three mailed close foot: one must be huscarls (min 1), the others may be fyrd
    assert codes(report_for([HUSCARLS, HUSCARLS, HUSCARLS])) == []
    # seven: 2 huscarls + 4 fyrd hold six; the seventh has nowhere to go
    assert codes(report_for([HUSCARLS] * 7)) == ["army-list-max"]


def test_limit_on_share_of_points_is_army_list_limit():
    report = report_for([HUSCARLS, dict(HORSE, figures=12, armour="mailed")])
    assert codes(report) == ["army-list-limit"]
    assert "at most 1/4 of the points" in report.issues[0].message


@pytest.mark.parametrize(
    "data,words",
    [
        ([], "JSON object"),
        ({"entries": []}, "non-empty list"),
        ({"entries": [{"name": "x", "match": {"armour": ["plate"]}}]}, "'plate' is not one of"),
        ({"entries": [{"name": "x", "match": {"colour": ["red"]}}]}, "not a unit field"),
        ({"entries": [{"name": "x", "match": {}, "min": 3, "max": 1}]},
         "at most 1 is fewer than at least 3"),
        ({"entries": [{"match": {}}]}, "a name is required"),
        ({"entries": [{"name": "x", "match": {}}], "limits": [{"match": {}, "max_share": "3/2"}]},
         "fraction from 0 to 1"),
        ({"entries": [{"name": "x", "match": {}}], "extra": 1}, "unknown keys extra"),
    ],
)  # fmt: skip
def test_malformed_list_data_is_refused_with_a_message(data, words):
    problems = ITD.validate_army_list(data)
    assert any(words in p for p in problems), problems


def test_the_synthetic_list_itself_is_valid():
    assert ITD.validate_army_list(LIST) == []


def brute_force(options, minimum, maximum):
    for choice in itertools.product(*options):
        counts = [choice.count(slot) for slot in range(len(minimum))]
        if all(lo <= c <= hi for c, lo, hi in zip(counts, minimum, maximum, strict=True)):
            return True
    return False


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_assignment_solver_agrees_with_brute_force(data):
    slots = data.draw(st.integers(1, 4))
    items = data.draw(st.integers(0, 6))
    options = [
        sorted(data.draw(st.sets(st.integers(0, slots - 1), min_size=1, max_size=slots)))
        for _ in range(items)
    ]
    minimum = [data.draw(st.integers(0, 3)) for _ in range(slots)]
    maximum = [lo + data.draw(st.integers(0, 3)) for lo in minimum]
    assert fits(options, minimum, maximum) == brute_force(options, minimum, maximum)


def test_entries_that_fit_alone_but_not_together_are_reported_once():
    two_entries = {
        "entries": [
            {"name": "bodyguard", "min": 1, "max": 1, "match": {"armour": ["mailed"]}},
            {"name": "champions of the host", "min": 1, "max": 1, "match": {"armour": ["mailed"]}},
        ]
    }
    doc = army("into-the-dark", [HUSCARLS], army_list="two")
    report = rules.check_document(doc, lambda slug: {"two": two_entries})[1]
    assert [(i.code, i.message) for i in report.issues] == [
        (
            "army-list-min",
            "The units cannot fill every entry's minimum at once: some serve two entries.",
        )
    ]


def test_an_entry_leaving_training_open_adds_javelin_units_the_rules_allow():
    data = {"entries": [{"key": "j", "name": "Javelinmen", "match": {"missile_weapon": ["javelin"]},
                         "min": 0, "max": 2}]}  # fmt: skip
    (entry,) = ITD.list_entries(data, None)
    assert entry.values["missile_weapon"] == "javelin" and entry.values["training"] == "missile"
    melee = {"entries": [{"key": "m", "name": "Axemen", "match": {"training": ["melee"]}}]}
    (entry,) = ITD.list_entries(melee, None)
    assert entry.values == {"training": "melee", "name": "Axemen"}  # legal already: untouched
