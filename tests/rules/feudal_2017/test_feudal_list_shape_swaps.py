"""Feudal columns are swapped or rotated one column at a time: a column set to another's
type is offered with that other column taking a type no column has."""

import rules
from rules.rulesets.feudal_2017.lists import STANDARD_COLUMNS

FEUDAL = rules.get_ruleset("feudal-2017")


def test_a_column_set_to_anothers_type_is_offered_with_the_other_taking_a_free_type():
    data = {"columns": {**STANDARD_COLUMNS, "core": "freemen"}, "replacements": []}
    offers = FEUDAL.list_shape().rebalance(data, frozenset({"core"}))
    texts = [text for text, _ in offers]
    assert "Then Column T3 becomes Knights." in texts
    assert all(FEUDAL.validate_army_list(after) == [] for _, after in offers)
    assert all(after["columns"]["core"] == "freemen" for _, after in offers)


def test_a_list_with_different_columns_needs_no_offer():
    data = {"columns": dict(STANDARD_COLUMNS), "replacements": []}
    assert FEUDAL.list_shape().rebalance(data, frozenset({"core"})) == []
