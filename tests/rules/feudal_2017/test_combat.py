"""Feudal 2017 at the table: every modifier 1.2 and 3.2 list, their stacking (1.2e, 3.2e),
rounding (1.2f, 3.2f), removals (1.5, 3.4) and rallies (4.1), each case worked by hand
from the source's text."""

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.combat import Combat, Rally
from rules.document import parse_document
from rules.errors import MalformedDocument
from rules.registry import get_ruleset

RULESET = get_ruleset("feudal-2017")
RULES = RULESET.combat()


def unit(type_="knights", **values):
    army = parse_document({"format": "muster.army/1", "name": "A", "ruleset": "feudal-2017",
                           "units": [{"name": "U", "type": type_, **values}]})  # fmt: skip
    return army.units[0]


def options(**values):
    return {**RULESET.default_options(), **values}


def hits(attacker, target, phase, die, *modifiers, target_hits=0, **opts):
    combat = Combat(attacker, target, phase, frozenset(modifiers), (die,), options(**opts),
                    {"target_hits": target_hits})  # fmt: skip
    return RULES.work_out_hits(combat)


def test_phases_are_shoot_move_melee_rally_in_the_play_sequences_order():
    assert [p.key for p in RULES.phases(options())] == ["shoot", "move", "melee", "rally"]


# -- 1.2 Resolving Shooting -----------------------------------------------------------------


def test_1_2_bowmen_shoot_the_die_as_hits():
    assert hits(unit("bowmen"), unit("knights"), "shoot", 4).hits == 4


def test_1_2a_brigans_shooting_are_minus_2_in_phase_2():
    assert hits(unit("brigans"), unit("knights"), "move", 5).hits == 3


def test_1_2a_brigans_rolling_1_make_no_hits_never_fewer_than_0():
    result = hits(unit("brigans"), unit("knights"), "move", 1)
    assert result.hits == 0
    assert "Ruling C1" in result.steps[0].text


def test_1_2b_terrain_woods_halves_and_rounds_up():
    # 5 / 2 = 2 1/2, rounded up to 3 (1.2f)
    assert hits(unit("bowmen"), unit("brigans"), "shoot", 5, "woods").hits == 3


def test_1_2b_camp_village_or_walls_halves():
    assert hits(unit("bowmen"), unit("knights"), "shoot", 6, "camp_village_walls").hits == 3


def test_1_2c_armoured_serjeants_halve_hits_from_shooting_without_being_ticked():
    result = hits(unit("bowmen"), unit("serjeants"), "shoot", 3)
    assert result.hits == 2  # 3/2 rounded up
    assert any("Armoured serjeants" in s.text for s in result.steps)


def test_1_2d_shooting_into_the_rear_arc_doubles():
    assert hits(unit("bowmen"), unit("knights"), "shoot", 3, "rear").hits == 6


def test_1_2e_terrain_and_armour_stack_to_a_quarter_rounded_up_once():
    # 6 x 1/2 x 1/2 = 1 1/2, rounded up (1.2f) to 2; 3 x 1/4 = 3/4 -> 1
    assert hits(unit("bowmen"), unit("serjeants"), "shoot", 6, "camp_village_walls").hits == 2
    assert hits(unit("bowmen"), unit("serjeants"), "shoot", 3, "camp_village_walls").hits == 1


def test_1_2e_one_halving_and_one_doubling_cancel_out():
    # serjeants shot in the rear: armour halves, rear doubles: 5 hits as rolled
    assert hits(unit("bowmen"), unit("serjeants"), "shoot", 5, "rear").hits == 5


def test_1_2e_two_halvings_and_a_doubling_leave_one_halving():
    result = hits(unit("bowmen"), unit("serjeants"), "shoot", 5, "camp_village_walls", "rear")
    # 5 x 1/2 = 2 1/2 -> 3, rounded once at the end; halving step by step, rounding each
    # time, and then doubling would give 3 -> 2 -> 4
    assert result.hits == 3


def test_1_2_mercenary_crossbows_shoot_at_dx_plus_1():
    crossbows = unit("bowmen", mercenary_crossbows=True)
    assert hits(crossbows, unit("knights"), "shoot", 4).hits == 5


def test_1_1_phase_1_is_for_bowmen_and_phase_2_for_brigans():
    with pytest.raises(MalformedDocument, match="Phase 2 only brigans"):
        hits(unit("bowmen"), unit("knights"), "move", 4)
    with pytest.raises(MalformedDocument, match="Phase 1 only bowmen"):
        hits(unit("brigans"), unit("knights"), "shoot", 4)
    with pytest.raises(MalformedDocument, match="knights do not shoot|Knights do not shoot"):
        hits(unit("knights"), unit("bowmen"), "shoot", 4)


def test_scots_schiltrons_do_not_halve_hits_from_shooting():
    target = unit("serjeants")
    combat = Combat(unit("bowmen"), target, "shoot", frozenset(), (5,), options(), {},
                    {"schiltrons": True})  # fmt: skip
    assert RULES.work_out_hits(combat).hits == 5
    melee = Combat(unit("knights"), target, "melee", frozenset(), (2,), options(), {},
                   {"schiltrons": True})  # fmt: skip
    assert RULES.work_out_hits(melee).hits == 2  # (2 + 2) / 2: mêlée hits still halved


# -- 3.2 Resolving Mêlée --------------------------------------------------------------------


def test_3_2a_knights_are_plus_2():
    assert hits(unit("knights"), unit("freemen"), "melee", 3).hits == 5


@pytest.mark.parametrize("kind", ["brigans", "bowmen"])
def test_3_2a_brigans_and_bowmen_are_minus_2(kind):
    assert hits(unit(kind), unit("freemen"), "melee", 5).hits == 3


def test_3_2b_uphill_or_defending_a_wall_halves():
    assert hits(unit("knights"), unit("freemen"), "melee", 5, "uphill_or_obstacle").hits == 4


def test_3_2b_i_woods_halve_only_for_units_that_may_be_in_woods():
    assert hits(unit("knights"), unit("brigans"), "melee", 1, "woods_charged").hits == 2
    offered = RULES.combat_modifiers(unit("knights"), unit("freemen"), "melee", options())
    assert "woods_charged" not in {m.key for m in offered}
    woods_freemen = unit("freemen", advantage="woods")
    offered = RULES.combat_modifiers(unit("knights"), woods_freemen, "melee", options())
    assert "woods_charged" in {m.key for m in offered}


def test_3_2b_only_one_terrain_halving():
    with pytest.raises(MalformedDocument, match="only one terrain"):
        hits(unit("knights"), unit("brigans"), "melee", 4, "woods_charged", "uphill_or_obstacle")


def test_3_2c_armoured_serjeants_halve():
    assert hits(unit("knights"), unit("serjeants"), "melee", 4).hits == 3


def test_3_2d_flank_or_rear_doubles():
    assert hits(unit("freemen"), unit("knights"), "melee", 4, "flank").hits == 8
    assert hits(unit("freemen"), unit("knights"), "melee", 4, "rear").hits == 8


def test_3_2e_uphill_serjeants_are_quartered_and_rounded_up_even_quarters():
    # knights 5 + 2 = 7; uphill and armoured: 7/4 = 1 3/4 -> 2 ("even quarters", 3.2f)
    result = hits(unit("knights"), unit("serjeants"), "melee", 5, "uphill_or_obstacle")
    assert result.hits == 2
    assert result.steps[-1].text == "1 3/4 rounded up: 2 hits"


def test_3_2e_flanked_uphill_serjeants_take_half():
    # 7 x 1/2 x 1/2 x 2 = 3 1/2 -> 4
    result = hits(unit("knights"), unit("serjeants"), "melee", 5, "uphill_or_obstacle", "flank")
    assert result.hits == 4


def test_knight_errant_adds_a_hit_in_melee_only():
    errant = unit("knights", personality="knight_errant")
    assert hits(errant, unit("freemen"), "melee", 3).hits == 6


def test_tired_units_take_1_off_past_ten_hits():
    combat = Combat(unit("knights"), unit("freemen"), "melee", frozenset(), (3,),
                    options(tired_units=True), {"attacker_hits": 11})  # fmt: skip
    assert RULES.work_out_hits(combat).hits == 4


def test_0_2_the_d5_has_no_1_or_6():
    with pytest.raises(MalformedDocument, match="not a face of the D5"):
        hits(unit("knights"), unit("freemen"), "melee", 6, dice="d5")
    assert hits(unit("knights"), unit("freemen"), "melee", 5, dice="d5").hits == 7


def test_trained_units_untrained_roll_a_d6():
    combat = Combat(unit("knights"), unit("freemen"), "melee", frozenset(), (6,),
                    options(dice="d5", trained_units=True))  # fmt: skip
    assert RULES.work_out_hits(combat).hits == 8


def test_every_step_cites_a_section_of_the_source():
    result = hits(unit("knights"), unit("serjeants"), "melee", 5, "uphill_or_obstacle", "flank")
    assert {s.section for s in result.steps} == {"3.2 Resolving Mêlée"}
    assert result.verdict.section == "3) MÊLÉE"


# -- 1.5 and 3.4: removals ------------------------------------------------------------------


def test_3_4_melee_removes_at_once_at_15_hits():
    verdict = hits(unit("knights"), unit("freemen"), "melee", 3, target_hits=10).verdict
    assert (verdict.outcome, verdict.when) == ("removed", "now")


def test_1_5_bowmens_hits_remove_at_the_end_of_phase_1_brigans_at_the_end_of_phase_2():
    bowmen = hits(unit("bowmen"), unit("knights"), "shoot", 2, target_hits=13).verdict
    assert (bowmen.outcome, bowmen.when) == ("removed", "end of Phase 1")
    brigans = hits(unit("brigans"), unit("knights"), "move", 4, target_hits=13).verdict
    assert (brigans.outcome, brigans.when) == ("removed", "end of Phase 2")


def test_14_hits_stay_determined_units_take_18_unenthusiastic_12():
    assert RULES.removal(unit("knights"), 14, options(), "melee").outcome == "stays"
    determined = unit("knights", advantage="determined", disadvantage="melee_minus")
    assert RULES.removal(determined, 17, options(), "melee").outcome == "stays"
    assert RULES.removal(determined, 18, options(), "melee").outcome == "removed"
    weak = unit("freemen", advantage="melee_plus", disadvantage="unenthusiastic")
    assert RULES.removal(weak, 12, options(), "melee").outcome == "removed"


def test_6_hit_variant_removes_above_6_and_rolls_attack_dice():
    assert RULES.removal(unit("knights"), 6, options(six_hit_variant=True), "melee").outcome == (
        "stays"
    )
    assert RULES.removal(unit("knights"), 7, options(six_hit_variant=True), "melee").outcome == (
        "removed"
    )
    # knights Dx+2: three attack dice hitting on 3+
    combat = Combat(unit("knights"), unit("freemen"), "melee", frozenset(), (1, 3, 6),
                    options(six_hit_variant=True))  # fmt: skip
    assert RULES.work_out_hits(combat).hits == 2


# -- 4.1 Rallying ---------------------------------------------------------------------------


def rally(hits_now, *facts, die=None, **values):
    return RULES.rally(Rally(unit("knights", **values), hits_now, frozenset(facts), die,
                             options()))  # fmt: skip


def test_4_1a_b_a_unit_that_did_nothing_and_was_not_attacked_rallies_2():
    assert rally(4).total == 2


def test_4_1b_an_attacked_marker_allows_only_1():
    assert rally(4, "attacked").total == 3


def test_4_1a_a_unit_that_shot_moved_or_fought_does_not_rally():
    assert rally(4, "moved").total == 4


def test_4_1c_five_hits_are_permanent():
    assert rally(6).total == 5
    assert rally(5).total == 5


def test_constable_rallies_after_moving_and_banner_despite_the_marker():
    assert rally(4, "moved", personality="constable").total == 2
    assert rally(4, "attacked", personality="constable", banner=True).total == 2


# -- properties: 1.2e-f and 3.2e-f for random combinations -----------------------------------

MELEE_TARGETS = ["knights", "serjeants", "freemen", "bowmen", "brigans"]


@given(
    die=st.integers(1, 6),
    attacker=st.sampled_from(["knights", "serjeants", "freemen", "bowmen", "brigans"]),
    target=st.sampled_from(MELEE_TARGETS),
    terrain=st.sampled_from([None, "uphill_or_obstacle", "woods_charged"]),
    facing=st.sampled_from([None, "flank", "rear"]),
)
def test_melee_hits_are_never_below_a_quarter_of_the_roll_and_rounded_up_once(
    die, attacker, target, terrain, facing
):
    target_unit = unit(target)
    if terrain == "woods_charged" and target != "brigans":
        terrain = None
    modifiers = [m for m in (terrain, facing) if m]
    result = hits(unit(attacker), target_unit, "melee", die, *modifiers)
    base = max(0, die + {"knights": 2, "bowmen": -2, "brigans": -2}.get(attacker, 0))
    halvings = (terrain is not None) + (target == "serjeants")
    doublings = facing is not None
    assert result.hits >= Fraction(base, 4)
    assert result.hits == math.ceil(base * Fraction(2) ** (doublings - halvings))


@given(die=st.integers(1, 6), terrain=st.booleans())
def test_one_halving_and_one_doubling_cancel_for_any_roll(die, terrain):
    plain = hits(unit("bowmen"), unit("knights"), "shoot", die, *(["camp_village_walls"] * terrain))
    # serjeants (armour halves) shot in the rear (doubles) take what knights take
    cancelled = hits(unit("bowmen"), unit("serjeants"), "shoot", die, "rear",
                     *(["camp_village_walls"] * terrain))  # fmt: skip
    assert cancelled.hits == plain.hits


@given(die=st.integers(1, 6), hits_now=st.integers(0, 14), facts=st.sets(
    st.sampled_from(["shot", "moved", "fought", "attacked"])))  # fmt: skip
def test_a_rally_never_takes_a_unit_with_5_or_more_hits_below_5(die, hits_now, facts):
    after = rally(hits_now, *facts).total
    assert after <= hits_now
    assert hits_now - after <= 2
    if hits_now >= 5:
        assert after >= 5


# -- Force Morale (optional rules) ------------------------------------------------------------


def test_force_morale_roll_equal_or_higher_than_the_units_lost_to_keep_fighting():
    assert RULES.force_morale(3, (3,)).outcome == "fights on"
    assert RULES.force_morale(3, (2,)).outcome == "routs"
    assert RULES.force_morale(3, (2, 4)).outcome == "fights on"  # two Dx: either (Ruling C7)


def test_force_morale_three_or_four_units_roll_a_dx_halved_rounded_up_and_plus_1s_add():
    assert RULES.force_morale(2, (3,), units=4).outcome == "fights on"  # 3 / 2 -> 2
    assert RULES.force_morale(2, (2,), units=3).outcome == "routs"  # 2 / 2 -> 1
    assert RULES.force_morale(4, (3,), bonus=1).outcome == "fights on"


def test_personalities_a_christian_priest_rallies_dx_bonus_hits_under_the_rally_rules():
    # 4.1a: 1, and the priest's roll of 3 in place of 4.1b's 1 (Ruling C8); 4.1c holds
    assert rally(9, "priest", die=3).total == 5
    assert rally(12, "priest", die=3).total == 8
    assert rally(12, "priest", "attacked", die=3).total == 11
    assert rally(9, "priest", "moved", die=3).total == 9  # "the Unit must obey the Rally rules"
    with pytest.raises(MalformedDocument, match="a Christian priest rallies his Dx"):
        rally(9, "priest")  # never worked out as if he were not there
    with pytest.raises(MalformedDocument, match="7 is not a face of the D6"):
        rally(9, "priest", die=7)
    assert rally(9, "priest", "attacked").total == 8  # no bonus: his die is not read


def test_6_hit_variant_rally_a_hit_on_3_up_none_with_a_marker_never_below_2_above_2():
    six = options(six_hit_variant=True)

    def six_rally(hits_now, die, *facts):
        return RULES.rally(Rally(unit("knights"), hits_now, frozenset(facts), die, six)).total

    assert six_rally(2, 3) == 1
    assert six_rally(2, 2) == 2
    assert six_rally(3, 6) == 2  # more than 2 hits: not below 2
    assert six_rally(3, 6, "attacked") == 3


def test_a_request_reads_the_target_under_its_list_scots_serjeants_are_schiltrons():
    from rules.combat_request import work_out
    from rules.rulesets.feudal_2017.troops import DEFAULT_LIST

    scots = {**DEFAULT_LIST, "schiltrons": True}
    raw = {"ruleset": "feudal-2017", "phase": "shoot", "attacker": {"type": "bowmen"},
           "target": {"type": "serjeants"}, "die": 5}  # fmt: skip
    assert work_out(raw)[1].hits == 3
    assert work_out({**raw, "target_list": scots})[1].hits == 5


# -- which rallies roll a die (the game rolls it when the player leaves it empty) ------------


def rally_die(*facts, six=False, dice="d6", **values):
    opts = options(six_hit_variant=six, dice=dice)
    return RULES.rally_dice(Rally(unit("knights", **values), 0, frozenset(facts), None, opts))


def test_4_1_a_plain_rally_rolls_nothing_a_christian_priest_his_dx_ruling_c8():
    assert rally_die() is None
    assert rally_die("priest").faces == (1, 2, 3, 4, 5, 6)
    assert rally_die("priest", dice="d5").faces == (2, 3, 3, 4, 4, 5)  # 0.2
    assert rally_die("priest", "attacked") is None  # his bonus is 4.1b's (Ruling C8)
    assert rally_die("priest", "moved") is None  # 4.1a: no rally at all
    assert rally_die("priest", "moved", personality="constable").label == "D6"


def test_6_hit_variant_rally_rolls_1dx_unless_it_acted_or_has_a_marker():
    assert rally_die(six=True).label == "D6"
    assert rally_die("fought", six=True) is None
    assert rally_die("attacked", six=True) is None
    assert rally_die("attacked", six=True, banner=True).label == "D6"  # PERSONALITIES


def test_6_hit_variant_rally_refuses_a_die_that_is_not_a_face():
    six = options(six_hit_variant=True, dice="d5")
    with pytest.raises(MalformedDocument, match="1 is not a face of the D5"):
        RULES.rally(Rally(unit("knights"), 2, frozenset(), 1, six))


def test_force_morale_rolls_a_dx_or_two_and_offers_the_sources_plus_1s():
    spec = RULES.force_morale_dice(options())
    assert (spec.faces, spec.count) == ((1, 2, 3, 4, 5, 6), 2)  # "TWO Dx ... EITHER"
    assert RULES.force_morale_dice(options(dice="d5")).faces == (2, 3, 3, 4, 4, 5)  # 0.2
    assert [k for k, _ in RULES.force_morale_bonuses(options())] == [
        "opponent_lost_more",
        "personality",
    ]
    # six units, two lost: a roll of 1 and 2 keeps fighting on the 2 (equal, Ruling C7)
    assert RULES.force_morale(2, (1, 2)).outcome == "fights on"
    # both +1s: a roll of 2 against 4 lost is 4, equal: fights on
    verdict = RULES.force_morale(4, (2,), bonus=2)
    assert (verdict.outcome, verdict.section) == ("fights on", "Force Morale")
