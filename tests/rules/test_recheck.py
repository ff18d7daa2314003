"""An edit re-checked from the last check (``rules.recheck_document``) is the full check.

The property (Hypothesis): random armies of every rule set, random one-field edits in a
row, each applied as the builder does (a copy of the stored document with one unit
replaced, the stored document being the parser's output); the incremental result is the
same parsed army, the same report (points, breakdowns, stat lines, issues in the same
order) and the same stored document as a fresh full check with the memos emptied, and a
refused edit is refused with the same message.
"""

from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rules
from rules import memo
from rules.fields import Field
from rules.list_entries import vocabulary
from tests.support import army, fixture_lists

RULESETS = [rs.slug for rs in rules.all_rulesets()]
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GENERALS = ("Harold", "Tostig")
NAMES = ("Foot", "Horse", "Bows", "Knights")
_LISTS = {slug: fixture_lists(slug) for slug in RULESETS}


def stable_lists(ruleset: str) -> Any:
    """The same list objects every call, as the web layer's list memory answers."""
    return _LISTS.get(ruleset, {})


def value(field: Field, ruleset: str, *, wild: bool) -> st.SearchStrategy[Any]:
    """A value for ``field``: mostly ones the parser accepts; ``wild`` adds refused ones."""
    if field.name == "division":
        return st.sampled_from((None, *GENERALS, "Nobody"))
    if field.name == "ally":
        return st.sampled_from((None, *sorted(_LISTS[ruleset])))
    if field.kind == "boolean":
        found: st.SearchStrategy[Any] = st.booleans()
    elif field.kind == "choice":
        found = st.sampled_from(vocabulary(field))
    elif field.kind == "multi":
        found = st.lists(st.sampled_from(field.values), unique=True, max_size=3)
    elif field.kind in ("integer", "number"):
        low = int(field.minimum if field.minimum is not None else 0)
        high = int(min(field.maximum if field.maximum is not None else low + 30, low + 30))
        found = st.integers(low - int(wild), high + int(wild))
    elif field.kind == "object":
        inner = st.fixed_dictionaries(
            {f.name: value(f, ruleset, wild=False) for f in field.fields if f.kind != "object"}
        )
        found = st.one_of(st.none(), inner) if field.nullable else inner
    else:
        found = st.sampled_from(NAMES)
    if wild:
        found = st.one_of(found, st.sampled_from(("", "Bad\u202ename", [1])))
    return found


@st.composite
def armies(draw: st.DrawFn) -> tuple[str, dict[str, Any], list[tuple[int, str, Any]]]:
    """A rule set, a document of it, and edits: (unit index, field, value)."""
    slug = draw(st.sampled_from(RULESETS))
    ruleset = rules.get_ruleset(slug)
    top: dict[str, Any] = {}
    options = {
        f.name: draw(value(f, slug, wild=False))
        for f in ruleset.options
        if draw(st.booleans()) and f.kind != "number"
    }
    if options:
        top["options"] = options
    if _LISTS[slug] and draw(st.booleans()):
        top["army_list"] = draw(st.sampled_from(sorted(_LISTS[slug])))
    if ruleset.has_generals:
        top["generals"] = [
            {"name": name, "commanding": draw(st.booleans())}
            for name in GENERALS[: draw(st.integers(0, 2))]
        ]
    if ruleset.uses_points and draw(st.booleans()):
        top["points_limit"] = draw(st.integers(1, 400))
    fields = [f for f in ruleset.unit_fields if f.name != "name"]
    units = []
    for i in range(draw(st.integers(1, 8))):
        chosen = draw(st.lists(st.sampled_from(fields), unique_by=lambda f: f.name, max_size=5))
        units.append(
            {"name": f"Unit {i + 1}", **{f.name: draw(value(f, slug, wild=False)) for f in chosen}}
        )
    edits = []
    for _ in range(draw(st.integers(1, 6))):
        field = draw(st.sampled_from(ruleset.unit_fields))
        edit = draw(value(field, slug, wild=draw(st.integers(0, 4)) == 0))
        edits.append((draw(st.integers(0, len(units) - 1)), field.name, edit))
    return slug, army(slug, units, **top), edits


def edited(stored: dict[str, Any], index: int, field: str, new: Any) -> dict[str, Any]:
    """What the builder sends to the check: a copy with one unit replaced, the rest shared."""
    document = dict(stored)
    document["units"] = list(stored["units"])
    if isinstance(stored.get("generals"), list):
        document["generals"] = list(stored["generals"])
    document["units"][index] = {**stored["units"][index], field: new}
    return document


def full_check(raw: Any) -> rules.CheckState | str:
    memo.clear()  # a fresh check: nothing remembered from earlier documents
    try:
        return rules.check_state(rules.parse_document(raw, fixture_lists))
    except rules.MalformedDocument as exc:
        return exc.message


@SETTINGS
@given(armies())
def test_an_edit_rechecked_from_the_last_check_is_the_full_check_of_the_new_document(case):
    _slug, document, edits = case
    first = full_check(document)
    assume(not isinstance(first, str))
    assert isinstance(first, rules.CheckState)
    state, stored = first, first.army.to_document()
    for index, field, new in edits:
        raw = edited(stored, index, field, new)
        try:
            result: rules.CheckState | str = rules.recheck_document(
                raw, stable_lists, stored, state
            )
        except rules.MalformedDocument as exc:
            result = exc.message
        expected = full_check(raw)
        if isinstance(expected, str):
            assert result == expected
            continue
        assert isinstance(result, rules.CheckState)
        assert result.report == expected.report
        assert result.army == expected.army
        assert result.army.to_document() == expected.army.to_document()
        assert result.unit_issues == expected.unit_issues
        state, stored = result, result.army.to_document()


def _stored(document: dict[str, Any]) -> dict[str, Any]:
    return rules.parse_document(document, stable_lists).to_document()


def _itd(units: int) -> dict[str, Any]:
    units_ = [{"name": f"Foot {i}", "figures": 12} for i in range(units)]
    return _stored(army("into-the-dark", units_))


def test_a_document_with_nothing_replaced_is_answered_with_the_last_check_itself():
    stored = _itd(3)
    state = rules.check_state(rules.parse_document(stored, stable_lists))
    assert rules.recheck_document(stored, stable_lists, stored, state) is state
    assert rules.recheck_document(dict(stored), stable_lists, stored, state) is state


def test_an_edit_reuses_the_other_units_results_and_checks_the_edited_one_again():
    stored = _itd(3)
    state = rules.check_state(rules.parse_document(stored, stable_lists))
    result = rules.recheck_document(edited(stored, 1, "figures", 2), stable_lists, stored, state)
    assert result.report.units[0] is state.report.units[0]
    assert result.report.units[2] is state.report.units[2]
    assert [i.code for i in result.report.issues] == ["too-few-figures"]
    assert result.report.issues[0].unit == 1


@pytest.mark.parametrize("change", ["two units", "the name", "a unit added"])
def test_anything_more_than_one_unit_replaced_is_checked_whole(change):
    stored = _itd(3)
    state = rules.check_state(rules.parse_document(stored, stable_lists))
    raw = edited(stored, 0, "figures", 3)
    if change == "two units":
        raw["units"][2] = {**raw["units"][2], "figures": 2}
    elif change == "the name":
        raw["name"] = "Renamed"
    else:
        raw["units"].append({"name": "New", "figures": 1})
    result = rules.recheck_document(raw, stable_lists, stored, state)
    memo.clear()
    assert result.report == rules.check(rules.parse_document(raw, stable_lists))
    assert result.report.units[1] is not state.report.units[1]


def test_other_army_lists_than_the_last_check_had_mean_a_whole_check_with_them():
    stored = _stored(army("into-the-dark", [{"name": "Foot", "figures": 12}], army_list="viking"))
    state = rules.check_state(rules.parse_document(stored, stable_lists))
    emptied = {
        slug: {**data, "entries": []} for slug, data in stable_lists("into-the-dark").items()
    }
    raw = edited(stored, 0, "figures", 10)
    asked: list[str] = []

    def reloaded(ruleset: str) -> Any:
        asked.append(ruleset)
        return emptied

    result = rules.recheck_document(raw, reloaded, stored, state)
    assert asked == ["into-the-dark"]  # asked once, as one query of the web layer
    assert result.army.list_data == emptied["viking"]
    memo.clear()
    assert result.report == rules.check(rules.parse_document(raw, reloaded))


def test_an_edit_that_changes_what_other_units_read_checks_them_again():
    """A d5 ally's stat line says whether its contingent has a personality: giving one
    to another unit of the contingent changes the first unit's line too."""
    units = [
        {"name": "Allied spears", "type": "infantry", "ally": "anglo-saxon"},
        {"name": "Allied hero", "type": "infantry", "ally": "anglo-saxon"},
    ]
    stored = _stored(army("dark-ages-d5", units, army_list="north-welsh"))
    state = rules.check_state(rules.parse_document(stored, stable_lists))
    assert "allied:" in state.report.units[0].stats["notes"]
    raw = edited(stored, 1, "personality", "hero")
    result = rules.recheck_document(raw, stable_lists, stored, state)
    assert "allied:" not in result.report.units[0].stats["notes"]
    memo.clear()
    assert result.report == rules.check(rules.parse_document(raw, stable_lists))
