"""Each restriction kind describes its field on the event form as data (``FormField``):
what it asks (a count, a flag, a choice of the rule set's values) and when it asks nothing."""

from __future__ import annotations

from rules.registry import get_ruleset
from rules.restriction_kinds import KIND_CLASSES

ITD = get_ruleset("into-the-dark")
FEUDAL = get_ruleset("feudal-2017")


def test_max_units_asks_for_a_number():
    asked = KIND_CLASSES["max_units"].form_field(ITD)
    assert (asked.name, asked.label, asked.value) == (
        "max_units",
        "At most this many units",
        "count",
    )


def test_no_personalities_is_asked_only_where_the_rule_set_has_them():
    assert KIND_CLASSES["no_personalities"].form_field(ITD) is None
    asked = KIND_CLASSES["no_personalities"].form_field(FEUDAL)
    assert (asked.name, asked.value, asked.choices) == ("no_personalities", "flag", ())


def test_an_option_kind_offers_every_value_of_the_rule_sets_options_in_words():
    asked = KIND_CLASSES["required_option"].form_field(FEUDAL)
    assert asked.value == "choice"
    dice = FEUDAL.option_field("dice")
    offered = [(name, value) for name, value, _ in asked.choices if name == "dice"]
    assert offered == [("dice", value) for value in dice.values]
    assert ("diced_movement", True, f"{FEUDAL.option_field('diced_movement').label}: on") in (
        asked.choices
    )
    assert KIND_CLASSES["forbidden_option"].form_field(FEUDAL).choices == asked.choices
    assert all(name != "base_width_in" for name, _, _ in asked.choices)  # a number: no menu


def test_min_unit_type_offers_unit_values_with_a_count_and_no_personalities():
    asked = KIND_CLASSES["min_unit_type"].form_field(FEUDAL)
    assert (asked.value, asked.count) == ("choice", "min_unit_count")
    named = {name for name, _, _ in asked.choices}
    assert "type" in named and "personality" not in named
    assert all(value is not None for _, value, _ in asked.choices)
