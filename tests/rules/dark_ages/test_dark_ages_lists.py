"""The Dark Ages starter army lists and the list machinery both Dark Ages rule sets share."""

import copy
import json
from collections import Counter
from itertools import product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules.rulesets.dark_ages.fit import fit, list_issues
from rules.rulesets.dark_ages.lists import ListSpec, Slot
from tests.rules.dark_ages.dark_ages_support import codes, report_for
from tests.support import FIXTURES, army, fixture_lists

PEOPLES = {
    "sub-roman-british", "strathclyde-welsh", "north-welsh", "picts", "scots-dal-riata",
    "irish", "anglo-saxon", "viking",
}  # fmt: skip
RULESETS = ("dark-ages-d5", "dark-ages-2015")


def u(spec: str, **fields: Any) -> dict[str, Any]:
    """``type[/missile][@variant]``, e.g. ``cavalry/javelin@arthurs_cavalry``."""
    spec, _, variant = spec.partition("@")
    type_, _, missile = spec.partition("/")
    unit: dict[str, Any] = {"name": spec + (f" {variant}" if variant else ""), "type": type_}
    if missile:
        unit["missile"] = missile
    if variant:
        unit["variant"] = variant
    unit.update(fields)
    return unit


def named(units: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**unit, "name": f"{n + 1}. {unit['name']}"} for n, unit in enumerate(units)]


INF = "infantry"
LEGAL: dict[tuple[str, str], list[dict[str, Any]]] = {
    ("dark-ages-d5", "sub-roman-british"): [
        u(INF, change="household"),
        u(INF),
        u(INF),
        u("cavalry/javelin@arthurs_cavalry"),
        u("infantry@roman_militia", change="levy"),
        u("cavalry/javelin@mounted_servants"),
    ],
    ("dark-ages-d5", "strathclyde-welsh"): [
        u(INF),
        u(INF),
        u(INF),
        u("cavalry/javelin"),
        u("skirmishers/bow"),
        u("skirmishers/bow"),
    ],
    ("dark-ages-d5", "north-welsh"): [
        u(INF),
        u(INF),
        u(INF),
        u("warriors"),
        u("raiders"),
        u("skirmishers/javelin"),
    ],
    ("dark-ages-d5", "picts"): [
        u(INF),
        u(INF),
        u(INF),
        u("cavalry/javelin"),
        u("skirmishers/javelin"),
        u("skirmishers/javelin"),
    ],
    ("dark-ages-d5", "scots-dal-riata"): [
        u(INF),
        u(INF, change="reluctant"),
        u(INF, change="household"),
        u("warriors@scots_nobles"),
        u("skirmishers/javelin"),
        u("raiders"),
    ],
    ("dark-ages-d5", "irish"): [
        u(INF),
        u(INF),
        u("skirmishers/javelin@irish_nobles"),
        u("raiders"),
        u("skirmishers/javelin"),
        u("skirmishers/javelin"),
    ],
    ("dark-ages-d5", "anglo-saxon"): [
        u(INF, change="determined"),
        u(INF, change="levy"),
        u(INF),
        u(INF),
        u("warriors"),
        u("skirmishers/bow"),
    ],
    ("dark-ages-d5", "viking"): [
        u(INF),
        u(INF),
        u(INF),
        u("infantry@viking_veterans"),
        u("raiders"),
        u("raiders"),
    ],
    ("dark-ages-2015", "sub-roman-british"): [
        u(INF, quality="levy"),
        u(INF),
        u(INF),
        u("cavalry/javelin@arthurs_cavalry", quality="elite"),
        u("cavalry@roman_cavalry"),
        u("skirmishers/bow"),
    ],
    ("dark-ages-2015", "strathclyde-welsh"): [
        u(INF),
        u(INF),
        u("skirmishers/bow"),
        u("skirmishers/bow"),
        u("cavalry"),
        u("cavalry@mounted_servants"),
    ],
    ("dark-ages-2015", "north-welsh"): [
        u(INF),
        u(INF),
        u("warband"),
        u("warband"),
        u("skirmishers/bow"),
        u("skirmishers/javelin"),
    ],
    ("dark-ages-2015", "picts"): [
        u(INF),
        u(INF),
        u(INF),
        u("cavalry"),
        u("skirmishers/javelin"),
        u("skirmishers/javelin"),
    ],
    ("dark-ages-2015", "scots-dal-riata"): [
        u(INF, quality="levy"),
        u(INF),
        u(INF),
        u("warband@scots_nobles", quality="elite"),
        u("skirmishers/bow"),
        u("skirmishers/javelin"),
    ],
    ("dark-ages-2015", "irish"): [
        u(INF),
        u(INF),
        u("skirmishers/javelin@irish_nobles"),
        u("warband"),
        u("skirmishers/javelin"),
        u("skirmishers/javelin"),
    ],
    ("dark-ages-2015", "anglo-saxon"): [
        u(INF),
        u(INF),
        u(INF),
        u(INF),
        u(INF),
        u("skirmishers/bow"),
    ],
    ("dark-ages-2015", "viking"): [
        u(INF),
        u(INF),
        u(INF),
        u("warband@viking_veterans"),
        u("warband"),
        u("warband"),
    ],
}


def check(ruleset: str, units: list[dict[str, Any]], **top: Any) -> rules.Report:
    return report_for(ruleset, named(units), **top)


def spec_of(ruleset: str, slug: str) -> ListSpec:
    return ListSpec.from_data(fixture_lists(ruleset)[slug])


def unit_for(slot: Slot, ruleset: str) -> dict[str, Any]:
    """A unit that fits ``slot``."""
    variant = slot.match.get("variant", (None,))[0]
    if "type" in slot.match:
        type_ = slot.match["type"][0]
    else:
        type_ = rules.get_ruleset(ruleset).unit_field("type").values[0]
    missile = slot.match.get("missile", (None,))[0]
    if missile is None and type_ == "skirmishers":
        missile = "javelin"
    if missile is None and variant is not None and type_ == "cavalry":
        missile = "javelin"
    unit: dict[str, Any] = {"name": slot.name, "type": type_, "missile": missile}
    if variant:
        unit["variant"] = variant
    return unit


def parsed_units(ruleset: str, units: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return list(rules.parse_document(army(ruleset, named(units))).units)


CASES = sorted(LEGAL)


# -- the fixtures -----------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_starter_lists_cover_the_eight_peoples(ruleset):
    assert set(fixture_lists(ruleset)) >= PEOPLES


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_starter_list_validates_and_has_six_units(ruleset):
    found = rules.get_ruleset(ruleset)
    for slug, data in fixture_lists(ruleset).items():
        assert found.validate_army_list(data) == [], slug
        spec = ListSpec.from_data(data)
        assert sum(s.limit for s in spec.required) + sum(g.pick for g in spec.groups) == 6
        assert spec.groups, f"{slug}: at least one choice"
        assert data["notes"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_entry_describes_a_legal_unit_from_its_first_values(ruleset):
    """What the builder's "Add unit" offers: first allowed values plus the entry's presets."""
    for slug, data in fixture_lists(ruleset).items():
        entries = [*data["required"], *(o for g in data["choices"] for o in g["options"])]
        for entry in entries:
            unit = {key: values[0] for key, values in entry["match"].items()}
            unit.update(entry.get("unit", {}), name=entry["name"])
            report = rules.check_document(army(ruleset, [unit]))[1]
            assert not report.issues_for_unit(0), (slug, entry["key"], report.issues)


def test_d5_lists_use_fixed_units():
    fixed = {slug for slug in PEOPLES if any(s.fixed for s in spec_of("dark-ages-d5", slug).slots)}
    assert fixed >= {"sub-roman-british", "scots-dal-riata", "irish"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_fixture_records_carry_a_visible_compiled_by_muster_note(ruleset):
    records = json.loads((FIXTURES / f"{ruleset}.json").read_text(encoding="utf-8"))
    for record in records:
        fields = record["fields"]
        assert fields["source_note"].startswith("Compiled by Muster from the source's unit")
        assert fields["name"] and fields["period"]


@pytest.mark.django_db
def test_army_list_page_shows_that_muster_compiled_the_list(client):
    page = client.get("/rulesets/dark-ages-d5/lists/scots-dal-riata/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Scots (Dál Riata)" in text
    assert "Compiled by Muster" in text
    assert "did not survive" in text


@pytest.mark.django_db
def test_load_lists_stores_every_starter_list():
    from armybuilder.catalog.models import ArmyList

    for ruleset in RULESETS:
        slugs = set(ArmyList.objects.filter(ruleset=ruleset).values_list("slug", flat=True))
        assert slugs >= PEOPLES


# -- a legal army per list, and an illegal variation per kind of constraint -----------------


@pytest.mark.parametrize(("ruleset", "slug"), CASES)
def test_legal_army_for_each_starter_list(ruleset, slug):
    report = check(ruleset, LEGAL[ruleset, slug], army_list=slug)
    assert report.issues == (), [i.message for i in report.issues]


@pytest.mark.parametrize(("ruleset", "slug"), CASES)
def test_each_required_unit_left_out_is_missing(ruleset, slug):
    spec = spec_of(ruleset, slug)
    legal = parsed_units(ruleset, LEGAL[ruleset, slug])
    for slot in spec.required:
        fitting = [i for i, unit in enumerate(legal) if slot.fits(unit)]
        keep = set(fitting[: slot.limit - 1])
        units = [unit for i, unit in enumerate(legal) if i not in fitting or i in keep]
        report = check(ruleset, units, army_list=slug)
        missing = [i for i in report.issues if i.code == "missing-required-unit"]
        assert missing, (slot.key, codes(report))
        assert slot.name in missing[0].message


@pytest.mark.parametrize(("ruleset", "slug"), CASES)
def test_each_choice_over_its_maximum_is_too_many(ruleset, slug):
    spec = spec_of(ruleset, slug)
    legal = parsed_units(ruleset, LEGAL[ruleset, slug])
    required = []
    pool = list(legal)
    for slot in spec.required:
        for _ in range(slot.limit):
            unit = next(x for x in pool if slot.fits(x))
            pool.remove(unit)
            required.append(unit)
    for option in spec.options:
        units = required + [unit_for(option, ruleset) for _ in range(option.limit + 1)]
        report = check(ruleset, units, army_list=slug)
        assert "too-many-of-choice" in codes(report), (option.key, codes(report))
        assert "choice-not-allowed" not in codes(report)


CANDIDATES = [
    "cavalry/javelin@roman_cavalry", "cavalry/javelin@roundtable_knights",
    "cavalry/javelin@the_knights", "warband@scots_nobles", "warriors@scots_nobles",
    "skirmishers/javelin@irish_nobles", "infantry@roman_militia", "cavalry/javelin",
]  # fmt: skip


@pytest.mark.parametrize(("ruleset", "slug"), CASES)
def test_a_unit_the_list_does_not_offer_is_not_allowed(ruleset, slug):
    spec = spec_of(ruleset, slug)
    vocabulary = rules.get_ruleset(ruleset).unit_field("variant").values
    stranger = next(
        u(c)
        for c in CANDIDATES
        if (u(c).get("variant") in (None, *vocabulary))
        and u(c)["type"] in rules.get_ruleset(ruleset).unit_field("type").values
        and not any(s.fits({"missile": None, "variant": None, **u(c)}) for s in spec.slots)
    )
    units = [*LEGAL[ruleset, slug][:-1], stranger]
    report = check(ruleset, units, army_list=slug)
    issue = next(i for i in report.issues if i.code == "choice-not-allowed")
    assert issue.unit == 5
    assert "neither a required unit nor a choice" in issue.message


@pytest.mark.parametrize(("ruleset", "slug"), [c for c in CASES if c[0] == "dark-ages-d5"])
def test_each_fixed_unit_changed_is_refused(ruleset, slug):
    spec = spec_of(ruleset, slug)
    fixed = [s for s in spec.required if s.fixed]
    legal = parsed_units(ruleset, LEGAL[ruleset, slug])
    for slot in fixed:
        units = [{**unit, "change": None} for unit in legal]
        target = next(i for i, unit in enumerate(units) if slot.fits(unit))
        other = next(i for i, unit in enumerate(units) if unit["type"] == "infantry")
        units[target]["change"] = "household"
        units[other]["change"] = "levy"
        report = check(ruleset, units, army_list=slug)
        assert codes(report) == ["fixed-unit-changed"]
        assert report.issues[0].unit == target


# -- validating list data -----------------------------------------------------------------


def good_list() -> dict[str, Any]:
    return copy.deepcopy(fixture_lists("dark-ages-d5")["sub-roman-british"])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["required"][0]["match"].update(type=["knights"]),
         "required[0].match.type: unknown unit type 'knights'"),
        (lambda d: d["required"][1]["match"].update(variant=["merlin"]),
         "required[1].match.variant: unknown variant 'merlin'"),
        (lambda d: d["choices"][0]["options"][2]["match"].update(missile=["sling"]),
         "choices[0].options[2].match.missile: unknown missile 'sling'"),
        (lambda d: d["required"][0]["match"].update(armour=["mailed"]),
         "required[0].match.armour: not a field an entry can fix"),
        (lambda d: d["required"][0].update(count=0),
         "required[0].count: a whole number of at least 1"),
        (lambda d: d["required"][0].update(count=4),
         "the required units plus the units to pick make 7 units; a list has 6"),
        (lambda d: d["choices"][0]["options"][0].update(max=3),
         "choices[0].options[0].max: 3 is more than the group's pick of 2"),
        (lambda d: d["choices"][0]["options"][0].update(key="infantry"),
         "'infantry' is used twice"),
        (lambda d: d.update(choices=[]), "choices must be a non-empty list"),
        (lambda d: d.update(required={}), "required must be a non-empty list"),
        (lambda d: d.update(points=100), "unknown keys points"),
        (lambda d: d["required"][1]["match"].update(type=["infantry"]),
         "Arthur's cavalry are cavalry; type infantry can never match them"),
        (lambda d: d["required"][1].update(fixed="yes"), "required[1].fixed: must be true or false"),
        (lambda d: d["required"][0].pop("name"), "required[0].name: a name is required"),
        (lambda d: d["required"][0].update(unit={"change": "heroic"}),
         "required[0].unit.change: 'heroic' is not one of household"),
        (lambda d: d["required"][0].update(unit={"type": "cavalry"}),
         "required[0].unit.type: 'cavalry' contradicts the entry's match"),
        (lambda d: d["required"][0].update(unit={"armour": "mailed"}),
         "required[0].unit.armour: not a unit field"),
        (lambda d: d["required"][0].update(unit=[]), "required[0].unit: an object"),
    ],
)  # fmt: skip
def test_malformed_list_data_is_refused_with_a_message(change, message):
    data = good_list()
    change(data)
    problems = rules.get_ruleset("dark-ages-d5").validate_army_list(data)
    assert any(message in p for p in problems), problems


def test_list_data_must_be_an_object():
    assert rules.get_ruleset("dark-ages-d5").validate_army_list([]) == [
        "constraint data must be a JSON object"
    ]


def test_2015_lists_have_no_fixed_units():
    data = copy.deepcopy(fixture_lists("dark-ages-2015")["picts"])
    data["required"][0]["fixed"] = True
    problems = rules.get_ruleset("dark-ages-2015").validate_army_list(data)
    assert any("this rule set has no fixed units" in p for p in problems)


def test_2015_list_refuses_a_d5_only_variant():
    data = copy.deepcopy(fixture_lists("dark-ages-2015")["sub-roman-british"])
    data["required"][1]["match"]["variant"] = ["roundtable_knights"]
    problems = rules.get_ruleset("dark-ages-2015").validate_army_list(data)
    assert any("unknown variant 'roundtable_knights'" in p for p in problems)


def test_d5_list_refuses_variant_with_impossible_missile():
    data = good_list()
    data["choices"][0]["options"][1]["match"]["missile"] = ["bow"]
    problems = rules.get_ruleset("dark-ages-d5").validate_army_list(data)
    assert any("Mounted servants carry javelin" in p for p in problems)


@pytest.mark.django_db
def test_admin_model_refuses_malformed_list_data():
    from django.core.exceptions import ValidationError

    from armybuilder.catalog.models import ArmyList

    bad = ArmyList(ruleset="dark-ages-d5", slug="bad", name="Bad", data={"required": []})
    with pytest.raises(ValidationError) as exc:
        bad.full_clean()
    assert "required must be a non-empty list" in str(exc.value)


# -- the fitting machinery --------------------------------------------------------------


def _spec(required: list[tuple[str, int, bool]], options: list[tuple[str, int, bool]],
          pick: int) -> ListSpec:  # fmt: skip
    data = {
        "required": [{"key": f"r{n}", "name": f"R{n}", "match": {"type": [t]}, "count": c,
                      "fixed": f} for n, (t, c, f) in enumerate(required)],
        "choices": [{"key": "g", "name": "support", "pick": pick, "options": [
            {"key": f"o{n}", "name": f"O{n}", "match": {"type": [t]}, "max": m, "fixed": f}
            for n, (t, m, f) in enumerate(options)]}],
    }  # fmt: skip
    return ListSpec.from_data(data)


def _changed(unit: dict[str, Any]) -> bool:
    return bool(unit.get("change"))


def test_changed_unit_takes_the_unfixed_place_when_there_is_one():
    spec = _spec([("cavalry", 1, True)], [("cavalry", 1, False)], 1)
    units = [(0, {"type": "cavalry", "change": "household"}), (1, {"type": "cavalry"})]
    result = fit(units, spec, changed=_changed)
    assert result.fixed_changed == []
    assert result.slot_of[0].key == "o0" and result.slot_of[1].key == "r0"


def test_required_places_fill_before_choices():
    spec = _spec([("infantry", 2, False)], [("infantry", 2, False)], 2)
    result = fit([(i, {"type": "infantry"}) for i in range(3)], spec)
    assert result.required_filled == {"r0": 2}
    assert result.choices_filled == 1
    assert result.required_short == {}


def test_allies_standing_in_are_named_in_the_missing_message():
    spec = _spec([("infantry", 3, False)], [("raiders", 1, False)], 1)
    units = {0: {"name": "Spears", "type": "infantry"}, 1: {"name": "R", "type": "raiders"}}
    issues = list_issues(fit(list(units.items()), spec), units, "Army Lists", stand_ins=1)
    assert [i.message for i in issues] == [
        "The list requires 3 R0; the army has 1 (allies stand in for 1)."
    ]


def test_large_army_fits_quickly_because_equal_units_travel_together():
    spec = spec_of("dark-ages-2015", "anglo-saxon")
    units = [(i, {"type": "infantry", "missile": None, "variant": None}) for i in range(500)]
    result = fit(units, spec, scale=4)
    assert len(result.unplaced) == 500 - 16 - 4


TYPES = ("infantry", "raiders", "cavalry")


@st.composite
def fitting_problems(draw):
    required = [
        (draw(st.sampled_from(TYPES)), draw(st.integers(1, 2)), draw(st.booleans()))
        for _ in range(draw(st.integers(0, 2)))
    ]
    pick = draw(st.integers(1, 3))
    options = [
        (draw(st.sampled_from(TYPES)), draw(st.integers(1, pick)), draw(st.booleans()))
        for _ in range(draw(st.integers(1, 3)))
    ]
    units = [
        {"type": draw(st.sampled_from(TYPES)), "change": draw(st.sampled_from([None, "levy"]))}
        for _ in range(draw(st.integers(0, 5)))
    ]
    return _spec(required, options, pick), units


def _brute_force(spec: ListSpec, units: list[dict[str, Any]]) -> tuple[int, int, int]:
    slots = spec.slots
    best = (0, 0, 0)
    places = [[None] + [n for n, s in enumerate(slots) if s.fits(x)] for x in units]
    for choice in product(*places):
        used = Counter(c for c in choice if c is not None)
        if any(used[n] > slots[n].limit for n in used):
            continue
        groups = Counter(slots[c].group for c in choice if c is not None)
        if any(groups[g] > spec.groups[g].pick for g in groups if g is not None):
            continue
        placed = sum(1 for c in choice if c is not None)
        required = sum(1 for c in choice if c is not None and slots[c].group is None)
        bad = sum(
            1 for x, c in zip(units, choice, strict=True)
            if c is not None and slots[c].fixed and _changed(x)
        )  # fmt: skip
        best = max(best, (placed, required, -bad))
    return best


@settings(max_examples=150, deadline=None)
@given(fitting_problems())
def test_fit_is_the_best_assignment_a_brute_force_search_finds(problem):
    spec, units = problem
    result = fit(list(enumerate(units)), spec, changed=_changed)
    placed = len(units) - len(result.unplaced)
    required = sum(result.required_filled.values())
    assert (placed, required, -len(result.fixed_changed)) == _brute_force(spec, units)
