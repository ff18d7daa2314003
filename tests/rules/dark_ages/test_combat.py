"""Both Dark Ages editions at the table: the SHOOTING and MELEE modifiers each source lists,
halved in its order and rounded up at each halving, the d5 revision's ¼ cap (Stacked
Modifiers), removal at the unit's hits, and banner and priest rallies."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.combat import Combat, Rally
from rules.document import parse_document
from rules.errors import MalformedDocument
from rules.registry import get_ruleset

Y2015, D5 = "dark-ages-2015", "dark-ages-d5"


def unit(slug, type_="infantry", **values):
    army = parse_document({"format": "muster.army/1", "name": "A", "ruleset": slug,
                           "options": {"variable_quality": True},
                           "units": [{"name": "U", "type": type_, **values}]})  # fmt: skip
    return army.units[0]


def hits(slug, attacker, target, phase, die, *modifiers, target_hits=0, **opts):
    ruleset = get_ruleset(slug)
    combat = Combat(unit(slug, *attacker), unit(slug, *target), phase, frozenset(modifiers),
                    (die,), {**ruleset.default_options(), **opts},
                    {"target_hits": target_hits})  # fmt: skip
    return ruleset.combat().work_out_hits(combat)


def bows(slug):
    return unit(slug, "skirmishers", missile="bow")


def shoot(slug, target, die, *modifiers, missile="bow", **opts):
    ruleset = get_ruleset(slug)
    shooter = unit(slug, "skirmishers", missile=missile)
    combat = Combat(shooter, unit(slug, target), "shooting", frozenset(modifiers), (die,),
                    {**ruleset.default_options(), **opts})  # fmt: skip
    return ruleset.combat().work_out_hits(combat)


def melee(slug, attacker, target, die, *modifiers, attacker_values=None, **opts):
    ruleset = get_ruleset(slug)
    combat = Combat(unit(slug, attacker, **(attacker_values or {})), unit(slug, target),
                    "melee", frozenset(modifiers), (die,),
                    {**ruleset.default_options(), **opts})  # fmt: skip
    return ruleset.combat().work_out_hits(combat)


def test_play_sequence_2015_ends_eliminating_units_d5_routs_and_rallies():
    assert [p.key for p in get_ruleset(Y2015).combat().phases({})] == [
        "movement", "shooting", "melee", "eliminating"]  # fmt: skip
    assert [p.key for p in get_ruleset(D5).combat().phases({})] == [
        "movement", "shooting", "melee", "routs_rallies"]  # fmt: skip


# -- 2015: SHOOTING ---------------------------------------------------------------------------


def test_2015_shooting_roll_1d6_subtract_2_for_bows_1_for_javelins():
    assert shoot(Y2015, "warband", 6).hits == 4
    assert shoot(Y2015, "warband", 6, missile="javelin").hits == 5


def test_2015_shooting_bows_rolling_2_make_no_hits():
    assert shoot(Y2015, "warband", 1).hits == 0


def test_2015_shooting_units_in_woods_or_villages_halve_round_up():
    assert shoot(Y2015, "skirmishers", 5, "woods").hits == 2  # 3 / 2 -> 2
    assert shoot(Y2015, "warband", 5, "village").hits == 2


def test_2015_shooting_shieldwall_halves_infantry_from_front_or_flank():
    assert shoot(Y2015, "infantry", 6).hits == 2  # 4 / 2


def test_2015_shooting_at_the_rear_doubles_and_shieldwall_does_not_halve():
    result = shoot(Y2015, "infantry", 6, "rear")
    assert result.hits == 8  # 4 x 2, no shieldwall at the rear
    assert any("not against shooting at the rear" in s.text for s in result.steps)


def test_2015_village_and_shieldwall_halve_once_each_rounding_up_each_time():
    assert shoot(Y2015, "infantry", 6, "village").hits == 1  # 4 -> 2 -> 1
    assert shoot(Y2015, "infantry", 5, "village").hits == 1  # 3 -> 2 -> 1


def test_2015_woods_are_offered_only_for_skirmishers():
    rules_ = get_ruleset(Y2015).combat()
    keys = {m.key for m in rules_.combat_modifiers(bows(Y2015), unit(Y2015, "warband"),
                                                   "shooting", {})}  # fmt: skip
    assert "woods" not in keys


def test_2015_ruling_c2_a_halving_then_a_doubling_do_not_cancel():
    # 5 - 2 = 3 on skirmishers in woods shot in the rear: 3 -> 2 -> 4 (Ruling C2)
    assert shoot(Y2015, "skirmishers", 5, "woods", "rear").hits == 4


def test_2015_moving_shots_are_javelins_only():
    ruleset = get_ruleset(Y2015)
    with pytest.raises(MalformedDocument, match="only javelins"):
        ruleset.combat().work_out_hits(Combat(bows(Y2015), unit(Y2015, "warband"), "movement",
                                              frozenset(), (4,), ruleset.default_options()))  # fmt: skip
    combat = Combat(unit(Y2015, "skirmishers", missile="javelin"), unit(Y2015, "warband"),
                    "movement", frozenset(), (4,), ruleset.default_options())  # fmt: skip
    assert ruleset.combat().work_out_hits(combat).hits == 3


def test_2015_infantry_and_warband_do_not_shoot():
    with pytest.raises(MalformedDocument, match="do not shoot"):
        hits(Y2015, ("warband",), ("infantry",), "shooting", 4)


# -- 2015: MELEE ------------------------------------------------------------------------------


def test_2015_melee_warband_plus_2():
    assert melee(Y2015, "warband", "warband", 3).hits == 5


def test_2015_melee_bow_skirmishers_minus_2_javelin_skirmishers_and_cavalry_minus_1():
    assert melee(Y2015, "skirmishers", "warband", 4, attacker_values={"missile": "bow"}).hits == 2
    javelins = {"missile": "javelin"}
    assert melee(Y2015, "skirmishers", "warband", 4, attacker_values=javelins).hits == 3
    assert melee(Y2015, "cavalry", "warband", 4).hits == 3


def test_2015_melee_terrain_woods_uphill_or_river_crossing_halve_round_up():
    assert melee(Y2015, "warband", "warband", 5, "uphill").hits == 4  # 7 -> 4
    assert melee(Y2015, "warband", "warband", 5, "river").hits == 4


def test_2015_melee_shieldwall_halves_infantry_from_any_side():
    assert melee(Y2015, "warband", "infantry", 5).hits == 4


def test_2015_melee_flank_or_rear_doubles():
    assert melee(Y2015, "infantry", "warband", 3, "flank").hits == 6
    assert melee(Y2015, "infantry", "warband", 3, "rear").hits == 6


def test_2015_melee_uphill_shieldwall_is_quartered_as_the_battle_report_says():
    # "For an Infantry Unit [using shieldwall] this means casualties against them are quartered"
    assert melee(Y2015, "warband", "infantry", 6, "uphill").hits == 2  # 8 -> 4 -> 2


def test_2015_hero_adds_1():
    hero = {"personality": "hero"}
    assert melee(Y2015, "infantry", "warband", 3, attacker_values=hero).hits == 4


def test_2015_viking_veterans_fight_as_infantry_or_warband():
    veterans = {"variant": "viking_veterans"}
    assert melee(Y2015, "infantry", "warband", 3, attacker_values=veterans).hits == 3
    as_warband = melee(Y2015, "infantry", "warband", 3, "as_warband", attacker_values=veterans)
    assert as_warband.hits == 5


def test_2015_eliminating_units_at_15_elite_18_levy_12():
    rules_ = get_ruleset(Y2015).combat()
    assert rules_.removal(unit(Y2015, "warband"), 15, {}, "melee").outcome == "removed"
    assert rules_.removal(unit(Y2015, "warband"), 14, {}, "melee").outcome == "stays"
    elite = unit(Y2015, "warband", quality="elite")
    assert rules_.removal(elite, 17, {}, "melee").outcome == "stays"
    verdict = rules_.removal(unit(Y2015, "warband", quality="levy"), 12, {}, "melee")
    assert (verdict.outcome, verdict.section) == ("removed", "ELIMINATING UNITS")


# -- d5: SHOOTING and MELEE -------------------------------------------------------------------


def test_d5_shooting_roll_1d5_bows_minus_2():
    assert shoot(D5, "warriors", 5).hits == 3
    with pytest.raises(MalformedDocument, match="not a face of the D5"):
        shoot(D5, "warriors", 1)


def test_d5_shooting_terrain_woods_villages_or_walls_halve():
    assert shoot(D5, "warriors", 5, "walls").hits == 2
    assert shoot(D5, "raiders", 5, "woods").hits == 2


def test_d5_melee_warriors_plus_1_javelins_minus_1_bow_skirmishers_minus_2():
    assert melee(D5, "warriors", "raiders", 4).hits == 5
    assert melee(D5, "cavalry", "raiders", 4, attacker_values={"missile": "javelin"}).hits == 3
    assert melee(D5, "cavalry", "raiders", 4).hits == 4
    assert melee(D5, "skirmishers", "raiders", 4, attacker_values={"missile": "bow"}).hits == 2


def test_d5_melee_terrain_river_bank_gully_wall_uphill():
    for key in ("uphill", "river_bank", "gully", "wall"):
        assert melee(D5, "warriors", "raiders", 4, key).hits == 3  # 5 -> 3


def test_d5_household_and_levy_change_the_attack():
    assert melee(D5, "infantry", "raiders", 4, attacker_values={"change": "household"}).hits == 5
    assert melee(D5, "infantry", "raiders", 4, attacker_values={"change": "levy"}).hits == 3


def test_d5_uphill_shieldwall_flanked_is_a_quarter_then_doubled():
    # warriors 5 + 1 = 6 -> 3 -> 2, doubled on the flank: 4
    assert melee(D5, "warriors", "infantry", 5, "uphill", "flank").hits == 4


def test_d5_on_a_d6_the_game_rolls_1_to_6():
    assert melee(D5, "infantry", "raiders", 6, dice="d6").hits == 6


def test_d5_routs_at_15_determined_18_reluctant_12():
    rules_ = get_ruleset(D5).combat()
    assert rules_.removal(unit(D5, "raiders"), 15, {}, "melee").when == "4) Routs and Rallies"
    assert rules_.removal(unit(D5, "raiders", change="determined"), 17, {}, "").outcome == "stays"
    assert rules_.removal(unit(D5, "raiders", change="reluctant"), 12, {}, "").outcome == (
        "removed"
    )


# -- rallies ----------------------------------------------------------------------------------


def rally(slug, hits_now, die, *facts, rally_variation=False, **values):
    return get_ruleset(slug).combat().rally(
        Rally(unit(slug, "infantry", **values), hits_now, frozenset(facts), die,
              {"rally_variation": rally_variation}))  # fmt: skip


def test_banner_rallies_half_a_die_rounded_up_priest_one_more():
    assert rally(D5, 8, 5, personality="hero", banner=True).total == 5  # 8 - 3
    assert rally(D5, 8, 5, personality="priest").total == 4  # 8 - (3 + 1)
    assert rally(Y2015, 8, 1, personality="leader", banner=True).total == 7


def test_a_rally_die_is_a_face_of_the_games_die():
    with pytest.raises(MalformedDocument, match="7 is not a face of the D6"):
        rally(D5, 8, 7, personality="hero", banner=True)


def test_banner_does_not_rally_a_unit_in_melee_or_that_moved_or_shot():
    assert rally(D5, 8, 5, "moved", personality="hero", banner=True).total == 8


def test_d5_rally_variation_five_hits_are_permanent():
    assert rally(D5, 6, 5, personality="priest", rally_variation=True).total == 5
    assert rally(D5, 6, 5, personality="priest").total == 2


# -- properties -------------------------------------------------------------------------------


@given(
    slug=st.sampled_from([Y2015, D5]),
    die=st.integers(1, 6),
    attacker=st.sampled_from(["infantry", "cavalry"]),
    terrain=st.sampled_from([None, "uphill", "woods"]),
    facing=st.sampled_from([None, "flank", "rear"]),
)
def test_shieldwall_and_terrain_halve_once_each_rounded_up_then_double(
    slug, die, attacker, terrain, facing
):
    dice = "d6"
    target = "infantry"
    if terrain == "woods":
        terrain = None  # infantry do not enter woods
    modifiers = [m for m in (terrain, facing) if m]
    result = melee(slug, attacker, target, die, *modifiers, dice=dice)
    base = max(0, die + {"cavalry": -1 if slug == Y2015 else 0}.get(attacker, 0))
    expected = base
    for _ in range((terrain is not None) + 1):  # terrain, then shieldwall: each once
        expected = math.ceil(expected / 2)
    assert result.hits == expected * (2 if facing else 1)


@given(die=st.sampled_from([2, 3, 4, 5]), attacker=st.sampled_from(["warriors", "infantry"]),
       terrain=st.sampled_from(["uphill", "wall", "village", "gully"]))  # fmt: skip
def test_d5_never_better_than_a_quarter(die, attacker, terrain):
    result = melee(D5, attacker, "infantry", die, terrain)
    base = die + (1 if attacker == "warriors" else 0)
    assert result.hits * 4 >= base


# -- FORCE MORALE (optional rules) ------------------------------------------------------------


def test_force_morale_roll_higher_than_the_units_lost_equal_routs():
    for slug in (Y2015, D5):
        rules_ = get_ruleset(slug).combat()
        assert rules_.force_morale(3, (4,)).outcome == "fights on"
        assert rules_.force_morale(3, (3,)).outcome == "routs"
        assert rules_.force_morale(3, (2, 5)).outcome == "fights on"


def test_force_morale_small_armies_2015_d3_or_d3_plus_1_d5_halved():
    y2015, d5 = get_ruleset(Y2015).combat(), get_ruleset(D5).combat()
    assert y2015.force_morale(2, (5,), units=3).outcome == "fights on"  # d3: 3 > 2
    assert y2015.force_morale(3, (5,), units=3).outcome == "routs"
    assert y2015.force_morale(3, (5,), units=4).outcome == "fights on"  # d3+1: 4 > 3
    assert d5.force_morale(2, (5,), units=4).outcome == "fights on"  # 5 / 2 -> 3 > 2
    assert d5.force_morale(2, (3,), units=4).outcome == "routs"  # 3 / 2 -> 2


# -- which rallies roll a die (PERSONALITIES) -------------------------------------------------


def rally_die(slug, *facts, **values):
    ruleset = get_ruleset(slug)
    return ruleset.combat().rally_dice(Rally(unit(slug, "infantry", **values), 0,
                                             frozenset(facts), None, ruleset.default_options()))  # fmt: skip


def test_a_banner_or_a_priest_rolls_the_games_die_a_plain_unit_none():
    assert rally_die(D5) is None
    assert rally_die(D5, personality="hero", banner=True).faces == (2, 3, 3, 4, 4, 5)
    assert rally_die(Y2015, personality="priest").faces == (1, 2, 3, 4, 5, 6)
    assert rally_die(D5, "moved", personality="hero", banner=True) is None
    assert rally_die(D5, "in_melee", personality="priest").label == "D5"  # the priest still does


def test_force_morale_dice_two_d5_in_d5_up_to_3d6_in_2015_and_the_plus_1():
    d5, y2015 = get_ruleset(D5).combat(), get_ruleset(Y2015).combat()
    spec = d5.force_morale_dice(get_ruleset(D5).default_options())
    assert (spec.label, spec.count) == ("D5", 2)  # "TWO d5 ... EITHER"
    spec = y2015.force_morale_dice(get_ruleset(Y2015).default_options())
    assert (spec.label, spec.count) == ("D6", 3)  # "or even 3d6 for desperate or stubborn"
    assert y2015.force_morale_bonuses({})[0][1] == "+1 if your opponent has lots more Units"
    # FORCE MORALE: "higher than": a 3 against 3 lost routs, a +1 makes it 4: fights on
    assert d5.force_morale(3, (3,)).outcome == "routs"
    assert d5.force_morale(3, (3,), bonus=1).outcome == "fights on"
