"""A brand-new player-made list of every rule set with a list editor starts with tiles
that build legal units: a unit added from each of its entries, as the picker adds it,
has no error of its own (the army as a whole may still want more units)."""

import copy

import pytest

import rules
from rules.document import parse_document
from rules.engine import check
from rules.registry import all_rulesets

SLUG = "my-new-list"
EDITABLE = [r for r in all_rulesets() if r.list_shape() is not None]


def test_every_list_editor_is_covered():
    assert {"dark-ages-d5", "dark-ages-2015", "feudal-2017", "into-the-dark"} <= {
        r.slug for r in EDITABLE
    }


def unit_errors(ruleset: rules.base.RuleSet, data: dict, values: dict) -> list[str]:
    document = {"format": "muster.army/1", "name": "Trial", "ruleset": ruleset.slug,
                "army_list": SLUG, "units": [dict(values)]}  # fmt: skip
    army = parse_document(document, lambda slug: {SLUG: data} if slug == ruleset.slug else {})
    report = check(army)
    return [i.code for i in report.issues if i.severity == "error" and i.unit == 0]


@pytest.mark.parametrize("ruleset", EDITABLE, ids=lambda r: r.slug)
def test_each_tile_of_a_new_list_builds_a_legal_unit(ruleset):
    data = copy.deepcopy(ruleset.list_shape().empty)
    assert ruleset.validate_army_list(data) == []  # a new list is valid at once
    entries = ruleset.list_entries(data, None)
    assert entries, "a new list offers tiles to build from"
    for entry in entries:
        assert unit_errors(ruleset, data, entry.values) == [], entry.label


@pytest.mark.parametrize("ruleset", EDITABLE, ids=lambda r: r.slug)
def test_a_new_entry_added_in_the_editor_builds_a_legal_unit(ruleset):
    shape = ruleset.list_shape()
    for section in shape.sections:
        if not section.new_item or "match" not in section.new_item:
            continue
        data = copy.deepcopy(shape.empty)
        item = copy.deepcopy(section.new_item)
        item["key"] = "added"
        if section.within:  # an option of the first choice group
            data[section.within][0][section.key].append(item)
        else:
            data.setdefault(section.key, []).append(item)
        for entry in ruleset.list_entries(data, None):
            assert unit_errors(ruleset, data, entry.values) == [], (section.key, entry.label)
