"""Dewitt at the table: shooting points and impacts (Movement), one stand's melee strength
(Melee, TROOP POINTS, MODIFICATIONS), morale tests and rallies (Morale), hand-worked from
the source's text."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.combat import Combat, Rally
from rules.document import parse_document
from rules.errors import MalformedDocument
from rules.registry import get_ruleset

RULES = get_ruleset("dewitt-medieval").combat()


def unit(**values):
    army = parse_document({"format": "muster.army/1", "name": "A", "ruleset": "dewitt-medieval",
                           "units": [{"name": "U", **values}]})  # fmt: skip
    return army.units[0]


ARCHERS = unit(arm="foot", **{"class": "light"}, weapons=["longbow"])
HORSE_ARCHERS = unit(arm="cavalry", **{"class": "light"}, weapons=["bow"])
KNIGHTS = unit(arm="cavalry", **{"class": "heavy"}, weapons=["lance"])
SPEARMEN = unit(arm="foot", **{"class": "medium"}, weapons=["spear"])


def shoot(attacker, die, *modifiers, table=3, men=12, impulses=2, phase="move"):
    combat = Combat(attacker, KNIGHTS, phase, frozenset(modifiers), (die,), {},
                    {"table": table, "men": men, "impulses": impulses})  # fmt: skip
    return RULES.work_out_hits(combat)


def test_order_of_play_has_its_eight_steps():
    assert len(RULES.phases({})) == 8
    assert {p.section for p in RULES.phases({})} == {"ORDER OF PLAY"}


def test_movement_shooting_points_table_x_men_x_impulses_over_10_impact_on_equal_or_less():
    # 3 x 12 x 2 / 10 = 7 1/5: a 7 is an impact, an 8 is not
    assert shoot(ARCHERS, 7).hits == 1
    assert shoot(ARCHERS, 8).hits == 0
    assert shoot(ARCHERS, 7).verdict.outcome == "test"


def test_movement_long_range_or_indirect_counts_half_the_firing_men():
    # 3 x 6 x 2 / 10 = 3 3/5
    assert shoot(ARCHERS, 3, "long_range_or_indirect").hits == 1
    assert shoot(ARCHERS, 4, "long_range_or_indirect").hits == 0


def test_movement_horse_archers_divide_the_total_by_2_without_being_ticked():
    # 7 1/5 / 2 = 3 3/5
    assert shoot(HORSE_ARCHERS, 3).hits == 1
    assert shoot(HORSE_ARCHERS, 4).hits == 0


def test_shooting_needs_the_tables_value_and_a_missile():
    with pytest.raises(MalformedDocument, match="numbers.table"):
        RULES.work_out_hits(Combat(ARCHERS, KNIGHTS, "move", frozenset(), (3,), {},
                                   {"men": 12, "impulses": 2}))  # fmt: skip
    with pytest.raises(MalformedDocument, match="no crossbow, sling, bow"):
        shoot(KNIGHTS, 3)


def melee(attacker, target, rolls, *modifiers, **numbers):
    combat = Combat(attacker, target, "melee", frozenset(modifiers), rolls, {}, numbers)
    return RULES.work_out_hits(combat)


def test_melee_strength_is_morale_plus_troop_points_plus_roll():
    # knights 8 + 3 heavy + 1 lance + 1 charge + 4 = 17; spearmen 8 + 2 + 6 - 2 moving = 14
    result = melee(KNIGHTS, SPEARMEN, (4, 6), "attacker_charge", "target_moving_hit_by_cavalry")
    assert result.steps[0].text.endswith("= 17")
    assert result.steps[1].text.endswith("= 14")
    assert result.verdict.outcome == "target stand loses"


def test_modifications_spear_vs_lights_or_medium_and_pike_vs_cavalry_apply_themselves():
    light = unit(arm="foot", **{"class": "light"})
    # spearmen 8 + 2 + 1 spear + 0 = 11 against lights 8 + 1 + 2 = 11: a tie, rolled again
    result = melee(SPEARMEN, light, (0, 2))
    assert result.steps[0].text.endswith("= 11") and result.verdict.outcome == "tie"
    pikes = unit(arm="foot", **{"class": "medium"}, weapons=["pike"])
    assert melee(pikes, KNIGHTS, (0, 0)).steps[0].text.endswith("= 12")  # 8 + 2 + 2 pike


def test_melee_a_unit_that_lost_a_melee_this_turn_counts_half_its_morale():
    result = melee(SPEARMEN, SPEARMEN, (5, 5), "attacker_lost_melee", attacker_hits=2)
    assert result.steps[0].text.startswith("Attacker: morale 3 (half")  # 6 / 2


def test_melee_units_hit_in_rear_do_not_fight_back():
    assert melee(SPEARMEN, KNIGHTS, (0, 10), "rear").verdict.outcome == "target stand loses"


def test_melee_rolls_0_to_10_as_printed():
    with pytest.raises(MalformedDocument, match="not a face"):
        melee(SPEARMEN, KNIGHTS, (11, 0))


def test_morale_roll_higher_than_morale_to_fail_and_a_failure_is_a_hit():
    assert RULES.morale_test(0, 8).hits == 0  # 8: not higher than 8
    failed = RULES.morale_test(0, 9)
    assert (failed.hits, failed.total) == (1, 1)


def test_morale_modifiers_impacts_won_melee_seen_and_burst_through():
    # 7 (1 hit) - 2 impacts + 2 won - 1 seen - 1 burst = 5
    result = RULES.morale_test(1, 6, impacts=2, won_melee=True, seen=1, burst=True)
    assert result.steps[0].text.endswith("= 5") and result.hits == 1


def test_four_hits_destroy_the_unit():
    assert RULES.morale_test(3, 10).verdict.outcome == "removed"
    assert RULES.removal(KNIGHTS, 3, {}, "melee").text == "3 hits: morale 5"


def test_rally_a_routing_unit_counts_as_seeing_itself_rout():
    # 8 - 1 (itself) = 7: a 7 rallies, an 8 routs on
    assert RULES.rally(Rally(KNIGHTS, 0, frozenset(), 7)).steps[-1].text.startswith("Rallied")
    assert RULES.rally(Rally(KNIGHTS, 0, frozenset(), 8)).steps[-1].text == "Fails: routs on"


@given(die=st.integers(1, 10), hits=st.integers(0, 3), impacts=st.integers(0, 5))
def test_a_morale_test_fails_exactly_when_the_roll_is_higher_than_the_modified_morale(
    die, hits, impacts
):
    result = RULES.morale_test(hits, die, impacts=impacts)
    assert result.hits == (die > [8, 7, 6, 5][hits] - impacts)
    assert result.total == hits + result.hits


def test_a_rally_is_a_morale_test_on_the_1_to_10_die():
    spec = RULES.rally_dice(Rally(KNIGHTS, 0, frozenset({"saw_rout_1"})))
    assert spec is not None and spec.faces == tuple(range(1, 11))


def test_no_force_morale_in_the_source():
    assert RULES.force_morale_dice({}) is None and RULES.force_morale(1, (3,)) is None
