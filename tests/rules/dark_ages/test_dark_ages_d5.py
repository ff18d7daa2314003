"""dark-ages-d5: the average die, warriors/raiders, upgrades and downgrades, allies, checks."""

from typing import Any

import pytest

import rules
from rules.rulesets.dark_ages.dark_ages_d5 import RULESET
from tests.rules.dark_ages.dark_ages_support import (
    anglo_saxon_choice_cases,
    codes,
    report_for,
    unit,
)
from tests.support import army

RS = "dark-ages-d5"


def check(units: list[dict[str, Any]], **top: Any) -> rules.Report:
    return report_for(RS, units, **top)


def north_welsh() -> list[dict[str, Any]]:
    """A legal North Welsh army with one upgrade paid for by one downgrade and a leader."""
    return [
        unit("Spears of Gwynedd", "infantry", change="household", personality="leader",
             banner=True),
        unit("Spears of Mon", "infantry"),
        unit("Spears of Arfon", "infantry", change="reluctant"),
        unit("Bloodied warriors", "warriors"),
        unit("Hill raiders", "raiders"),
        unit("Slingers and darts", "skirmishers", missile="javelin"),
    ]  # fmt: skip


def test_legal_list_army_with_one_upgrade_and_one_downgrade_has_no_issues():
    report = check(north_welsh(), army_list="north-welsh")
    assert report.issues == ()
    assert report.valid and report.total_points is None


# Every check code with an army that raises it.
def _sub_roman(**arthur: Any) -> list[dict[str, Any]]:
    return [
        *(unit(f"Foot {i}", "infantry") for i in range(3)),
        unit("Arthur's horse", "cavalry", missile="javelin", variant="arthurs_cavalry", **arthur),
        unit("Bows", "skirmishers", missile="bow"),
        unit("Militia", "infantry", variant="roman_militia"),
    ]


CASES: dict[str, tuple[list[dict[str, Any]], dict[str, Any]]] = {
    "skirmishers-need-missile": ([unit("Hunters", "skirmishers")], {}),
    "missile-not-allowed": ([unit("Archers", "raiders", missile="bow")], {}),
    "variant-type-mismatch": ([unit("Nobles", "raiders", variant="scots_nobles")], {}),
    "attack-modifier-cap": (
        [
            unit(
                "Knights",
                "cavalry",
                missile="javelin",
                variant="roundtable_knights",
                change="household",
            )
        ],
        {},
    ),  # fmt: skip
    "change-has-no-effect": (
        [unit("Nobles", "warriors", variant="scots_nobles", change="determined")],
        {},
    ),  # fmt: skip
    "banner-needs-hero-or-leader": ([unit("Flag", "infantry", banner=True)], {}),
    "personalities-disabled": (
        [unit("Hero's men", "infantry", personality="hero")],
        {"options": {"personalities": False}},
    ),  # fmt: skip
    "army-size": ([unit("Alone", "infantry")], {}),
    "too-many-personalities": (
        [unit(f"U{i}", "infantry", personality="hero" if i < 3 else None) for i in range(6)],
        {},
    ),
    "upgrade-limit": (
        [
            unit(
                f"U{i}",
                "infantry",
                change=("household", "determined", "levy", "reluctant", None, None)[i],
            )
            for i in range(6)
        ],
        {},
    ),  # fmt: skip
    "downgrade-required": ([unit("Guard", "infantry", change="household")], {}),
    "fixed-unit-changed": (
        [
            *_sub_roman(change="household")[:5],
            unit("Militia", "infantry", variant="roman_militia", change="levy"),
        ],
        {"army_list": "sub-roman-british"},
    ),  # fmt: skip
    "ally-count": (
        [
            unit("Warriors", "warriors"),
            unit("Raiders", "raiders"),
            *(unit(f"Ally {i}", "infantry", ally="strathclyde-welsh") for i in range(4)),
        ],
        {"army_list": "north-welsh"},
    ),  # fmt: skip
    "ally-not-required": (
        [unit("Bows", "skirmishers", missile="bow", ally="strathclyde-welsh")],
        {},
    ),
    "ally-personality": (
        [unit("Ally", "infantry", ally="strathclyde-welsh", personality="hero")],
        {},
    ),
    "missing-required-unit": (
        [unit(f"U{i}", "raiders") for i in range(6)],
        {"army_list": "anglo-saxon"},
    ),  # fmt: skip
    **anglo_saxon_choice_cases(),
    "quality-disabled": ([unit("Guard", "infantry", quality="elite")], {}),
    "quality-conflicts-change": (
        [unit("Guard", "infantry", quality="elite", change="reluctant")],
        {"options": {"variable_quality": True}},
    ),
    "elite-limit": (
        [unit(f"U{i}", "infantry", quality="elite" if i < 2 else "levy") for i in range(6)],
        {"options": {"variable_quality": True}},
    ),
    "elite-needs-levy": (
        [unit(f"U{i}", "infantry", quality="elite" if i == 0 else "standard") for i in range(6)],
        {"options": {"variable_quality": True}},
    ),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_check_code_is_raised(code):
    units, top = CASES[code]
    report = check(units, **top)
    assert code in codes(report)
    severity = next(i.severity for i in report.issues if i.code == code)
    documented = next(c.severity for c in RULESET.checks if c.code == code)
    assert severity == documented


def test_every_documented_check_code_has_a_case():
    assert set(CASES) == {c.code for c in RULESET.checks}


def test_digest_check_codes_are_all_documented():
    digest = {
        "army-size", "attack-modifier-cap", "upgrade-limit", "downgrade-required",
        "fixed-unit-changed", "too-many-personalities", "banner-needs-hero-or-leader",
        "ally-count", "ally-not-required", "ally-personality", "missing-required-unit",
        "choice-not-allowed", "too-many-of-choice",
    }  # fmt: skip
    assert digest <= {c.code for c in RULESET.checks}


# -- dice, options, fields -------------------------------------------------------------


def test_options_match_digest_defaults():
    assert RULESET.default_options() == {
        "dice": "d5",
        "personalities": True,
        "missile_supply": "three_shots",
        "rally_variation": False,
        "variable_quality": False,
    }


def test_rule_set_page_explains_the_average_die_faces():
    assert "2, 3, 3, 4, 4, 5" in RULESET.summary
    assert any("2, 3, 3, 4, 4, 5" in r.text for r in RULESET.rulings)
    assert "2, 3, 3, 4, 4, 5" in RULESET.option_field("dice").label_for("d5")


def test_stat_line_prints_the_d5_average_die_by_default():
    line = check([unit("Warriors", "warriors")]).units[0].stats
    assert line["die"] == "d5 (average die: 2, 3, 3, 4, 4, 5)"
    assert line["move"] == '2d5+2"'
    assert line["attack"] == "d5+1"


def test_stat_line_prints_d6_when_the_d6_option_is_chosen():
    line = check([unit("Horse", "cavalry")], options={"dice": "d6"}).units[0].stats
    assert line["die"] == "d6"
    assert line["move"] == '3d6+2"'
    assert line["attack"] == "d6"


@pytest.mark.parametrize(
    ("u", "move", "attack", "shoot_start", "hits"),
    [
        (unit("I", "infantry"), '1d5+2"', "d5", "–", "15"),
        (unit("W", "warriors"), '2d5+2"', "d5+1", "–", "15"),
        (unit("R", "raiders"), '2d5+2"', "d5", "–", "15"),
        (unit("C", "cavalry"), '3d5+2"', "d5", "–", "15"),
        (unit("CJ", "cavalry", missile="javelin"), '3d5+2"', "d5-1", 'javelin d5-1 at 6"', "15"),
        (unit("SJ", "skirmishers", missile="javelin"), '2d5+2"', "d5-1", 'javelin d5-1 at 6"',
         "15"),
        (unit("SB", "skirmishers", missile="bow"), '2d5+2"', "d5-2", 'bow d5-2 at 12"', "15"),
        (unit("H", "infantry", change="household"), '1d5+2"', "d5+1", "–", "15"),
        (unit("L", "warriors", change="levy"), '2d5+2"', "d5", "–", "15"),
        (unit("D", "infantry", change="determined"), '1d5+2"', "d5", "–", "18 (Determined)"),
        (unit("Re", "infantry", change="reluctant"), '1d5+2"', "d5", "–", "12 (Reluctant)"),
        (unit("Hero", "infantry", personality="hero"), '1d5+2"', "d5+1 (hero +1)", "–", "15"),
    ],
)  # fmt: skip
def test_stat_line_per_type_and_change(u, move, attack, shoot_start, hits):
    line = check([u]).units[0].stats
    assert (line["move"], line["attack"], line["hits"]) == (move, attack, hits)
    assert line["shoot"].startswith(shoot_start)


@pytest.mark.parametrize(
    ("u", "attack", "shoot_start", "hits"),
    [
        (unit("RM", "infantry", variant="roman_militia"), "d5-1", "–", "15"),
        (unit("RC", "cavalry", missile="javelin", variant="roman_cavalry"), "d5",
         'javelin d5 at 6"', "15"),
        (unit("AC", "cavalry", missile="javelin", variant="arthurs_cavalry"), "d5+1",
         'javelin d5 at 6"', "15"),
        (unit("RK", "cavalry", missile="javelin", variant="roundtable_knights"), "d5+2",
         'javelin d5 at 6"', "15"),
        (unit("MS", "cavalry", missile="javelin", variant="mounted_servants"), "d5-2",
         'javelin d5-1 at 6"', "15"),
        (unit("IN", "skirmishers", missile="javelin", variant="irish_nobles"), "d5",
         'javelin d5-1 at 6"', "15"),
        (unit("SN", "warriors", variant="scots_nobles"), "d5+1", "–", "18 (Determined)"),
    ],
)  # fmt: skip
def test_stat_line_of_each_unit_type_idea(u, attack, shoot_start, hits):
    line = check([u]).units[0].stats
    assert line["attack"] == attack
    assert line["shoot"].startswith(shoot_start)
    assert line["hits"] == hits


def test_viking_veterans_print_infantry_and_warriors_lines():
    line = check([unit("V", "infantry", variant="viking_veterans")]).units[0].stats
    assert line["move"] == '1d5+2" as infantry / 2d5+2" as warriors'
    assert line["attack"] == "d5 as infantry / d5+1 as warriors"


def test_only_skirmishers_and_raiders_enter_woods_and_marsh():
    for type_, expected in (("raiders", "may enter"), ("warriors", "may not enter"),
                            ("infantry", "may not enter")):  # fmt: skip
        assert expected in check([unit("U", type_)]).units[0].stats["notes"]


def test_missile_supply_roll_shows_the_natural_five():
    line = check([unit("B", "skirmishers", missile="bow")],
                 options={"missile_supply": "roll"}).units[0].stats  # fmt: skip
    assert "a natural 5 is the last shot" in line["shoot"]


def test_rally_variation_is_noted_on_rallying_units():
    line = check([unit("P", "infantry", personality="priest")],
                 options={"rally_variation": True}).units[0].stats  # fmt: skip
    assert "cannot rally below 5" in line["notes"]
    assert "half a d5" in line["notes"]


def test_cavalry_may_carry_javelins_or_nothing_but_not_bows():
    assert "missile-not-allowed" not in codes(check([unit("C", "cavalry")]))
    report = check([unit("C", "cavalry", missile="bow")])
    assert "missile-not-allowed" in codes(report)
    assert "javelins or nothing" in report.issues[0].message


# -- upgrades and downgrades -------------------------------------------------------------


def test_change_field_holds_one_change_so_two_changes_are_malformed():
    with pytest.raises(rules.MalformedDocument) as exc:
        check([unit("U", "infantry", change=["household", "determined"])])
    assert exc.value.path == "units[0].change"


@pytest.mark.parametrize(
    "u",
    [
        unit("Knights", "cavalry", missile="javelin", variant="roundtable_knights",
             change="household"),
        unit("Bows", "skirmishers", missile="bow", change="levy"),
        unit("Servants", "cavalry", missile="javelin", variant="mounted_servants",
             change="levy"),
    ],
)  # fmt: skip
def test_attack_cannot_go_past_plus_or_minus_two(u):
    report = check([u])
    assert "attack-modifier-cap" in codes(report)


def test_attack_at_exactly_plus_two_is_allowed():
    u = unit("Arthur", "cavalry", missile="javelin", variant="arthurs_cavalry", change="household")
    assert "attack-modifier-cap" not in codes(check([u]))
    assert check([u]).units[0].stats["attack"] == "d5+2"


def test_upgraded_mounted_servants_beside_arthurs_cavalry_may_be_a_second_upgrade():
    units = [
        unit("Arthur", "cavalry", missile="javelin", variant="arthurs_cavalry"),
        unit("Servants", "cavalry", missile="javelin", variant="mounted_servants",
             change="household"),
        unit("Guard", "infantry", change="determined"),
        unit("Levy", "infantry", change="levy"),
        unit("Reluctant", "infantry", change="reluctant"),
        unit("Bows", "skirmishers", missile="bow"),
    ]  # fmt: skip
    assert check(units).issues == ()
    # ... and it still needs its own downgrade
    units[4]["change"] = None
    assert codes(check(units)) == ["downgrade-required"]


def test_second_upgrade_without_arthurs_cavalry_is_refused():
    units = [
        unit("Servants", "cavalry", missile="javelin", variant="mounted_servants",
             change="household"),
        unit("Guard", "infantry", change="determined"),
        unit("Levy", "infantry", change="levy"),
        unit("Reluctant", "infantry", change="reluctant"),
        unit("Foot", "infantry"),
        unit("Bows", "skirmishers", missile="bow"),
    ]  # fmt: skip
    assert codes(check(units)) == ["upgrade-limit"]


def test_downgrade_without_upgrade_is_refused():
    units = [
        unit("Levy", "infantry", change="levy"),
        *(unit(f"U{i}", "infantry") for i in range(5)),
    ]
    report = check(units)
    assert codes(report) == ["downgrade-required"]
    assert "one for one" in report.issues[0].message


def test_change_on_a_fixed_unit_names_the_unit():
    units, top = CASES["fixed-unit-changed"]
    report = check(units, **top)
    assert codes(report) == ["fixed-unit-changed"]
    assert report.issues[0].unit == 3
    assert "remove its household change" in report.issues[0].message


def test_change_on_a_unit_that_is_not_fixed_is_fine_in_the_same_list():
    units = _sub_roman()
    units[0]["change"] = "household"
    units[5]["change"] = "levy"
    assert check(units, army_list="sub-roman-british").issues == ()


# -- allies ------------------------------------------------------------------------------


def _host_with_allies(*allies: dict[str, Any]) -> list[dict[str, Any]]:
    host = [unit(f"Spears {i}", "infantry") for i in range(3)] + [unit("Warriors", "warriors")]
    return host + list(allies)


def _three_allies(second: str | None = None) -> list[dict[str, Any]]:
    """A 3-unit Strathclyde contingent: a leader with the first, ``second`` with the next."""
    return [
        unit("Ally teulu", "cavalry", ally="strathclyde-welsh", personality="leader"),
        unit("Ally spears", "infantry", ally="strathclyde-welsh", personality=second),
        unit("Ally spears 2", "infantry", ally="strathclyde-welsh"),
    ]


def test_legal_two_unit_allied_contingent():
    units = _host_with_allies(
        unit("Strathclyde teulu", "cavalry", missile="javelin", ally="strathclyde-welsh"),
        unit("Strathclyde spears", "infantry", ally="strathclyde-welsh"),
    )
    report = check(units, army_list="north-welsh")
    assert report.issues == ()
    assert "allied (Strathclyde Welsh (Ystrad Clud))" in report.units[4].stats["type"]
    assert "does not move on a natural 2" in report.units[4].stats["notes"]


def test_four_allied_units_are_refused():
    units = [unit("Warriors", "warriors"), unit("Spears", "infantry")]
    units += [unit(f"Ally {i}", "infantry", ally="strathclyde-welsh") for i in range(3)]
    units.append(unit("Ally teulu", "cavalry", ally="strathclyde-welsh"))
    report = check(units, army_list="north-welsh")
    assert "ally-count" in codes(report)
    assert "has 4 units; allies are 1-3 units" in " ".join(i.message for i in report.issues)


def test_allied_unit_that_is_not_a_required_unit_of_its_list_is_refused():
    # Welsh bowmen are a choice of the Strathclyde list, not one of its required units
    units = _host_with_allies(
        unit("Strathclyde spears", "infantry", ally="strathclyde-welsh"),
        unit("Strathclyde bowmen", "skirmishers", missile="bow", ally="strathclyde-welsh"),
    )
    report = check(units, army_list="north-welsh")
    assert codes(report) == ["ally-not-required"]
    assert report.issues[0].unit == 5


def test_allies_beyond_their_lists_required_numbers_are_refused():
    units = [unit("Warriors", "warriors"), unit("Spears", "infantry"), unit("More", "infantry")]
    units += [unit(f"Teulu {i}", "cavalry", ally="strathclyde-welsh") for i in range(2)]
    units.append(unit("Spear ally", "infantry", ally="strathclyde-welsh"))
    report = check(units, army_list="north-welsh")
    assert codes(report) == ["ally-not-required"]
    assert report.issues[0].unit == 4


def test_personality_on_a_two_unit_contingent_is_refused():
    units = _host_with_allies(
        unit("Strathclyde teulu", "cavalry", ally="strathclyde-welsh", personality="leader"),
        unit("Strathclyde spears", "infantry", ally="strathclyde-welsh"),
    )
    report = check(units, army_list="north-welsh")
    assert codes(report) == ["ally-personality"]
    assert report.issues[0].unit == 4


def test_three_unit_contingent_may_take_one_personality():
    units = [unit("Spears", "infantry"), unit("Spears 2", "infantry"), unit("W", "warriors")]
    units += _three_allies()
    report = check(units, army_list="north-welsh")
    assert report.issues == ()
    assert "natural 2" not in report.units[4].stats["notes"]


def test_second_personality_on_allied_units_is_a_host_personality_on_another_list():
    units = [unit("Spears", "infantry"), unit("Spears 2", "infantry"), unit("W", "warriors")]
    units += _three_allies(second="priest")
    report = check(units, army_list="north-welsh")
    assert codes(report) == ["ally-personality"]
    assert report.issues[0].unit == 4


def test_allies_from_two_lists_are_refused():
    units = _host_with_allies(
        unit("Strathclyde spears", "infantry", ally="strathclyde-welsh"),
        unit("Pictish spears", "infantry", ally="picts"),
    )
    report = check(units, army_list="north-welsh")
    assert codes(report) == ["ally-count"]


def test_allies_stand_in_for_choices_then_required_units():
    # host lacks its required warriors; three allies cover the two choices and the warriors
    units = [unit(f"Spears {i}", "infantry") for i in range(3)]
    units += [unit(f"Ally {i}", "infantry", ally="strathclyde-welsh") for i in range(3)]
    assert check(units, army_list="north-welsh").issues == ()
    # with two allies the warriors are still missing
    units = [unit(f"Spears {i}", "infantry") for i in range(3)] + [unit("Raiders", "raiders")]
    units += [unit(f"Ally {i}", "infantry", ally="strathclyde-welsh") for i in range(2)]
    report = check(units, army_list="north-welsh")
    assert report.issues == ()
    # a five-unit army: 2 spears, raiders, bows and one ally leave a required place empty
    units = [unit("Spears 0", "infantry"), unit("Spears 1", "infantry"), unit("R", "raiders")]
    units += [unit("Bows", "skirmishers", missile="bow")]
    units += [unit("Ally", "infantry", ally="strathclyde-welsh")]
    report = check(units, army_list="north-welsh")
    assert codes(report) == ["missing-required-unit", "army-size"]
    # the ally stands in for the third spearmen; nothing stands in for the warriors
    assert report.issues[0].message == "The list requires 1 Warriors (warband); the army has 0."


def test_fixed_allied_unit_may_not_be_changed():
    units = _host_with_allies(
        unit("Scots nobles", "warriors", variant="scots_nobles", ally="scots-dal-riata",
             change="household"),
        unit("Levy", "raiders", change="levy"),
    )  # fmt: skip
    report = check(units, army_list="north-welsh")
    assert codes(report) == ["fixed-unit-changed"]
    assert report.issues[0].rule == "Allied Forces"


def test_personality_limit_counts_allied_personality():
    units = [
        unit("Spears", "infantry", personality="hero"),
        unit("Spears 2", "infantry", personality="leader"),
        unit("W", "warriors"),
        *_three_allies(),
    ]
    assert "too-many-personalities" in codes(check(units, army_list="north-welsh"))


def test_unknown_ally_slug_is_malformed_and_names_the_known_lists_by_name():
    with pytest.raises(rules.MalformedDocument) as exc:
        check([unit("Ally", "infantry", ally="atlantis")])
    assert exc.value.path == "units[0].ally"
    assert "'atlantis' is not an army list of Dark Age Wargame Rules (d5)" in exc.value.message
    assert "North Welsh (Gwynedd)" in exc.value.message
    assert "Viking" in exc.value.message
    assert "north-welsh" not in exc.value.message


def test_ally_from_the_armys_own_list_is_malformed():
    with pytest.raises(rules.MalformedDocument) as exc:
        check(_host_with_allies(unit("Ally", "infantry", ally="north-welsh")),
              army_list="north-welsh")  # fmt: skip
    assert exc.value.path == "units[4].ally"
    assert "own list" in exc.value.message


@pytest.mark.django_db
def test_api_check_reports_ally_refusal_as_400(client):
    doc = army(RS, [unit("Ally", "infantry", ally="atlantis")])
    response = client.post("/api/v1/check", doc, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["path"] == "units[0].ally"


@pytest.mark.django_db
def test_api_checks_a_legal_allied_army(client):
    units = _host_with_allies(
        unit("Strathclyde teulu", "cavalry", ally="strathclyde-welsh"),
        unit("Strathclyde spears", "infantry", ally="strathclyde-welsh"),
    )
    doc = army(RS, units, army_list="north-welsh")
    response = client.post("/api/v1/check", doc, content_type="application/json")
    assert response.status_code == 200
    assert response.json()["valid"] is True


def test_empty_ally_means_the_armys_own_unit():
    parsed, report = rules.check_document(army(RS, [unit("Spears", "infantry", ally="")]))
    assert parsed.units[0]["ally"] is None


@pytest.mark.django_db
def test_rule_set_page_shows_the_average_die_rulings_and_lists(client):
    page = client.get("/rulesets/dark-ages-d5/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "2, 3, 3, 4, 4, 5" in text
    assert "ally-personality" in text
    assert "Sub-Roman British (Arthurian)" in text


@pytest.mark.django_db
def test_api_vocabulary_lists_fields_checks_and_army_lists(client):
    body = client.get("/api/v1/rulesets/dark-ages-d5").json()
    assert body["points"] is False
    fields = {f["name"]: f for f in body["unit_fields"]}
    assert [c["value"] for c in fields["change"]["choices"]] == [
        "household", "determined", "levy", "reluctant",
    ]  # fmt: skip
    assert fields["ally"]["nullable"] is True
    assert {"fixed-unit-changed", "ally-count"} <= {c["code"] for c in body["checks"]}
    slugs = {al["slug"] for al in body["army_lists"]}
    assert {"north-welsh", "strathclyde-welsh", "viking"} <= slugs
