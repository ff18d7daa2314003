"""Into the Dark: the digest's worked examples, rulings, stat line and every check code."""

import pytest

import rules
from rules.rulesets.into_the_dark.ruleset import RULESET as ITD
from rules.rulesets.into_the_dark.troops import per_figure
from tests.support import army, example

LEGAL_UNIT = {
    "name": "Huscarls",
    "figures": 12,
    "quality": "elite",
    "density": "close",
    "armour": "mailed",
    "training": "melee",
}


def report_for(units, **top):
    return rules.check_document(army("into-the-dark", units, **top))[1]


def codes(report):
    return {i.code for i in report.issues}


def unit_points(unit, **top):
    return report_for([unit], **top).units[0].points


# -- worked examples -------------------------------------------------------------------


def test_town_militia_cost_44_per_source_example():
    militia = {"name": "Town Militia", "figures": 12, "quality": "levy", "armour": "unarmoured"}
    report = report_for([militia])
    assert report.units[0].points == 44
    assert report.units[0].breakdown == (
        "levy 2 + unarmoured 0 = 2 per figure",
        "12 figures x 2 = 24",
        "command 2 x 10 = 20",
    )


def test_knights_cost_242_per_source_example():
    knights = {
        "name": "Knights",
        "figures": 12,
        "quality": "fanatic",
        "density": "loose",
        "armour": "mailed",
        "mounted": True,
    }
    assert unit_points(knights) == 242


def test_combat_archers_cost_160_per_source_example():
    archers = {
        "name": "Combat Archers",
        "figures": 12,
        "quality": "elite",
        "density": "loose",
        "armour": "protected",
        "training": "cross_trained",
        "missile_weapon": "foot_bow",
    }
    assert unit_points(archers) == 160


def test_elite_armoured_champion_costs_60_with_no_command_cost():
    champion = {
        "name": "Champion",
        "figures": 1,
        "quality": "elite",
        "density": "open",
        "armour": "armoured",
        "champion": True,
    }
    report = report_for([champion])
    assert report.units[0].points == 60
    assert "no command cost" in report.units[0].breakdown[-1]


def test_source_examples_document_totals_581_with_good_general_75():
    _, report = rules.check_document(example("into-the-dark-source-examples.json"))
    assert [u.points for u in report.units] == [44, 242, 160, 60]
    assert [g.points for g in report.generals] == [75]
    assert report.total_points == 581
    assert report.valid


def test_general_champion_adds_the_champions_cost_to_the_rating_cost():
    general = {
        "name": "Harald",
        "rating": "average",
        "mounted": False,
        "commanding": True,
        "champion": {"quality": "fanatic", "armour": "mailed"},
    }
    report = report_for([], generals=[general])
    # 2 x 25 = 50, plus 10 x (5 + 3) = 80
    assert report.generals[0].points == 130


# -- rulings ----------------------------------------------------------------------------


def test_r1_longbow_fraction_is_summed_exactly_and_rounded_up_once():
    # average 3 + unarmoured 0 = 3 per figure, x 1.5 for the longbow = 4.5
    bowmen = {
        "name": "Bowmen",
        "figures": 11,
        "quality": "average",
        "density": "loose",
        "armour": "unarmoured",
        "training": "missile",
        "missile_weapon": "longbow",
    }
    report = report_for([bowmen])
    # 11 x 4.5 = 49.5, + 30 = 79.5 -> 80 (rounded once, at the end)
    assert report.units[0].points == 80
    assert report.units[0].breakdown[-1] == "79.5 rounded up = 80"


def test_r1_pike_and_mounted_multipliers_compound_exactly():
    # Not a legal unit (mounted pike) but costing is independent of checks.
    each, _ = per_figure("levy", "protected", mounted=True, pike=True)
    assert each == 9  # (2 + 1) x 2 x 1.5


def test_r2_shieldwall_adds_one_per_figure_after_the_multipliers():
    shieldwall = dict(LEGAL_UNIT, shieldwall=True, melee_weapon="pike")
    # elite 4 + mailed 3 = 7 x 1.5 = 10.5 + 1 = 11.5 per figure; 12 x 11.5 = 138 + 40 = 178
    assert unit_points(shieldwall) == 178


def test_ruleset_page_data_explains_why_wedge_hedgehog_and_chariots_are_not_offered():
    assert any("Wedge" in line and "Chariots" in line for line in ITD.not_offered)
    assert "R3" in {r.code for r in ITD.rulings}


# -- stat line --------------------------------------------------------------------------


def test_stat_line_of_loose_mailed_mounted_knights():
    _, report = rules.check_document(example("into-the-dark-source-examples.json"))
    stats = report.units[1].stats
    assert stats["code"] == "LMM"
    assert stats["move"] == '12"'
    assert stats["rout_evade"] == "4d6"
    assert stats["hit_on"] == "6+"
    assert stats["morale"] == "5"
    assert "steady fanatics +1 in melee" in stats["notes"]


def test_fifteen_mm_figure_scale_halves_every_distance():
    archers = {
        "name": "Archers",
        "figures": 12,
        "density": "open",
        "training": "missile",
        "missile_weapon": "longbow",
    }
    full = report_for([archers]).units[0].stats
    half = report_for([archers], options={"figure_scale": "15mm"}).units[0].stats
    assert (full["move"], full["close"], full["long"], full["zoc"]) == (
        '8"',
        '8"',
        '24"',
        '8" (close range)',
    )
    assert (half["move"], half["close"], half["long"], half["zoc"]) == (
        '4"',
        '4"',
        '12"',
        '4" (close range)',
    )


def test_encased_foot_move_4_and_rout_2d6():
    stats = report_for([dict(LEGAL_UNIT, armour="encased")]).units[0].stats
    assert (stats["move"], stats["rout_evade"], stats["hit_on"]) == (
        '4"',
        "2d6",
        "7+ (a natural 6)",
    )


# -- unit checks --------------------------------------------------------------------------

UNIT_CASES = {
    "champion-figures": {"figures": 3, "champion": True, "density": "open"},
    "missing-missile-weapon": {"training": "missile"},
    "melee-with-missile-weapon": {"missile_weapon": "javelin"},
    "swat-not-cross-trained": {"training": "cross_trained", "missile_weapon": "longbow"},
    "weapon-wrong-arm": {"mounted": True, "training": "missile", "missile_weapon": "foot_bow"},
    "shieldwall-not-close-foot": {"density": "loose", "shieldwall": True},
    "peasant-swat": {"quality": "peasant", "melee_weapon": "polearm"},
    "warband-mounted": {"mounted": True, "warband": True},
    "skirmishers-not-open-missile": {"skirmishers": True},
    "champion-not-open": {"figures": 1, "champion": True},
    "too-few-figures": {"figures": 3},
}


@pytest.mark.parametrize("code", [c for c, change in UNIT_CASES.items() if change])
def test_each_unit_check_code_is_triggered(code):
    report = report_for([dict(LEGAL_UNIT, **UNIT_CASES[code])])
    assert code in codes(report)
    issue = next(i for i in report.issues if i.code == code)
    assert issue.unit == 0
    assert issue.severity == ("warning" if code == "too-few-figures" else "error")
    assert LEGAL_UNIT["name"] in issue.message


def test_figures_out_of_range_is_refused_by_the_parser_naming_the_path():
    with pytest.raises(rules.MalformedDocument) as caught:
        rules.check_document(army("into-the-dark", [dict(LEGAL_UNIT, figures=401)]))
    assert caught.value.path == "units[0].figures"
    assert "above the maximum 400" in caught.value.message


def test_figures_out_of_range_is_a_malformed_document_and_no_check_code():
    """Ruling R6: a range error is refused at the door, so it is documented as a ruling,
    not as a check code a saved army could show."""
    assert "figures-out-of-range" not in {c.code for c in ITD.checks}
    assert any("Figures outside 1-400" in r.text for r in ITD.rulings)


@pytest.mark.parametrize(
    "change",
    [
        {"mounted": True, "training": "missile", "missile_weapon": "mounted_bow"},
        {"mounted": True, "training": "missile", "missile_weapon": "javelin"},
        {"training": "missile", "missile_weapon": "javelin"},
        {"melee_weapon": "pike", "shieldwall": True},
        {"density": "open", "training": "missile", "missile_weapon": "sling", "skirmishers": True},
        {"warband": True, "quality": "fanatic"},
        {"figures": 1, "champion": True, "density": "open"},
    ],
)
def test_legal_variations_raise_no_unit_issue(change):
    assert report_for([dict(LEGAL_UNIT, **change)]).issues == ()


def test_mounted_pike_and_foot_mounted_bow_are_wrong_arm():
    pike = report_for([dict(LEGAL_UNIT, mounted=True, melee_weapon="pike")])
    bow = report_for([dict(LEGAL_UNIT, training="missile", missile_weapon="mounted_bow")])
    assert "weapon-wrong-arm" in codes(pike)
    assert "weapon-wrong-arm" in codes(bow)


def test_peasant_shieldwall_and_longbow_are_swat():
    report = report_for(
        [
            dict(LEGAL_UNIT, quality="peasant", shieldwall=True),
            dict(LEGAL_UNIT, quality="peasant", training="missile", missile_weapon="longbow"),
        ]
    )
    assert [i.unit for i in report.issues if i.code == "peasant-swat"] == [0, 1]


# -- army checks --------------------------------------------------------------------------

GENERAL = {"name": "Godwin", "rating": "good", "commanding": True}


def divisional(n, division="Godwin"):
    return [dict(LEGAL_UNIT, name=f"Unit {i}", division=division) for i in range(n)]


def test_legal_army_with_command_and_control_has_no_issues():
    report = report_for(
        divisional(4), generals=[GENERAL], options={"command_and_control": True}, points_limit=2000
    )
    assert report.valid
    assert report.issues == ()


def test_over_points_limit_is_an_error_naming_both_numbers():
    report = report_for(divisional(4), generals=[GENERAL], points_limit=400)
    issue = next(i for i in report.issues if i.code == "over-points-limit")
    assert issue.message == f"Army costs {report.total_points} points; the limit is 400."
    assert not report.valid


def test_no_commanding_general_with_command_and_control():
    subordinate = dict(GENERAL, commanding=False)
    none = report_for(divisional(4), generals=[subordinate], options={"command_and_control": True})
    two = report_for(
        divisional(4), generals=[GENERAL, dict(GENERAL, name="Leofwine")],
        options={"command_and_control": True},
    )  # fmt: skip
    assert "no-commanding-general" in codes(none)
    assert "no-commanding-general" in codes(two)


def test_commanding_general_not_required_without_command_and_control():
    assert "no-commanding-general" not in codes(report_for(divisional(4)))


def test_unknown_division_names_the_known_generals():
    report = report_for(divisional(4, division="Harold"), generals=[GENERAL])
    issue = next(i for i in report.issues if i.code == "unknown-division")
    assert "Godwin" in issue.message
    assert issue.unit == 0


def test_a_unit_in_no_division_is_an_error_with_command_and_control():
    """Command & Control, Divisions: "All units in the army are grouped together into
    divisions and put under the command of a specific general."""
    units = [*divisional(3), dict(LEGAL_UNIT, name="Stray")]
    on = report_for(units, generals=[GENERAL], options={"command_and_control": True})
    off = report_for(units, generals=[GENERAL])
    assert [(i.code, i.unit, i.severity) for i in on.issues] == [("unassigned-unit", 3, "error")]
    assert not on.valid
    assert on.issues[0].rule == "Divisions"
    assert "grouped into divisions" in on.issues[0].message
    assert "unassigned-unit" not in codes(off)
    assert off.valid


def test_every_unit_in_a_division_is_valid_with_command_and_control():
    units = divisional(4)
    report = report_for(units, generals=[GENERAL], options={"command_and_control": True})
    assert report.valid, report.issues


@pytest.mark.parametrize("size,flagged", [(2, True), (3, False), (6, False), (7, True)])
def test_division_size_warns_outside_three_to_six(size, flagged):
    report = report_for(divisional(size), generals=[GENERAL])
    assert ("division-size" in codes(report)) is flagged
