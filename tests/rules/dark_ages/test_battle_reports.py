"""The armies of the source's two battle reports (seeds/004), checked as the reports describe.

Bridgehead (One-Hour Wargames scenario 5, a double battle of 12 units a side):
- North Welsh invaders: five warband and a javelin skirmisher unit left of the road, four
  shieldwall infantry and two bow skirmisher units right of it; two leaders, one with a banner.
- Strathclyde Welsh defenders: four bow skirmisher units, three shieldwall infantry, two light
  and two armoured javelin cavalry (the Teulu); two leaders and a priest. "This totaled eleven
  Units, so I forgot one!" -- a fourth infantry unit, as the report notices at the end.

Flank Attack (scenario 7, six units a side):
- North Welsh: five warband and a bow skirmisher unit.
- Strathclyde Welsh: a cavalry unit, four shieldwall infantry and a bow skirmisher unit.
"""

from typing import Any

import rules
from tests.support import army, fixture_lists

RS = "dark-ages-2015"


def unit(name: str, type_: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "type": type_, **fields}


def check(units: list[dict[str, Any]], ruleset: str = RS, **top: Any) -> rules.Report:
    return rules.check_document(army(ruleset, units, **top), fixture_lists)[1]


def codes(report: rules.Report) -> list[str]:
    return [i.code for i in report.issues]


def bridgehead_north_welsh() -> list[dict[str, Any]]:
    return [
        *(unit(f"Warband {n}", "warband") for n in range(1, 6)),
        unit("Javelinmen", "skirmishers", missile="javelin"),
        unit("Shieldwall 1", "infantry", personality="leader", banner=True),
        unit("Shieldwall 2", "infantry", personality="leader"),
        unit("Shieldwall 3", "infantry"),
        unit("Shieldwall 4 (the Saxon greater fyrd)", "infantry"),
        unit("Bowmen 1", "skirmishers", missile="bow"),
        unit("Bowmen 2", "skirmishers", missile="bow"),
    ]


def bridgehead_strathclyde_as_fielded() -> list[dict[str, Any]]:
    return [
        *(unit(f"Welsh bowmen {n}", "skirmishers", missile="bow") for n in range(1, 5)),
        unit("Gentry shieldwall 1", "infantry", personality="priest"),
        unit("Gentry shieldwall 2", "infantry", personality="leader"),
        unit("Gentry shieldwall 3", "infantry", personality="leader"),
        unit("Light cavalry 1", "cavalry", missile="javelin", variant="mounted_servants"),
        unit("Light cavalry 2", "cavalry", missile="javelin", variant="mounted_servants"),
        unit("Teulu", "cavalry", missile="javelin"),
        unit("Armoured cavalry", "cavalry", missile="javelin"),
    ]


def flank_attack_north_welsh() -> list[dict[str, Any]]:
    return [
        *(unit(f"Warband {n}", "warband") for n in range(1, 6)),
        unit("Skirmishers in the woods", "skirmishers", missile="bow"),
    ]


def flank_attack_strathclyde() -> list[dict[str, Any]]:
    return [
        unit("Cavalry reserve", "cavalry"),
        unit("Right infantry 1", "infantry"),
        unit("Right infantry 2", "infantry"),
        unit("Centre reserve", "infantry"),
        unit("Left infantry", "infantry"),
        unit("Skirmishers on the left flank", "skirmishers", missile="bow"),
    ]


# -- Bridgehead ------------------------------------------------------------------------------


def test_bridgehead_north_welsh_double_army_is_legal_under_its_list():
    report = check(bridgehead_north_welsh(), army_list="north-welsh", options={"army_size": 12})
    assert report.issues == ()


def test_bridgehead_personalities_fit_one_per_three_units():
    # invaders: two leaders and a banner (3 of 4 allowed); defenders: two leaders and a priest
    # in 11 units (3 of 3 allowed)
    assert "too-many-personalities" not in codes(
        check(bridgehead_north_welsh(), options={"army_size": 12})
    )
    assert "too-many-personalities" not in codes(
        check(bridgehead_strathclyde_as_fielded(), options={"army_size": 12})
    )


def test_bridgehead_strathclyde_as_fielded_is_one_unit_short():
    units = bridgehead_strathclyde_as_fielded()
    assert len(units) == 11
    report = check(units, options={"army_size": 12})
    assert codes(report) == ["army-size"]
    assert report.valid  # a warning: the battle was fought this way
    assert "11 units; the scenario's army size is 12" in report.issues[0].message


def test_bridgehead_strathclyde_list_spots_the_forgotten_infantry_unit():
    report = check(
        bridgehead_strathclyde_as_fielded(), army_list="strathclyde-welsh",
        options={"army_size": 12},
    )  # fmt: skip
    assert codes(report) == ["missing-required-unit", "army-size"]
    assert report.issues[0].message == ("The list requires 4 Shieldwall infantry; the army has 3.")


def test_bridgehead_strathclyde_with_the_forgotten_infantry_is_legal():
    units = [*bridgehead_strathclyde_as_fielded(), unit("Forgotten shieldwall", "infantry")]
    report = check(units, army_list="strathclyde-welsh", options={"army_size": 12})
    assert report.issues == ()


def test_bridgehead_a_banner_for_the_defenders_would_be_one_personality_too_many():
    units = bridgehead_strathclyde_as_fielded()
    units[5]["banner"] = True
    report = check(units, options={"army_size": 12})
    assert "too-many-personalities" in codes(report)


def test_bridgehead_stat_lines_match_the_report():
    report = check(bridgehead_strathclyde_as_fielded(), options={"army_size": 12})
    by_name = {u.name: u.stats for u in report.units}
    # "The light cavalry fought d6-2 like any skirmishers, and the heavier d6-1."
    assert by_name["Light cavalry 1"]["melee"] == "d6-2"
    assert by_name["Teulu"]["melee"] == "d6-1"
    # "all armed with javelins, and a three-shot limit"
    assert by_name["Teulu"]["shoot"].startswith('javelin d6-1 at 6", 3 shots')
    assert by_name["Welsh bowmen 1"]["shoot"].startswith('bow d6-2 at 12", 3 shots')
    assert "priest: rallies 2-4 hits" in by_name["Gentry shieldwall 1"]["notes"]
    # "Saxon greater Fyrd ... 10/15": infantry are eliminated at 15 hits
    assert by_name["Gentry shieldwall 2"]["hits"] == "15"


# -- Flank Attack -----------------------------------------------------------------------------


def test_flank_attack_armies_are_legal_six_unit_armies_under_the_rules():
    for units in (flank_attack_north_welsh(), flank_attack_strathclyde()):
        assert check(units).issues == ()


def test_flank_attack_strathclyde_army_is_legal_under_its_list():
    report = check(flank_attack_strathclyde(), army_list="strathclyde-welsh")
    assert report.issues == ()


def test_flank_attack_invaders_have_more_warband_than_the_north_welsh_list_allows():
    # The d5 revision's author: "I have been invading Strathclyde with a force of five
    # Warband and a Skirmisher, which probably explains some of the problems I've had
    # fending them off!" -- the lists give 3-4 infantry instead.
    report = check(flank_attack_north_welsh(), army_list="north-welsh")
    assert set(codes(report)) == {"missing-required-unit", "too-many-of-choice"}
    missing = [i for i in report.issues if i.code == "missing-required-unit"]
    assert missing[0].message == "The list requires 2 Shieldwall infantry; the army has 0."
    too_many = [i.unit for i in report.issues if i.code == "too-many-of-choice"]
    assert too_many == [3, 4]


def test_flank_attack_invaders_break_the_d5_north_welsh_list_too():
    units = [unit(f"Warband {n}", "warriors") for n in range(1, 6)]
    units.append(unit("Skirmishers", "skirmishers", missile="bow"))
    report = check(units, ruleset="dark-ages-d5", army_list="north-welsh")
    assert "missing-required-unit" in codes(report)
    assert "too-many-of-choice" in codes(report)


def test_flank_attack_stat_lines_match_the_report():
    invaders = {u.name: u.stats for u in check(flank_attack_north_welsh()).units}
    defenders = {u.name: u.stats for u in check(flank_attack_strathclyde()).units}
    # "Skirmishers ... managed to roll up and compensate for their 1d6-2 combat ability"
    assert invaders["Skirmishers in the woods"]["melee"] == "d6-2"
    assert "may enter woods" in invaders["Skirmishers in the woods"]["notes"]
    assert invaders["Warband 1"]["melee"] == "d6+2"
    # "Infantry Units which halve casualties against them"
    assert "shieldwall" in defenders["Left infantry"]["notes"]
    assert defenders["Cavalry reserve"]["melee"] == "d6-1"
