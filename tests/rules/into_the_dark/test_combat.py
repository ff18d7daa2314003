"""Into the Dark at the table: dice per figures (COMBAT), to-hit numbers from Armour with
the cumulative modifiers of Missile Fire and Melee, flank, rear and impetuous dice
(Flanks & Rear), casualties, Morale Tests' results and rallies, worked by hand from the
source's text and its own example."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.combat import Combat, Rally
from rules.document import parse_document
from rules.errors import MalformedDocument
from rules.registry import get_ruleset

RULES = get_ruleset("into-the-dark").combat()


def unit(**values):
    army = parse_document({"format": "muster.army/1", "name": "A", "ruleset": "into-the-dark",
                           "units": [{"name": "U", **values}]})  # fmt: skip
    return army.units[0]


ARCHERS = unit(training="missile", missile_weapon="foot_bow", density="loose")
LEATHER_LOOSE = unit(density="loose", armour="protected")
SPEARMEN = unit(density="close", armour="armoured", figures=16)


def fight(attacker, target, phase, dice, *modifiers, figures=16, **numbers):
    combat = Combat(attacker, target, phase, frozenset(modifiers), tuple(dice), {},
                    {"figures": figures, **numbers})  # fmt: skip
    return RULES.work_out_hits(combat)


def test_sequence_of_play_rallys_initiative_movement_combat_morale():
    assert [p.key for p in RULES.phases({})] == [
        "rally", "initiative", "movement", "missile", "melee", "morale"]  # fmt: skip


def test_missile_fire_the_sources_example_16_figures_4_dice_5_or_6_to_hit():
    # "a 16 figure unit firing at close range would roll 4 dice ... at a loose order foot
    # target unit in leather armour they would need a 5 or 6"
    result = fight(ARCHERS, LEATHER_LOOSE, "missile", [4, 5, 6, 2])
    assert result.hits == 2
    assert "hits on 5+" in result.steps[2].text


def test_missile_fire_long_range_halves_the_dice_rounded_down():
    assert RULES.dice(Combat(ARCHERS, LEATHER_LOOSE, "missile", frozenset({"long_range"}), (),
                             {}, {"figures": 15})).count == 1  # fmt: skip
    with pytest.raises(MalformedDocument, match="rolls 2 D6"):
        fight(ARCHERS, LEATHER_LOOSE, "missile", [6], "long_range", figures=16)


def test_combat_a_natural_1_always_misses_and_a_6_always_hits():
    encased = unit(armour="encased")
    assert fight(ARCHERS, encased, "missile", [6, 5, 5, 5]).hits == 1  # 7+: only the 6
    unarmoured = unit(armour="unarmoured")
    # +1 shieldless: 3+ becomes 2+, but a natural 1 still misses
    assert fight(ARCHERS, unarmoured, "missile", [1, 2, 2, 2], "shieldless").hits == 3


def test_missile_modifiers_open_foot_cover_and_rear():
    open_foot = unit(density="open", armour="unarmoured")
    assert fight(ARCHERS, open_foot, "missile", [4, 4, 5, 5]).hits == 2  # 3+ -2 -> 5+
    assert fight(ARCHERS, unit(), "missile", [4, 4, 5, 5], "heavy_cover").hits == 2
    assert fight(ARCHERS, unit(), "missile", [2, 2, 2, 2], "rear").hits == 4  # 3+ +1 -> 2+
    with pytest.raises(MalformedDocument, match="only one cover"):
        fight(ARCHERS, unit(), "missile", [2, 2, 2, 2], "light_cover", "heavy_cover")


def test_bowmen_targets_are_shieldless_without_a_tick():
    assert fight(ARCHERS, ARCHERS, "missile", [3, 3, 3, 3]).hits == 4  # 4+ -1 loose +1 -> 4+


def test_ruling_c2_shieldless_and_rear_count_plus_1_once():
    result = fight(ARCHERS, unit(), "missile", [2, 2, 2, 2], "shieldless", "rear")
    assert result.hits == 4 and any("Ruling C2" in s.text for s in result.steps)


def test_melee_charging_and_polearm_add_enemy_uphill_and_obstacle_subtract():
    polearms = unit(melee_weapon="polearm")
    # armoured 5+, charging +1, polearm +1 -> 3+
    assert fight(polearms, SPEARMEN, "melee", [3, 3, 2, 2], "charging").hits == 2
    # -1 uphill -1 obstacle -> 7+: only 6s
    assert fight(unit(), SPEARMEN, "melee", [6, 5, 5, 5], "uphill", "obstacle").hits == 1


def test_melee_missile_troops_and_peasants_are_minus_1_fanatics_plus_1():
    assert fight(ARCHERS, unit(), "melee", [3, 3, 4, 4]).hits == 2  # 3+ -1 -> 4+
    assert fight(unit(quality="fanatic"), unit(), "melee", [2, 2, 2, 2]).hits == 4


def test_melee_flank_rear_and_impetuous_double_the_dice_and_are_cumulative():
    knights = unit(mounted=True, armour="mailed")
    for keys, count in (((), 4), (("flank",), 8), (("impetuous",), 8),
                        (("flank", "impetuous"), 16)):  # fmt: skip
        combat = Combat(knights, SPEARMEN, "melee", frozenset(keys), (), {}, {"figures": 16})
        assert RULES.dice(combat).count == count


def test_melee_a_shieldwall_target_is_minus_1():
    wall = unit(shieldwall=True, armour="unarmoured")
    assert fight(unit(), wall, "melee", [3, 3, 4, 4], "shieldwall").hits == 2


def test_casualties_that_reach_the_units_figures_remove_it():
    target = unit(figures=8)
    verdict = fight(unit(), target, "melee", [6, 6, 6, 6], target_casualties=4).verdict
    assert verdict.outcome == "removed"


def test_morale_tests_results_by_how_far_the_roll_is_over():
    average = unit(quality="average", figures=12)
    outcomes = [RULES.morale_test(average, d).verdict.outcome for d in (3, 4, 5, 6)]
    assert outcomes == ["passed", "shaken", "driven back", "driven back"]
    assert RULES.morale_test(unit(quality="levy"), 6).verdict.outcome == "routed"


def test_morale_modifiers_casualties_per_quarter_flanked_and_supported():
    elite = unit(quality="elite", figures=12)
    # 4 - 2 (6 of 12 lost: two quarters) - 3 flanked + 1 supported = 0: a 1 is shaken
    result = RULES.morale_test(elite, 1, casualties=6, modifiers=frozenset({"flanked",
                                                                            "supported"}))  # fmt: skip
    assert result.verdict.outcome == "shaken"


def test_rallying_a_routed_unit_passes_a_morale_test_a_unit_in_melee_may_not():
    result = RULES.rally(Rally(unit(quality="elite"), 0, frozenset({"routed"}), 3))
    assert result.steps[-1].text == "Rally: stops routing, steady and still disordered"
    blocked = RULES.rally(Rally(unit(), 0, frozenset({"in_melee"}), 1))
    assert blocked.steps[0].text == "A unit in melee may not attempt to rally"


@given(dice=st.lists(st.integers(1, 6), min_size=4, max_size=4),
       armour=st.sampled_from(["unarmoured", "protected", "armoured", "mailed", "encased"]),
       cover=st.sampled_from([(), ("light_cover",), ("heavy_cover",)]),
       rear=st.booleans())  # fmt: skip
def test_every_6_hits_every_1_misses_and_casualties_never_exceed_the_dice(
    dice, armour, cover, rear
):
    modifiers = (*cover, *(("rear",) if rear else ()))
    result = fight(ARCHERS, unit(armour=armour), "missile", dice, *modifiers)
    assert dice.count(6) <= result.hits <= 4 - dice.count(1)


def test_rallying_rolls_a_d6_but_a_unit_in_melee_attempts_none():
    assert RULES.rally_dice(Rally(unit(), 0, frozenset({"routed"}))).faces == (1, 2, 3, 4, 5, 6)
    assert RULES.rally_dice(Rally(unit(), 0, frozenset({"in_melee"}))) is None
    blocked = RULES.rally(Rally(unit(), 0, frozenset({"in_melee"})))  # no die asked for
    assert blocked.steps[0].text == "A unit in melee may not attempt to rally"


def test_no_force_morale_in_the_source():
    assert RULES.force_morale_dice({}) is None and RULES.force_morale(1, (3,)) is None
