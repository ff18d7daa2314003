"""A Dark Ages list changes shape in one step: a number that breaks the six-unit total is
offered with what else would change to keep it, and each offer is a list the rule set
accepts that keeps the number the author just set."""

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules

RULESETS = ["dark-ages-d5", "dark-ages-2015"]


def listed(counts: list[int], picks: list[int]) -> dict:
    return {
        "required": [
            {"key": f"r{n}", "name": f"Foot {n}", "match": {"type": ["infantry"]}, "count": c}
            for n, c in enumerate(counts)
        ],
        "choices": [
            {"key": f"g{n}", "name": f"Group {n}", "pick": p,
             "options": [{"key": f"o{n}", "name": f"Bows {n}",
                          "match": {"type": ["skirmishers"]}, "max": p}]}
            for n, p in enumerate(picks)
        ],
    }  # fmt: skip


@pytest.mark.parametrize("slug", RULESETS)
def test_a_lower_count_is_offered_with_a_larger_pick(slug):
    shape = rules.get_ruleset(slug).list_shape()
    data = listed([4], [2])
    data["required"][0]["count"] = 2
    offers = shape.rebalance(data, frozenset({"r0"}))
    assert [text for text, _ in offers] == ["Then raise Group 0’s Units to pick from 2 to 4."]
    assert offers[0][1]["choices"][0]["pick"] == 4 and offers[0][1]["required"][0]["count"] == 2


@pytest.mark.parametrize("slug", RULESETS)
def test_a_lower_pick_takes_its_options_maximum_down_with_it(slug):
    shape = rules.get_ruleset(slug).list_shape()
    data = listed([3], [3])
    data["required"][0]["count"] = 4
    ((text, after),) = shape.rebalance(data, frozenset({"r0"}))
    assert text == "Then lower Group 0’s Units to pick from 3 to 2 (and At most of Bows 0 to 2)."
    assert after["choices"][0]["options"][0]["max"] == 2


@pytest.mark.parametrize("slug", RULESETS)
def test_a_gap_no_one_number_can_take_is_spread_over_several(slug):
    shape = rules.get_ruleset(slug).list_shape()
    data = listed([2, 2], [2])
    data["required"].append({"key": "new", "name": "New", "match": {"type": ["cavalry"]},
                             "count": 3})  # fmt: skip
    ((text, after),) = shape.rebalance(data, frozenset({"new"}))
    assert text.count(" and ") == 2  # every other number lowered to one
    assert rules.get_ruleset(slug).validate_army_list(after) == []


@settings(max_examples=60, deadline=None)
@given(
    slug=st.sampled_from(RULESETS),
    counts=st.lists(st.integers(1, 3), min_size=1, max_size=3),
    picks=st.lists(st.integers(1, 3), min_size=1, max_size=2),
    which=st.integers(0, 4),
    value=st.integers(1, 6),
)
def test_every_offer_is_a_whole_list_that_keeps_the_number_just_set(
    slug, counts, picks, which, value
):
    ruleset = rules.get_ruleset(slug)
    data = listed(counts, picks)
    items = [("required", n, "count") for n in range(len(counts))] + [
        ("choices", n, "pick") for n in range(len(picks))
    ]
    key, n, number = items[which % len(items)]
    changed = copy.deepcopy(data)
    changed[key][n][number] = value
    kept = frozenset({changed[key][n]["key"]})
    for text, after in ruleset.list_shape().rebalance(changed, kept):
        assert ruleset.validate_army_list(after) == [], text
        assert after[key][n][number] == value
        assert text.startswith("Then ") and "[" not in text
