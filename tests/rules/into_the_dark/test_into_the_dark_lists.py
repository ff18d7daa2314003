"""Into the Dark historical army lists (fixtures/into-the-dark.json): a legal army for each,
and an illegal variation for every kind of constraint it uses."""

import copy
import json
from typing import Any

import pytest

import rules
from tests.support import FIXTURES, army, fixture_lists

RS = "into-the-dark"
LISTS = (
    "anglo-danish-1066", "norman-1066", "viking", "later-medieval-english", "swiss",
    "scots-schiltron",
)  # fmt: skip


def foot(name: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, **fields}


def horse(name: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "mounted": True, **fields}


def champion(name: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "champion": True, "figures": 1, "density": "open", **fields}


MISSILE = {"training": "missile"}

LEGAL: dict[str, list[dict[str, Any]]] = {
    "anglo-danish-1066": [
        foot("Huscarls", quality="elite", armour="mailed", melee_weapon="polearm",
             shieldwall=True),
        foot("Select fyrd of Wessex", armour="armoured", shieldwall=True),
        foot("Select fyrd of Mercia", armour="armoured", shieldwall=True),
        foot("Great fyrd", quality="levy", armour="protected"),
        foot("Fyrd archers", quality="levy", density="loose", missile_weapon="foot_bow",
             **MISSILE),
        champion("Leofwine's champion", quality="elite", armour="armoured"),
    ],
    "norman-1066": [
        horse("Norman knights", density="loose", armour="mailed"),
        horse("Flemish knights", density="loose", armour="armoured",
              training="cross_trained", missile_weapon="javelin"),
        foot("Spearmen", armour="armoured"),
        foot("Archers", density="loose", missile_weapon="foot_bow", **MISSILE),
        foot("Crossbowmen", quality="levy", density="loose", armour="protected",
             missile_weapon="light_crossbow", **MISSILE),
        horse("Breton horse", density="open", training="cross_trained",
              missile_weapon="javelin"),
        champion("Taillefer", quality="elite", armour="mailed", mounted=True),
    ],
    "viking": [
        foot("Jarl's hird", quality="elite", armour="mailed", shieldwall=True),
        foot("Bondi shieldwall", armour="protected", shieldwall=True),
        foot("Bondi skirmishers", density="loose", armour="protected",
             training="cross_trained", missile_weapon="javelin"),
        foot("Berserkers", quality="fanatic", density="loose", warband=True),
        foot("Archers", density="open", missile_weapon="foot_bow", skirmishers=True,
             **MISSILE),
        horse("Scouts", density="open", figures=4),
    ],
    "later-medieval-english": [
        foot("Men-at-arms", quality="elite", armour="encased", melee_weapon="polearm"),
        horse("Mounted men-at-arms", armour="mailed", figures=4),
        *(foot(f"Longbowmen {n}", density="loose", missile_weapon="longbow", **MISSILE)
          for n in range(1, 5)),
        foot("Billmen", quality="levy", armour="protected", melee_weapon="polearm"),
        horse("Hobilars", density="loose", armour="protected", figures=4),
    ],
    "swiss": [
        foot("Pike 1", armour="protected", melee_weapon="pike"),
        foot("Pike 2", armour="protected", melee_weapon="pike"),
        foot("Pike 3", quality="elite", armour="armoured", melee_weapon="pike"),
        foot("Pike 4", quality="elite", armour="armoured", melee_weapon="pike"),
        foot("Halberdiers", quality="elite", armour="armoured", melee_weapon="polearm"),
        foot("Handgunners", density="loose", missile_weapon="heavy_crossbow", **MISSILE),
        horse("Lorraine lances", armour="armoured", figures=4),
    ],
    "scots-schiltron": [
        foot("Schiltron 1", armour="protected", melee_weapon="pike"),
        foot("Schiltron 2", armour="protected", melee_weapon="pike"),
        foot("Schiltron 3", quality="levy", shieldwall=True),
        horse("Men-at-arms", quality="elite", armour="mailed", figures=4),
        foot("Highlanders", quality="fanatic", density="loose", warband=True),
        foot("Ettrick archers", density="loose", missile_weapon="foot_bow", **MISSILE),
        horse("Light horse", quality="levy", density="open", figures=4),
    ],
}  # fmt: skip

# A unit no entry of the list offers.
STRANGERS = {
    "anglo-danish-1066": horse("Mounted thegns", armour="mailed"),
    "norman-1066": foot("Berserkers", quality="fanatic", density="loose", warband=True),
    "viking": foot("Longbowmen", density="loose", missile_weapon="longbow", **MISSILE),
    "later-medieval-english": foot("Pikemen", armour="protected", melee_weapon="pike"),
    "swiss": foot("Highlanders", quality="fanatic", density="loose", warband=True),
    "scots-schiltron": foot("Longbowmen", density="loose", missile_weapon="longbow", **MISSILE),
}

# The legal army made to break the list's points-share limit (lists that have one).
OVER_LIMIT = {
    "anglo-danish-1066": ("Fyrd archers", {"figures": 100}),
    "viking": ("Scouts", {"figures": 12}),
    "later-medieval-english": ("Mounted men-at-arms", {"figures": 12}),
    "swiss": ("Lorraine lances", {"figures": 12}),
    "scots-schiltron": ("Men-at-arms", {"figures": 12}),
}


def check(units: list[dict[str, Any]], slug: str | None) -> tuple[rules.Army, rules.Report]:
    return rules.check_document(army(RS, units, army_list=slug), fixture_lists)


def codes(report: rules.Report) -> list[str]:
    return [i.code for i in report.issues]


def matches(unit: dict[str, Any], match: dict[str, list[Any]]) -> bool:
    return all(unit[key] in allowed for key, allowed in match.items())


def entries(slug: str) -> list[dict[str, Any]]:
    return fixture_lists(RS)[slug]["entries"]


def test_six_historical_lists_ship_and_validate():
    lists = fixture_lists(RS)
    assert set(lists) >= set(LISTS)
    for slug, data in lists.items():
        assert rules.get_ruleset(RS).validate_army_list(data) == [], slug


def test_lists_carry_a_compiled_by_muster_note():
    records = json.loads((FIXTURES / "into-the-dark.json").read_text(encoding="utf-8"))
    for record in records:
        assert "Compiled by Muster" in record["fields"]["source_note"]
        assert "never printed" in record["fields"]["source_note"]


def test_later_medieval_english_limits_mounted_troops_to_a_quarter_of_the_points():
    data = fixture_lists(RS)["later-medieval-english"]
    assert data["limits"] == [
        {"label": "Mounted troops", "match": {"mounted": [True]}, "max_share": "1/4"}
    ]


@pytest.mark.parametrize("slug", LISTS)
def test_every_entry_describes_a_legal_unit_from_its_first_values(slug):
    """What the builder's "Add unit" offers from an entry: its first allowed values."""
    for entry in entries(slug):
        unit = {key: values[0] for key, values in entry["match"].items()}
        unit.update(name=entry["name"], figures=1 if unit.get("champion") else 12)
        _, report = check([unit], None)
        assert report.issues == (), (entry["key"], report.issues)


@pytest.mark.parametrize("slug", LISTS)
def test_legal_army_for_each_list(slug):
    _, report = check(LEGAL[slug], slug)
    assert report.issues == (), [i.message for i in report.issues]


@pytest.mark.parametrize("slug", LISTS)
def test_legal_army_uses_every_entry_of_its_list(slug):
    parsed, _ = check(LEGAL[slug], slug)
    for entry in entries(slug):
        assert any(matches(u, entry["match"]) for u in parsed.units), entry["key"]


@pytest.mark.parametrize("slug", LISTS)
def test_unit_outside_the_list_is_not_in_army_list(slug):
    _, report = check([*LEGAL[slug], STRANGERS[slug]], slug)
    issue = next(i for i in report.issues if i.code == "not-in-army-list")
    assert issue.unit == len(LEGAL[slug])
    # without the list the same unit is fine
    _, free = check([*LEGAL[slug], STRANGERS[slug]], None)
    assert "not-in-army-list" not in codes(free)


@pytest.mark.parametrize("slug", LISTS)
def test_each_entry_below_its_minimum_is_refused(slug):
    parsed, _ = check(LEGAL[slug], slug)
    required = [e for e in entries(slug) if e.get("min", 0) > 0]
    assert required
    for entry in required:
        units = [
            raw for raw, unit in zip(LEGAL[slug], parsed.units, strict=True)
            if not matches(unit, entry["match"])
        ]  # fmt: skip
        _, report = check(units, slug)
        issue = next(i for i in report.issues if i.code == "army-list-min")
        assert entry["name"] in issue.message


@pytest.mark.parametrize("slug", LISTS)
def test_each_entry_over_its_maximum_is_refused(slug):
    parsed, _ = check(LEGAL[slug], slug)
    for entry in entries(slug):
        index, _ = next((i, u) for i, u in enumerate(parsed.units) if matches(u, entry["match"]))
        have = sum(1 for u in parsed.units if matches(u, entry["match"]))
        extra = [copy.deepcopy(LEGAL[slug][index]) for _ in range(entry["max"] - have + 1)]
        _, report = check([*LEGAL[slug], *extra], slug)
        assert "army-list-max" in codes(report), entry["key"]


@pytest.mark.parametrize("slug", sorted(OVER_LIMIT))
def test_points_share_limit_is_refused(slug):
    name, change = OVER_LIMIT[slug]
    units = [dict(u, **change) if u["name"] == name else u for u in LEGAL[slug]]
    _, report = check(units, slug)
    assert codes(report) == ["army-list-limit"]
    limit = fixture_lists(RS)[slug]["limits"][0]
    assert limit["label"] in report.issues[0].message
    assert f"at most {limit['max_share']} of the points" in report.issues[0].message


def test_later_medieval_english_mounted_quarter_is_counted_in_points():
    _, report = check(LEGAL["later-medieval-english"], "later-medieval-english")
    mounted = sum(u.points for u, raw in zip(report.units, LEGAL["later-medieval-english"],
                                             strict=True) if raw.get("mounted"))  # fmt: skip
    assert report.total_points == 668
    assert mounted == 78 + 62
    assert mounted * 4 <= report.total_points


@pytest.mark.django_db
def test_api_reports_list_violations(client):
    doc = army(RS, [*LEGAL["swiss"], STRANGERS["swiss"]], army_list="swiss")
    response = client.post("/api/v1/check", doc, content_type="application/json")
    assert response.status_code == 200
    body = response.json()
    assert body["valid"] is False
    assert [i["code"] for i in body["issues"]] == ["not-in-army-list"]
