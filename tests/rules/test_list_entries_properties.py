"""Properties of list_entries and allowed_values over every shipped list (Hypothesis).

- A unit built from any entry's values fits the list (the list check places it, and it is
  counted once), and allowed_values offers it every value it already has.
- For a unit the list accepts, changing one restricted field to any allowed value keeps it
  accepted; changing it to a value not allowed draws an error on that unit from the check.
- In an army the list check accepts, every entry's count lies within its minimum and
  maximum, and the counts add up to the units the list counts.
"""

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules import get_ruleset
from rules.list_entries import vocabulary
from tests.support import army, fixture_lists

LIST_RULESETS = ("into-the-dark", "dark-ages-2015", "dark-ages-d5", "feudal-2017")
# the check codes that say a unit has no place in its army list
LIST_CODES = {
    "not-in-army-list", "choice-not-allowed", "too-many-of-choice", "army-list-min",
    "army-list-max", "missing-required-unit", "matrix-mismatch", "army-list-size",
}  # fmt: skip
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

LISTS = [(rs, slug) for rs in LIST_RULESETS for slug in sorted(fixture_lists(rs))]
ENTRIES = [
    (rs, slug, n)
    for rs, slug in LISTS
    for n in range(len(get_ruleset(rs).list_entries(fixture_lists(rs)[slug], None)))
]


def check(ruleset: str, slug: str, units: list[dict[str, Any]]) -> tuple[rules.Army, Any]:
    return rules.check_document(army(ruleset, units, army_list=slug), fixture_lists)


def unit_issues(report: rules.Report, index: int) -> list[str]:
    return [i.code for i in report.errors if i.unit == index]


def entry_of(ruleset: str, slug: str, n: int) -> rules.EntryStatus:
    return get_ruleset(ruleset).list_entries(fixture_lists(ruleset)[slug], None)[n]


@SETTINGS
@given(st.sampled_from(ENTRIES))
def test_a_unit_from_an_entry_fits_the_list_and_keeps_its_own_values(where):
    ruleset, slug, n = where
    rs = get_ruleset(ruleset)
    entry = entry_of(ruleset, slug, n)
    parsed, report = check(ruleset, slug, [dict(entry.values)])
    if ruleset != "feudal-2017":  # a single Feudal unit never fills a matrix row
        assert not set(unit_issues(report, 0)) & LIST_CODES, report.issues
        counted = rs.list_entries(fixture_lists(ruleset)[slug], parsed)
        # placed once: in this entry, or in an earlier one it fits as well (required first)
        assert sum(e.have for e in counted) == 1
    unit = parsed.units[0]
    for field, allowed in rs.allowed_values(fixture_lists(ruleset)[slug], unit).items():
        assert unit[field] in allowed.values, (field, allowed)
        assert allowed.reason


@st.composite
def changed_unit(draw: st.DrawFn) -> tuple[str, str, dict[str, Any], str, Any]:
    """A unit from an entry of a non-Feudal list, one restricted field and one value."""
    ruleset, slug, n = draw(st.sampled_from([e for e in ENTRIES if e[0] != "feudal-2017"]))
    rs = get_ruleset(ruleset)
    parsed, _ = check(ruleset, slug, [dict(entry_of(ruleset, slug, n).values)])
    unit = dict(parsed.units[0])
    allowed = rs.allowed_values(fixture_lists(ruleset)[slug], unit)
    field = draw(st.sampled_from(sorted(allowed)))
    value = draw(st.sampled_from(vocabulary(rs.unit_field(field))))
    return ruleset, slug, unit, field, value


@SETTINGS
@given(changed_unit())
def test_an_allowed_value_keeps_the_unit_in_the_list_and_any_other_is_refused(case):
    ruleset, slug, unit, field, value = case
    rs = get_ruleset(ruleset)
    allowed = rs.allowed_values(fixture_lists(ruleset)[slug], unit)[field]
    _, report = check(ruleset, slug, [{**unit, field: value}])
    problems = unit_issues(report, 0)
    if value in allowed.values:
        assert not set(problems) & LIST_CODES, (field, value, report.issues)
    else:
        assert problems, (field, value, allowed)


@st.composite
def list_army(draw: st.DrawFn) -> tuple[str, str, list[dict[str, Any]]]:
    """0-9 units, each from an entry of one list (so most armies are near a legal one)."""
    ruleset, slug = draw(st.sampled_from([x for x in LISTS if x[0] != "feudal-2017"]))
    entries = get_ruleset(ruleset).list_entries(fixture_lists(ruleset)[slug], None)
    picks = draw(st.lists(st.sampled_from(entries), max_size=9))
    units = [{**e.values, "name": f"{e.label} {i}"} for i, e in enumerate(picks)]
    return ruleset, slug, units


@SETTINGS
@given(list_army())
def test_in_an_army_the_list_accepts_every_count_is_within_its_limits(case):
    ruleset, slug, units = case
    parsed, report = check(ruleset, slug, units)
    entries = get_ruleset(ruleset).list_entries(fixture_lists(ruleset)[slug], parsed)
    for entry in entries:
        assert entry.have >= 0 and entry.still_required >= 0
        assert entry.remaining is None or entry.remaining >= 0
    assert sum(e.have for e in entries) <= len(units)
    if not {i.code for i in report.errors} & LIST_CODES:
        for entry in entries:
            assert entry.minimum <= entry.have, entry
            assert entry.maximum is None or entry.have <= entry.maximum, entry
        assert sum(e.have for e in entries) == len(units)


@SETTINGS
@given(st.lists(st.sampled_from([e for e in ENTRIES if e[0] == "feudal-2017"]), max_size=8))
def test_feudal_columns_hold_what_the_matrix_row_holds_when_the_army_fits(picks):
    if not picks:
        return
    slug = picks[0][1]
    entries = get_ruleset("feudal-2017").list_entries(fixture_lists("feudal-2017")[slug], None)
    units = [{**entries[n].values, "name": f"Unit {i}"} for i, (_, _, n) in enumerate(picks)
             if n < len(entries)]  # fmt: skip
    parsed, report = check("feudal-2017", slug, units)
    counted = get_ruleset("feudal-2017").list_entries(fixture_lists("feudal-2017")[slug], parsed)
    columns = counted[:4]
    assert sum(e.have for e in columns) <= len(units)
    if report.composition and report.composition["matrix_rows"]:
        from rules.rulesets.feudal_2017.matrix import MATRIX

        row = report.composition["matrix_rows"][0]
        assert [e.have for e in columns] == list(MATRIX[row])


@st.composite
def any_unit(draw: st.DrawFn) -> tuple[str, Any, dict[str, Any]]:
    """Any parseable unit of any rule set, with any list of it (or none)."""
    ruleset = draw(st.sampled_from([r.slug for r in rules.all_rulesets()]))
    rs = get_ruleset(ruleset)
    unit: dict[str, Any] = {"name": "Any"}
    for f in rs.unit_fields:
        if f.kind in ("choice", "boolean"):
            unit[f.name] = draw(st.sampled_from(vocabulary(f)))
    slug = draw(st.sampled_from([None, *sorted(fixture_lists(ruleset))]))
    return ruleset, slug, unit


@SETTINGS
@given(any_unit())
def test_any_unit_gets_a_non_empty_choice_from_the_vocabulary_for_each_restricted_field(case):
    ruleset, slug, raw = case
    rs = get_ruleset(ruleset)
    try:
        parsed = rules.parse_document(army(ruleset, [raw], army_list=slug), fixture_lists)
    except rules.MalformedDocument:
        return  # e.g. a d5 ally naming the army's own list: refused before any check
    unit = parsed.units[0]
    data = fixture_lists(ruleset)[slug] if slug else None
    for field, allowed in rs.allowed_values(data, unit).items():
        vocab = vocabulary(rs.unit_field(field))
        assert allowed.values, (field, allowed)
        assert all(v in vocab for v in allowed.values)
        assert list(allowed.values) == [v for v in vocab if v in allowed.values]  # in order
        assert allowed.reason


@SETTINGS
@given(st.dictionaries(st.sampled_from(["type", "quality", "armour", "name", "junk"]),
                       st.one_of(st.none(), st.booleans(), st.text(max_size=5)), max_size=4),
       st.sampled_from(LISTS))  # fmt: skip
def test_allowed_values_never_fails_on_a_malformed_unit(unit, where):
    ruleset, slug = where
    rs = get_ruleset(ruleset)
    for allowed in rs.allowed_values(fixture_lists(ruleset)[slug], unit).values():
        assert allowed.reason
