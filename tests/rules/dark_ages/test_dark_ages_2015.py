"""dark-ages-2015: unit types, missiles, variable quality, variants, personalities, checks."""

import json
from typing import Any

import pytest

import rules
from rules.rulesets.dark_ages.dark_ages_2015 import RULESET
from tests.rules.dark_ages.dark_ages_support import (
    anglo_saxon_choice_cases,
    codes,
    report_for,
    unit,
)
from tests.support import army

RS = "dark-ages-2015"


def check(units: list[dict[str, Any]], **top: Any) -> rules.Report:
    return report_for(RS, units, **top)


def legal_six() -> list[dict[str, Any]]:
    """Six units using Elite, Levy, a hero with banner: legal with every option on."""
    return [
        unit("Gododdin shieldwall", "infantry", quality="elite", personality="hero", banner=True),
        unit("Fyrd", "infantry", quality="levy"),
        unit("Wild men", "warband"),
        unit("Teulu", "cavalry", missile="javelin"),
        unit("Hunters", "skirmishers", missile="bow"),
        unit("Freemen", "skirmishers", missile="javelin"),
    ]


def test_legal_six_unit_army_has_no_issues():
    report = check(legal_six())
    assert report.valid
    assert report.issues == ()
    assert report.total_points is None


# Every check code with an army that raises it (with the options it needs).
CASES: dict[str, tuple[list[dict[str, Any]], dict[str, Any]]] = {
    "skirmishers-need-missile": ([unit("Hunters", "skirmishers")], {}),
    "missile-not-allowed": ([unit("Archers", "infantry", missile="bow")], {}),
    "variant-type-mismatch": (
        [unit("Arthur", "infantry", variant="arthurs_cavalry", quality="elite")],
        {},
    ),  # fmt: skip
    "banner-needs-hero-or-leader": (
        [unit("Monks", "infantry", personality="priest", banner=True)],
        {},
    ),  # fmt: skip
    "quality-disabled": (
        [unit("Guard", "infantry", quality="elite")],
        {"options": {"variable_quality": False}},
    ),  # fmt: skip
    "personalities-disabled": (
        [unit("Hero's men", "infantry", personality="hero")],
        {"options": {"personalities": False}},
    ),  # fmt: skip
    "army-size": ([unit("Alone", "infantry")], {}),
    "too-many-personalities": (
        [unit(f"U{i}", "infantry", personality="leader" if i < 3 else None) for i in range(6)],
        {},
    ),
    "elite-limit": (
        [unit(f"U{i}", "infantry", quality="elite" if i < 2 else "levy") for i in range(6)],
        {},
    ),
    "elite-needs-levy": ([*legal_six()[:1], *(unit(f"U{i}", "infantry") for i in range(5))], {}),
    "army-list-size": (legal_six(), {"army_list": "anglo-saxon", "options": {"army_size": 9}}),
    "missing-required-unit": (
        [unit(f"U{i}", "warband") for i in range(6)],
        {"army_list": "anglo-saxon"},
    ),
    **anglo_saxon_choice_cases(),
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
        "army-size", "too-many-personalities", "banner-needs-hero-or-leader", "elite-limit",
        "elite-needs-levy", "quality-disabled", "personalities-disabled", "variant-type-mismatch",
    }  # fmt: skip
    assert digest <= {c.code for c in RULESET.checks}


# -- options and fields --------------------------------------------------------------------


def test_options_match_digest_defaults():
    assert RULESET.default_options() == {
        "army_size": 6,
        "variable_quality": True,
        "personalities": True,
        "missile_supply": "three_shots",
    }
    assert RULESET.uses_points is False


def test_unit_fields_offer_digest_vocabulary():
    assert RULESET.unit_field("type").values == ("infantry", "warband", "cavalry", "skirmishers")
    assert RULESET.unit_field("missile").values == ("bow", "javelin")
    assert RULESET.unit_field("quality").values == ("standard", "elite", "levy")
    assert RULESET.unit_field("variant").values == (
        "roman_militia", "roman_cavalry", "arthurs_cavalry", "the_knights",
        "mounted_servants", "irish_nobles", "scots_nobles", "viking_veterans",
    )  # fmt: skip
    assert RULESET.unit_field("personality").values == ("hero", "leader", "priest")


def test_army_size_outside_3_to_24_is_malformed():
    with pytest.raises(rules.MalformedDocument) as exc:
        check(legal_six(), options={"army_size": 30})
    assert exc.value.path == "options.army_size"


def test_unknown_unit_type_is_malformed_naming_allowed_values():
    with pytest.raises(rules.MalformedDocument) as exc:
        check([unit("Knights", "knights")])
    assert exc.value.path == "units[0].type"
    assert "infantry, warband, cavalry, skirmishers" in exc.value.message


def test_points_limit_is_refused_because_there_are_no_points():
    with pytest.raises(rules.MalformedDocument) as exc:
        check(legal_six(), points_limit=100)
    assert exc.value.path == "points_limit"


def test_cavalry_without_missile_is_read_as_javelin_cavalry():
    parsed, report = rules.check_document(army(RS, [unit("Teulu", "cavalry")]))
    assert parsed.units[0]["missile"] == "javelin"
    assert report.units[0].stats["shoot"].startswith('javelin d6-1 at 6"')


def test_cavalry_with_bow_is_refused():
    report = check([unit("Horse archers", "cavalry", missile="bow")])
    assert codes(report) == ["missile-not-allowed", "army-size"]
    assert "javelins only" in report.issues[0].message


def test_warband_with_javelins_is_refused():
    assert "missile-not-allowed" in codes(check([unit("W", "warband", missile="javelin")]))


# -- stat lines ----------------------------------------------------------------------------


def stats(u: dict[str, Any], **options: Any) -> dict[str, str]:
    return check([u], options=options).units[0].stats


@pytest.mark.parametrize(
    ("u", "move", "melee", "shoot_start"),
    [
        (unit("I", "infantry"), '1d6+1"', "d6", "–"),
        (unit("W", "warband"), '2d6+2"', "d6+2", "–"),
        (unit("C", "cavalry"), '3d6+3"', "d6-1", 'javelin d6-1 at 6"'),
        (unit("B", "skirmishers", missile="bow"), '2d6+2"', "d6-2", 'bow d6-2 at 12"'),
        (unit("J", "skirmishers", missile="javelin"), '2d6+2"', "d6-1", 'javelin d6-1 at 6"'),
    ],
)
def test_stat_line_per_type(u, move, melee, shoot_start):
    line = stats(u)
    assert line["die"] == "d6"
    assert line["move"] == move
    assert line["melee"] == melee
    assert line["shoot"].startswith(shoot_start)
    assert line["hits"] == "15"


@pytest.mark.parametrize(
    ("u", "melee", "shoot_start"),
    [
        (unit("RM", "infantry", variant="roman_militia"), "d6-1", "–"),
        (unit("RC", "cavalry", variant="roman_cavalry"), "d6", 'javelin d6 at 6"'),
        (unit("AC", "cavalry", variant="arthurs_cavalry", quality="elite"), "d6",
         'javelin d6 at 6"'),
        (unit("K", "cavalry", variant="the_knights", quality="elite"), "d6+1", 'javelin d6 at'),
        (unit("MS", "cavalry", variant="mounted_servants"), "d6-2", 'javelin d6-1 at 6"'),
        (unit("IN", "skirmishers", missile="javelin", variant="irish_nobles"), "d6",
         'javelin d6-1 at 6"'),
        (unit("SN", "warband", variant="scots_nobles", quality="elite"), "d6+1", "–"),
    ],
)  # fmt: skip
def test_stat_line_of_each_additional_unit_type(u, melee, shoot_start):
    line = stats(u)
    assert line["melee"] == melee
    assert line["shoot"].startswith(shoot_start)


def test_viking_veterans_print_both_lines():
    line = stats(unit("Veterans", "warband", variant="viking_veterans"))
    assert line["move"] == '1d6+1" as infantry / 2d6+2" as warband'
    assert line["melee"] == "d6 as infantry / d6+2 as warband"
    assert "chosen after deployment" in line["type"]
    assert "shieldwall (as infantry)" in line["notes"]


def test_hero_adds_one_to_melee_and_shooting():
    line = stats(unit("Champion's bows", "skirmishers", missile="bow", personality="hero"))
    assert line["melee"] == "d6-1 (hero +1)"
    assert line["shoot"].startswith('bow d6-1 (hero +1) at 12"')
    assert "hero: +1" in line["notes"]


def test_hits_follow_quality():
    assert stats(unit("E", "infantry", quality="elite"))["hits"] == "18 (Elite)"
    assert stats(unit("L", "infantry", quality="levy"))["hits"] == "12 (Levy)"


def test_missile_supply_roll_replaces_three_shots_on_the_stat_line():
    line = stats(unit("B", "skirmishers", missile="bow"), missile_supply="roll")
    assert "an unmodified 5 or 6 is the last" in line["shoot"]
    assert "3 shots" not in line["shoot"]


def test_infantry_notes_shieldwall_and_skirmishers_enter_woods():
    assert "shieldwall" in stats(unit("I", "infantry"))["notes"]
    assert "may enter woods" in stats(unit("S", "skirmishers", missile="bow"))["notes"]
    assert "may not enter woods" in stats(unit("C", "cavalry"))["notes"]


def test_leader_gives_an_extra_turn_and_banner_rallies():
    line = stats(unit("L", "cavalry", personality="leader", banner=True))
    assert "+1 at any time (leader)" in line["turns"]
    assert "banner: rallies 1-3 hits" in line["notes"]


# -- variable quality ----------------------------------------------------------------------


def test_one_elite_per_six_units_balanced_by_a_levy_is_legal():
    units = [unit("E", "infantry", quality="elite"), unit("L", "warband", quality="levy")]
    units += [unit(f"U{i}", "infantry") for i in range(4)]
    assert check(units).issues == ()


def test_double_army_allows_two_elite_units_with_two_levy():
    units = [unit(f"E{i}", "infantry", quality="elite") for i in range(2)]
    units += [unit(f"L{i}", "infantry", quality="levy") for i in range(2)]
    units += [unit(f"U{i}", "warband") for i in range(8)]
    assert check(units, options={"army_size": 12}).issues == ()


def test_elite_mounted_servants_beside_arthurs_cavalry_need_a_second_levy():
    units = [
        unit("Arthur", "cavalry", variant="arthurs_cavalry", quality="elite"),
        unit("Servants", "cavalry", variant="mounted_servants", quality="elite"),
        unit("Levy 1", "infantry", quality="levy"),
        unit("Foot", "infantry"),
        unit("Foot 2", "infantry"),
        unit("Bows", "skirmishers", missile="bow"),
    ]
    report = check(units)
    assert codes(report) == ["elite-needs-levy"]
    units[3]["quality"] = "levy"
    assert check(units).issues == ()


def test_elite_mounted_servants_without_other_elite_cavalry_are_refused():
    units = [
        unit("Servants", "cavalry", variant="mounted_servants", quality="elite"),
        unit("Levy", "infantry", quality="levy"),
        *(unit(f"U{i}", "infantry") for i in range(4)),
    ]
    report = check(units)
    assert codes(report) == ["elite-limit"]
    assert report.issues[0].unit == 0
    assert "another Elite cavalry" in report.issues[0].message


def test_army_under_six_units_may_have_no_elite():
    units = [unit("E", "infantry", quality="elite"), unit("L", "infantry", quality="levy")]
    units += [unit("U", "infantry"), unit("V", "infantry")]
    report = check(units, options={"army_size": 4})
    assert codes(report) == ["elite-limit"]


def test_arthurs_cavalry_that_are_not_elite_are_refused():
    report = check([unit("Arthur", "cavalry", variant="arthurs_cavalry")])
    assert "variant-type-mismatch" in codes(report)
    assert "set quality to elite" in report.issues[0].message


def test_irish_nobles_with_bows_are_refused():
    report = check([unit("Nobles", "skirmishers", missile="bow", variant="irish_nobles")])
    assert "variant-type-mismatch" in codes(report)


def test_viking_veterans_may_be_infantry_or_warband_but_not_cavalry():
    for type_ in ("infantry", "warband"):
        assert "variant-type-mismatch" not in codes(
            check([unit("V", type_, variant="viking_veterans")])
        )
    assert "variant-type-mismatch" in codes(
        check([unit("V", "cavalry", variant="viking_veterans")])
    )


def test_quality_disabled_skips_elite_and_levy_arithmetic():
    units = [unit("E", "infantry", quality="elite"), *(unit(f"U{i}", "infantry") for i in range(5))]
    report = check(units, options={"variable_quality": False})
    assert codes(report) == ["quality-disabled"]


# -- personalities ------------------------------------------------------------------------


def test_banner_counts_against_the_personality_limit():
    units = [unit("A", "infantry", personality="leader", banner=True),
             unit("B", "infantry", personality="priest")]  # fmt: skip
    units += [unit(f"U{i}", "infantry") for i in range(4)]
    report = check(units)
    assert codes(report) == ["too-many-personalities"]
    assert "3 personalities" in report.issues[0].message


def test_banner_without_personality_is_refused():
    report = check([unit("Flag", "infantry", banner=True)])
    assert "banner-needs-hero-or-leader" in codes(report)


# -- army lists ------------------------------------------------------------------------


def test_a_list_doubles_for_a_double_army():
    units = [unit(f"Fyrd {i}", "infantry") for i in range(8)]
    units += [unit("Bows 1", "skirmishers", missile="bow"), unit("Bows 2", "skirmishers",
              missile="bow"), unit("G1", "warband"), unit("G2", "warband")]  # fmt: skip
    report = check(units, army_list="anglo-saxon", options={"army_size": 12})
    assert report.issues == ()


def test_list_messages_name_the_entry_and_its_numbers():
    units, top = CASES["too-many-of-choice"]
    report = check(units, **top)
    issue = next(i for i in report.issues if i.code == "too-many-of-choice")
    assert issue.unit == 5
    assert issue.message == (
        "Bows 2: one too many for this list: its 2 support choices allow at most 1 Bow skirmishers."
    )


def test_rule_set_page_records_garbled_source_readings():
    texts = " ".join(r.text for r in RULESET.rulings)
    assert "Viking VeteransAfter deployment" in texts
    assert "rule.f" in texts


@pytest.mark.django_db
def test_rule_set_page_shows_options_rulings_and_starter_lists(client):
    page = client.get("/rulesets/dark-ages-2015/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "army_size" in text and "variable_quality" in text
    assert "Viking VeteransAfter deployment" in text
    assert "North Welsh (Gwynedd)" in text


def test_cli_check_exits_1_for_an_illegal_2015_army(tmp_path, db):
    from django.core.management import call_command

    path = tmp_path / "army.json"
    path.write_text(json.dumps(army(RS, [unit("Hunters", "skirmishers")])), encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        call_command("muster", "check", str(path))
    assert exc.value.code == 1
