"""Dewitt's Medieval Wargaming Rules (1987): costs, stat line and every check code."""

import pytest

from rules import MalformedDocument, check_document
from rules.registry import get_ruleset
from tests.support import army, example, expected

RULESET = get_ruleset("dewitt-medieval")


def unit(**fields):
    base = {"name": "Unit", "arm": "foot", "class": "light", "stands": 4}
    base.update(fields)
    return base


def report_for(*units, **top):
    return check_document(army("dewitt-medieval", list(units), **top))[1]


def codes(report):
    return [(i.severity, i.code) for i in report.issues]


# -- costs ---------------------------------------------------------------------------


def test_digest_example_heavy_cavalry_with_lance_costs_168_and_268_with_c_in_c():
    lances = unit(arm="cavalry", **{"class": "heavy"}, weapons=["lance"], shield=True)
    assert report_for(lances).units[0].points == 168
    assert report_for(dict(lances, command="c_in_c")).units[0].points == 268


def test_lance_and_bow_example_comes_out_exactly():
    want = expected()["dewitt-medieval-lance-and-bow.json"]
    _, report = check_document(example("dewitt-medieval-lance-and-bow.json"))
    assert report.valid is want["valid"]
    assert report.total_points == want["total_points"] == 358
    assert [u.points for u in report.units] == want["unit_points"]
    assert report.issues == ()


def test_breakdown_shows_per_figure_then_per_unit_then_command():
    _, report = check_document(example("dewitt-medieval-lance-and-bow.json"))
    assert report.units[0].breakdown == (
        "heavy cavalry 12 + lance 2 = 14 per figure",
        "4 stands x 3 figures x 14 = 168",
        "C-in-C +100 = 268",
    )
    assert report.units[1].breakdown == (
        "light foot 4 + bow 2 − no shield 1 = 5 per figure",
        "6 stands x 3 figures x 5 = 90",
    )


@pytest.mark.parametrize(
    ("arm", "klass", "piece"),
    [
        ("cavalry", "light", 8),
        ("cavalry", "medium", 10),
        ("cavalry", "heavy", 12),
        ("cavalry", "super_heavy", 19),
        ("foot", "light", 4),
        ("foot", "medium", 6),
        ("foot", "heavy", 8),
        ("foot", "super_heavy", 12),
    ],
)
def test_piece_cost_is_per_figure_by_class_and_arm(arm, klass, piece):
    one_figure = unit(arm=arm, **{"class": klass}, stands=1, figures_per_stand=1)
    assert report_for(one_figure).units[0].points == piece
    two_stands_of_two = unit(arm=arm, **{"class": klass}, stands=2, figures_per_stand=2)
    assert report_for(two_stands_of_two).units[0].points == 4 * piece


@pytest.mark.parametrize(
    ("weapon", "extra"),
    [
        ("two_handed", 2),
        ("pike", 2),
        ("mace", 1),
        ("spear", 1),
        ("crossbow", 1),
        ("sling", 1),
        ("longbow", 2),
        ("bow", 2),
        ("ss", 2),
        ("cut_and_thrust", 2),
    ],
)
def test_each_foot_weapon_adds_its_modification_per_figure(weapon, extra):
    armed = report_for(unit(**{"class": "medium"}, stands=3, weapons=[weapon]))
    assert armed.units[0].points == 3 * 3 * (6 + extra)


def test_lance_adds_two_per_cavalry_figure():
    assert report_for(unit(arm="cavalry", stands=2, weapons=["lance"])).units[0].points == 60


def test_weapons_add_up_and_no_shield_takes_one_per_figure():
    mixed = unit(**{"class": "heavy"}, stands=2, weapons=["spear", "crossbow"], shield=False)
    assert report_for(mixed).units[0].points == 2 * 3 * (8 + 1 + 1 - 1)


def test_general_adds_50_and_army_total_sums_units():
    report = report_for(
        unit(stands=2, command="general"),
        unit(stands=2, command="c_in_c"),
    )
    assert [u.points for u in report.units] == [24 + 50, 24 + 100]
    assert report.total_points == 198


def test_weapons_listed_twice_are_refused_naming_the_path():
    with pytest.raises(MalformedDocument) as caught:
        report_for(unit(weapons=["bow", "bow"]))
    assert caught.value.path == "units[0].weapons[1]"


def test_figures_per_stand_is_a_choice_of_3_2_1():
    field = RULESET.unit_field("figures_per_stand")
    assert field.kind == "choice"
    assert field.values == (3, 2, 1)
    assert field.default == 3
    with pytest.raises(MalformedDocument, match="is not one of 3, 2, 1"):
        report_for(unit(figures_per_stand=4))


def test_vocabulary_matches_the_digest():
    names = [f.name for f in RULESET.unit_fields]
    assert names == [
        "name", "arm", "class", "stands", "figures_per_stand", "weapons", "shield", "command",
    ]  # fmt: skip
    assert RULESET.unit_field("arm").values == ("foot", "cavalry")
    assert RULESET.unit_field("class").values == ("light", "medium", "heavy", "super_heavy")
    weapons = RULESET.unit_field("weapons")
    assert weapons.kind == "multi"
    assert weapons.values == (
        "lance", "two_handed", "pike", "spear", "mace", "cut_and_thrust", "crossbow", "sling",
        "longbow", "bow", "ss",
    )  # fmt: skip
    assert "SS (as printed)" in weapons.label_for("ss")
    assert RULESET.unit_field("shield").default is True
    assert RULESET.unit_field("command").values == ("general", "c_in_c")
    assert RULESET.unit_field("command").default is None
    stands = RULESET.unit_field("stands")
    assert (stands.minimum, stands.maximum) == (1, 12)
    assert RULESET.default_options() == {"figure_scale": "25mm"}
    assert [r.code for r in RULESET.rulings] == ["R1", "R2", "R3", "R4", "R5", "R6"]
    assert RULESET.uses_points


# -- stat line -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("klass", "move"), [("light", 4), ("medium", 3), ("heavy", 3), ("super_heavy", 2)]
)
def test_move_per_impulse_by_class_and_halved_for_15mm(klass, move):
    stats = report_for(unit(**{"class": klass})).units[0].stats
    assert stats["move"] == f'{move}" per impulse'
    assert stats["road"] == '+1" per impulse'
    small = report_for(unit(**{"class": klass}), options={"figure_scale": "15mm"}).units[0]
    assert small.stats["move"] == f'{move / 2:g}" per impulse'
    assert small.stats["road"] == '+0.5" per impulse'


def test_infantry_move_on_the_first_die_and_cavalry_on_both():
    assert report_for(unit()).units[0].stats["impulses"] == "first die (2–5)"
    assert report_for(unit(arm="cavalry")).units[0].stats["impulses"] == "both dice (4–10)"


@pytest.mark.parametrize(
    ("fields", "points"),
    [
        ({"class": "light"}, "1"),
        ({"class": "medium"}, "2"),
        ({"class": "heavy"}, "3"),
        ({"class": "super_heavy"}, "4"),
        ({"class": "heavy", "arm": "cavalry", "weapons": ["lance"]}, "4"),
        ({"class": "medium", "shield": False}, "1"),
        ({"class": "medium", "weapons": ["two_handed"]}, "3.5"),
        ({"class": "medium", "weapons": ["two_handed"], "shield": False}, "3.5"),
        ({"class": "medium", "weapons": ["pike"], "shield": False}, "2"),
        ({"class": "light", "figures_per_stand": 1}, "-1"),
        ({"class": "light", "figures_per_stand": 1, "shield": False}, "-2"),
    ],
)
def test_melee_troop_points(fields, points):
    assert report_for(unit(**fields)).units[0].stats["melee_points"] == points


@pytest.mark.parametrize(
    ("fields", "rows"),
    [
        ({"arm": "cavalry"}, "1"),
        ({"weapons": ["two_handed"]}, "1"),
        ({}, "2"),
        ({"weapons": ["cut_and_thrust"]}, "2"),
        ({"weapons": ["pike"]}, "4"),
    ],
)
def test_fighting_rows(fields, rows):
    assert report_for(unit(**fields)).units[0].stats["fighting_rows"] == rows


def test_morale_track_runs_8_7_6_5_then_destroyed_at_4_hits():
    assert report_for(unit()).units[0].stats["morale"] == (
        "8 (no hits) · 7 · 6 · 5 · destroyed at 4 hits"
    )


def test_missile_units_carry_the_shooting_formula_halved_for_horse_archers():
    foot = report_for(unit(weapons=["longbow"])).units[0].stats
    assert foot["shooting"].startswith("longbow: points x men x impulses / 10;")
    horse = report_for(unit(arm="cavalry", weapons=["bow"])).units[0].stats
    assert "/ 2 (horse archers)" in horse["shooting"]
    assert "shooting" not in report_for(unit(weapons=["spear"])).units[0].stats


# -- checks ----------------------------------------------------------------------------


def test_stands_out_of_range_is_refused_by_the_parser_naming_the_field():
    """Ruling R5: range errors are malformed documents, so they have no check code."""
    with pytest.raises(MalformedDocument, match="above the maximum 12"):
        report_for(unit(stands=13))
    with pytest.raises(MalformedDocument, match="units\\[0\\].figures_per_stand"):
        report_for(unit(figures_per_stand=4))
    documented = {c.code for c in RULESET.checks}
    assert not documented & {"stands-out-of-range", "bad-figures-per-stand"}


@pytest.mark.parametrize(
    ("arm", "weapon"), [("foot", "lance"), ("cavalry", "pike"), ("cavalry", "longbow")]
)
def test_weapon_on_the_wrong_arm_is_an_error(arm, weapon):
    report = report_for(unit(arm=arm, weapons=[weapon], command="c_in_c"))
    assert codes(report) == [("error", "weapon-wrong-arm")]
    assert report.issues[0].unit == 0
    assert weapon.replace("_", "-") in report.issues[0].message


def test_lance_on_cavalry_and_pike_or_longbow_on_foot_are_fine():
    report = report_for(
        unit(arm="cavalry", weapons=["lance"], command="c_in_c"),
        unit(weapons=["pike"]),
        unit(weapons=["longbow"]),
    )
    assert report.issues == ()


@pytest.mark.parametrize(("stands", "warned"), [(1, True), (2, False), (6, False), (7, True)])
def test_unit_size_warns_outside_two_to_six_stands(stands, warned):
    report = report_for(unit(stands=stands, command="c_in_c"))
    assert (("warning", "unit-size") in codes(report)) is warned
    assert report.valid


def test_over_points_limit_is_an_error():
    report = report_for(unit(stands=4, command="c_in_c"), points_limit=147)
    assert codes(report) == [("error", "over-points-limit")]
    assert report.issues[0].message == "Army costs 148 points; the limit is 147."
    assert report_for(unit(stands=4, command="c_in_c"), points_limit=148).valid


def test_two_c_in_cs_are_an_error_and_none_a_warning():
    two = report_for(unit(command="c_in_c"), unit(command="c_in_c"))
    assert codes(two) == [("error", "c-in-c-count")]
    none = report_for(unit(command="general"))
    assert codes(none) == [("warning", "c-in-c-count")]
    assert none.valid


def test_every_documented_check_code_is_one_the_tests_trigger():
    documented = {c.code for c in RULESET.checks}
    assert documented == {
        "weapon-wrong-arm", "unit-size",
        "over-points-limit", "c-in-c-count",
        # a player's list: tests/rules/dewitt_medieval/test_dewitt_lists.py
        "not-in-army-list", "army-list-min", "army-list-max",
    }  # fmt: skip
