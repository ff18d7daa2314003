""" "Try it" (``rules.list_trial``): the sample army a list makes, checked with the rule
set's other lists, the list itself answering for its slug."""

from __future__ import annotations

import dataclasses

import pytest

import rules
from rules.base import NamedLists, list_families, list_names
from rules.list_document import ListDocument
from rules.list_trial import MOST_UNITS, lookup_with_list, try_list
from tests.support import fixture_lists

RULESETS = ("into-the-dark", "feudal-2017", "dark-ages-2015", "dark-ages-d5")


def listed(ruleset: str, slug: str, **changed: object) -> ListDocument:
    found = fixture_lists(ruleset)
    fields = {"ruleset": ruleset, "slug": slug, "name": found.names[slug], "period": "",
              "source_note": "", "data": found[slug]}  # fmt: skip
    return ListDocument(**{**fields, **changed})


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_fixture_list_makes_a_sample_army_within_its_entries(ruleset):
    engine = rules.get_ruleset(ruleset)
    for slug, data in fixture_lists(ruleset).items():
        trial = try_list(listed(ruleset, slug), fixture_lists)
        assert trial.broken == "" and trial.units, slug
        counts = dict(trial.units)
        assert sum(counts.values()) <= MOST_UNITS
        for entry in engine.list_entries(data, None):
            taken = counts.get(entry.label, 0)
            assert taken >= entry.minimum, (slug, entry.label)
            assert entry.maximum is None or taken <= entry.maximum, (slug, entry.label)
        assert (trial.points is not None) == engine.uses_points


def test_into_the_dark_sample_armies_are_legal_and_priced():
    for slug in fixture_lists("into-the-dark"):
        trial = try_list(listed("into-the-dark", slug), fixture_lists)
        assert trial.errors == () and trial.points > 0, slug


def test_a_list_mid_edit_says_why_it_cannot_make_an_army_yet():
    typed = {"entries": [{"key": "x", "name": "X", "min": "a", "match": {}}]}
    trial = try_list(listed("into-the-dark", "swiss", data=typed), fixture_lists)
    assert trial.units == () and trial.points is None
    assert (
        trial.broken
        == "the list cannot make an army yet (invalid literal for int() with base 10: 'a')"
    )


def test_a_sample_army_the_parser_refuses_says_where_in_its_words():
    typed = {"entries": [{"key": "x", "name": "X", "min": 1, "match": {"quality": ["nope"]}}]}
    trial = try_list(listed("into-the-dark", "swiss", data=typed), fixture_lists)
    assert trial.broken.startswith("units[0].quality: 'nope' is not one of average")


def test_the_sample_army_is_checked_with_the_list_as_written_not_as_saved():
    written = fixture_lists("into-the-dark")["swiss"]
    written["entries"][0]["min"] = 6
    trial = try_list(listed("into-the-dark", "swiss", data=written), fixture_lists)
    assert dict(trial.units)["Pikemen"] >= 6


def test_the_list_answers_for_its_slug_beside_the_rule_sets_other_lists():
    copy = listed("into-the-dark", "swiss", name="My Swiss", data={"entries": []}, family="swiss")
    lookup = lookup_with_list(fixture_lists, copy)
    found = lookup("into-the-dark")
    assert found["swiss"] == {"entries": []}
    assert list_names(found)["swiss"] == "My Swiss"
    assert list_families(found) == {}  # a list of its own slug is its own family
    own = dataclasses.replace(listed("into-the-dark", "swiss"), slug="my-swiss", family="swiss")
    mine = lookup_with_list(fixture_lists, own)
    assert list_families(mine("into-the-dark")) == {"my-swiss": "swiss"}
    assert set(mine("into-the-dark")) == {*fixture_lists("into-the-dark"), "my-swiss"}
    assert mine("feudal-2017") == fixture_lists("feudal-2017")
    assert isinstance(mine("feudal-2017"), NamedLists)
