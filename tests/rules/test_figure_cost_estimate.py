"""A unit's points worked out from its figures (``RuleSet.figure_cost``) are the engine's.

The property (Hypothesis): random armies of every rule set; for any unit the rule set
prices by its figures, any figure count in the allowed range gives exactly the unit's
``cost_unit`` with those figures, the army's total moves by the unit's difference (the
total is the sum of rounded items), the whole-number form a page computes with gives the
same points, and a field named as costing nothing changes no cost.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rules
from rules.base import Army
from rules.costs import FigureCost
from rules.fields import Field
from rules.list_entries import vocabulary
from tests.support import army, fixture_lists

RULESETS = [rs.slug for rs in rules.all_rulesets()]
PRICED = [rs.slug for rs in rules.all_rulesets() if rs.uses_points]
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GENERALS = ("Harold", "Tostig")
NAMES = ("Foot", "Horse", "Bows", "Knights")


def value(field: Field, slug: str) -> st.SearchStrategy[Any]:
    """A value of ``field`` the parser accepts (mostly: a refused one is skipped)."""
    if field.name == "division":
        return st.sampled_from((None, *GENERALS, "Nobody"))
    if field.name == "ally":
        return st.sampled_from((None, *sorted(fixture_lists(slug))))
    if field.kind in ("boolean", "choice"):
        return st.sampled_from(vocabulary(field))
    if field.kind == "multi":
        return st.lists(st.sampled_from(field.values), unique=True, max_size=3)
    if field.kind in ("integer", "number"):
        low = int(field.minimum if field.minimum is not None else 0)
        high = int(field.maximum if field.maximum is not None else low + 30)
        return st.integers(low, high)
    if field.kind == "object":
        inner = st.fixed_dictionaries(
            {f.name: value(f, slug) for f in field.fields if f.kind != "object"}
        )
        return st.one_of(st.none(), inner) if field.nullable else inner
    return st.sampled_from(NAMES)


@st.composite
def armies(draw: st.DrawFn, slugs: list[str]) -> tuple[Army, int]:
    """A parsed army of one of ``slugs`` and the place of one of its units."""
    slug = draw(st.sampled_from(slugs))
    ruleset = rules.get_ruleset(slug)
    top: dict[str, Any] = {
        "options": {f.name: draw(value(f, slug)) for f in ruleset.options if draw(st.booleans())}
    }
    if fixture_lists(slug) and draw(st.booleans()):
        top["army_list"] = draw(st.sampled_from(sorted(fixture_lists(slug))))
    if ruleset.has_generals:
        top["generals"] = [
            {"name": name, "commanding": draw(st.booleans())}
            for name in GENERALS[: draw(st.integers(0, 2))]
        ]
    if ruleset.uses_points and draw(st.booleans()):
        top["points_limit"] = draw(st.integers(1, 2000))
    fields = [f for f in ruleset.unit_fields if f.name != "name"]
    units = []
    for i in range(draw(st.integers(1, 5))):
        chosen = draw(st.lists(st.sampled_from(fields), unique_by=lambda f: f.name, max_size=6))
        units.append({"name": f"Unit {i + 1}", **{f.name: draw(value(f, slug)) for f in chosen}})
    try:
        parsed = rules.parse_document(army(slug, units, **top), fixture_lists)
    except rules.MalformedDocument:
        assume(False)
        raise
    return parsed, draw(st.integers(0, len(parsed.units) - 1))


def with_unit(parsed: Army, index: int, **values: Any) -> Army:
    """The army as its stored document says, unit ``index`` changed, parsed again."""
    document = parsed.to_document()
    document["units"][index] = {**document["units"][index], **values}
    return rules.parse_document(document, fixture_lists)


def page_points(data: dict[str, Any], count: int) -> int:
    """The points as the page works them out from the JSON it is sent: whole numbers only."""
    assert data["round"] == "up"
    return -(-(data["per"] * count + data["fixed"]) // data["den"])


@SETTINGS
@given(armies(RULESETS), st.data())
def test_any_figure_count_in_range_costs_what_the_engine_says_and_moves_the_total_by_as_much(
    case, data
):
    parsed, index = case
    ruleset = rules.get_ruleset(parsed.ruleset)
    unit = parsed.units[index]
    estimate = ruleset.figure_cost(unit, parsed)
    if estimate is None:
        return
    assert estimate.count == unit[estimate.field]
    assert estimate.minimum <= estimate.count <= estimate.maximum
    count = data.draw(st.integers(estimate.minimum, estimate.maximum), label="count")
    before = rules.check(parsed)
    after_army = with_unit(parsed, index, **{estimate.field: count})
    after = rules.check(after_army)
    cost = ruleset.cost_unit(after_army.units[index], after_army)
    assert cost is not None
    assert estimate.exact(count) == cost.exact
    assert estimate.points(count) == cost.points == after.units[index].points
    assert page_points(estimate.to_json(), count) == cost.points
    assert before.total_points is not None and after.total_points is not None
    unit_before = before.units[index].points
    assert unit_before == estimate.points(estimate.count)
    assert after.total_points == before.total_points - unit_before + estimate.points(count)


@SETTINGS
@given(armies(PRICED), st.data())
def test_a_field_said_to_cost_nothing_changes_no_cost_and_no_estimate(case, data):
    parsed, index = case
    ruleset = rules.get_ruleset(parsed.ruleset)
    estimate = ruleset.figure_cost(parsed.units[index], parsed)
    assume(estimate is not None and estimate.free)
    assert estimate is not None
    name = data.draw(st.sampled_from(estimate.free), label="field")
    new = data.draw(value(ruleset.unit_field(name), parsed.ruleset), label="value")
    try:
        changed = with_unit(parsed, index, **{name: new})
    except rules.MalformedDocument:
        assume(False)
        raise
    cost_before = ruleset.cost_unit(parsed.units[index], parsed)
    cost_after = ruleset.cost_unit(changed.units[index], changed)
    assert cost_before is not None and cost_after is not None
    assert cost_after.exact == cost_before.exact
    assert rules.check(changed).total_points == rules.check(parsed).total_points
    assert ruleset.figure_cost(changed.units[index], changed) == estimate


@pytest.mark.parametrize("slug", PRICED)
@SETTINGS
@given(data=st.data())
def test_every_unit_of_a_rule_set_with_points_is_priced_by_its_figures(slug, data):
    parsed, index = data.draw(armies([slug]))
    estimate = rules.get_ruleset(slug).figure_cost(parsed.units[index], parsed)
    assert isinstance(estimate, FigureCost)


@pytest.mark.parametrize("slug", [s for s in RULESETS if s not in PRICED])
def test_a_rule_set_without_points_prices_nothing_by_its_figures(slug):
    parsed = rules.parse_document(army(slug, [{"name": "Foot"}]), fixture_lists)
    assert rules.get_ruleset(slug).figure_cost(parsed.units[0], parsed) is None


def test_the_page_form_keeps_halves_exact_over_one_denominator():
    estimate = FigureCost("figures", 12, Fraction(15, 2), Fraction(30), 1, 400)
    data = estimate.to_json()
    assert (data["per"], data["fixed"], data["den"]) == (15, 60, 2)
    assert [page_points(data, n) for n in (1, 2, 3)] == [38, 45, 53]
    assert [estimate.points(n) for n in (1, 2, 3)] == [38, 45, 53]


def test_the_source_examples_come_out_of_the_estimate():
    """Into the Dark's Knights (12 fanatic LMM: 16 a figure, command 50) and Dewitt's 4
    stands of 3 heavy cavalry with lance and the C-in-C (12 x 14 + 100)."""
    knights = rules.parse_document(
        army(
            "into-the-dark",
            [
                {
                    "name": "Knights",
                    "quality": "fanatic",
                    "density": "loose",
                    "armour": "mailed",
                    "mounted": True,
                    "figures": 12,
                }
            ],
        )  # fmt: skip
    )
    itd = rules.get_ruleset("into-the-dark").figure_cost(knights.units[0], knights)
    assert itd is not None
    assert (itd.points(12), itd.each, itd.fixed) == (242, 16, 50)
    dewitt_army = rules.parse_document(
        army(
            "dewitt-medieval",
            [
                {
                    "name": "Lances",
                    "arm": "cavalry",
                    "class": "heavy",
                    "weapons": ["lance"],
                    "stands": 4,
                    "figures_per_stand": 3,
                    "command": "c_in_c",
                }
            ],
        )  # fmt: skip
    )
    dewitt = rules.get_ruleset("dewitt-medieval").figure_cost(dewitt_army.units[0], dewitt_army)
    assert dewitt is not None
    assert (dewitt.field, dewitt.points(4), dewitt.points(2)) == ("stands", 268, 184)
