"""Each kind of event restriction is one class in one table: it takes exactly its keys,
parses and describes its data, and checks an army citing the rule it is given."""

from __future__ import annotations

import pytest

import rules
from rules.errors import MalformedDocument
from rules.registry import get_ruleset
from rules.restriction_kinds import (
    KIND_CLASSES,
    ForbiddenOption,
    MaxUnits,
    MinUnitType,
    NoPersonalities,
    RequiredOption,
    Restriction,
)
from rules.restrictions import KINDS, parse_restriction
from tests.support import army, fixture_lists

ITD = get_ruleset("into-the-dark")
FEUDAL = get_ruleset("feudal-2017")
RULE = "Event restriction 1"


def viking(units: int):
    data = fixture_lists("into-the-dark")["viking"]
    presets = ITD.unit_presets(data)
    doc = army("into-the-dark", [dict(presets[1][1]) for _ in range(units)], army_list="viking")
    parsed, _ = rules.check_document(doc, lambda _: fixture_lists("into-the-dark"))
    return parsed


def test_the_table_names_each_kind_once_and_is_what_the_parser_reads():
    assert list(KIND_CLASSES) == list(KINDS)
    for name, kind in KIND_CLASSES.items():
        assert kind.name == name
        assert KINDS[name] == kind.title


@pytest.mark.parametrize(
    "raw",
    [
        {"kind": "max_units", "count": 8},
        {"kind": "no_personalities"},
        {"kind": "required_option", "option": "figure_scale", "value": "15mm"},
        {"kind": "forbidden_option", "option": "figure_scale", "value": "15mm"},
        {"kind": "min_unit_type", "field": "quality", "value": "elite", "count": 2},
    ],
)
def test_each_kind_gives_back_exactly_the_data_it_took(raw):
    ruleset = FEUDAL if raw["kind"] == "no_personalities" else ITD
    assert parse_restriction(raw, ruleset, "r").to_json() == raw


def test_max_units_counts_every_unit():
    restriction = MaxUnits().parse({"count": 3}, ITD, "r")
    assert MaxUnits().describe(restriction, ITD) == "At most 3 units."
    assert MaxUnits().check(viking(3), restriction, ITD, RULE) == []
    (issue,) = MaxUnits().check(viking(4), restriction, ITD, RULE)
    assert (issue.code, issue.rule) == ("event-max-units", RULE)
    assert issue.message == "The army has 4 units; the event allows at most 3."


def test_max_units_refuses_a_count_out_of_range_naming_its_path():
    with pytest.raises(MalformedDocument) as refused:
        MaxUnits().parse({"count": 0}, ITD, "restrictions[0]")
    assert refused.value.path == "restrictions[0].count"


def test_no_personalities_needs_a_rule_set_with_personalities():
    with pytest.raises(MalformedDocument) as refused:
        NoPersonalities().parse({}, ITD, "r")
    assert refused.value.path == "r.kind"
    assert NoPersonalities().parse({}, FEUDAL, "r") == Restriction("no_personalities")


def test_required_and_forbidden_option_are_each_others_opposite():
    raw = {"option": "figure_scale", "value": "15mm"}
    required = RequiredOption().parse(raw, ITD, "r")
    forbidden = ForbiddenOption().parse(raw, ITD, "r")
    assert "must be" in RequiredOption().describe(required, ITD)
    assert "must not be" in ForbiddenOption().describe(forbidden, ITD)
    parsed = viking(1)  # at the default scale, 25 mm
    (issue,) = RequiredOption().check(parsed, required, ITD, RULE)
    assert (issue.code, issue.rule) == ("event-option-required", RULE)
    assert ForbiddenOption().check(parsed, forbidden, ITD, RULE) == []


def test_min_unit_type_counts_the_units_with_that_value():
    restriction = MinUnitType().parse({"field": "quality", "value": "elite", "count": 2}, ITD, "r")
    assert MinUnitType().describe(restriction, ITD) == "At least 2 units with Quality “Elite (4)”."
    parsed = viking(3)  # three average units
    (issue,) = MinUnitType().check(parsed, restriction, ITD, RULE)
    assert issue.code == "event-min-units"
    assert issue.message.startswith("The army has 0 with Quality “Elite (4)”;")
    average = MinUnitType().parse({"field": "quality", "value": "average", "count": 3}, ITD, "r")
    assert MinUnitType().check(parsed, average, ITD, RULE) == []
