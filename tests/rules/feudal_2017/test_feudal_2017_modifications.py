"""Feudal 2017: the amended rulings and the modifications, each from the source's
own words (seeds/003, "Advantages and Disadvantages", "Missile Supply Variants",
"Initiative", "Feudal Force Matrix")."""

from rules import check_document
from tests.rules.feudal_2017.test_feudal_2017 import codes, report_for, with_changes
from tests.support import army, fixture_lists


def bretons(**by_index):
    """A legal Bretons force, matrix row 4: four cavalry, brigans, knights."""
    units = [
        {"name": "Breton horse 1", "type": "cavalry"},
        {"name": "Breton horse 2", "type": "cavalry"},
        {"name": "Breton horse 3", "type": "cavalry"},
        {"name": "Breton horse 4", "type": "cavalry"},
        {"name": "Foragers", "type": "brigans"},
        {"name": "Ducal knights", "type": "knights"},
    ]
    for key, fields in by_index.items():
        units[int(key[1:])].update(fields)
    lists = fixture_lists("feudal-2017")
    return check_document(army("feudal-2017", units, army_list="bretons"), lambda _: lists)[1]


# -- the amended rulings -------------------------------------------------------------------


def test_an_unpaid_mercenary_crossbow_unit_may_shoot_dx_plus_1_but_have_only_12_hits():
    """Source example: "an unpaid mercenary crossbow unit may shoot Dx+1 but have only 12
    Hits" (shoot +1 and unenthusiastic on one unit)."""
    report = report_for(
        with_changes(u4={"advantage": "shoot_plus", "disadvantage": "unenthusiastic"})
    )
    assert report.valid, report.issues
    stats = report.units[4].stats
    assert "d6+1" in stats["shooting"]
    assert stats["hits"] == "12 (removed at 12)"


def test_a_german_knight_unit_may_melee_dx_plus_1_but_have_18_hits():
    """Source example: "A German Knight Unit may Melee Dx+1 but have 18 Hits due to their
    slower, denser charge method" (knights +2, mêlée -1, determined)."""
    report = report_for(with_changes(u1={"advantage": "determined", "disadvantage": "melee_minus"}))
    assert report.valid, report.issues
    assert report.units[1].stats["melee"] == "d6+1"
    assert report.units[1].stats["hits"] == "18 (removed at 18)"


def test_an_advantage_on_top_of_mercenary_crossbows_is_one_modification_too_many():
    """ "No Unit should ... have more than one advantage and/or disadvantage used upon it":
    the crossbow arrangement is the unit's change already."""
    report = report_for(
        with_changes(
            u4={"mercenary_crossbows": True, "advantage": "shoot_plus"},
            u1={"balance": "mounted_serjeants"},
            u5={"disadvantage": "unenthusiastic"},
        )
    )
    assert codes(report) == ["one-modification-per-unit"]
    assert report.issues[0].unit == 4


def test_try_a_horse_master_personality_with_the_bretons_cavalry():
    """Source, Bretons: "Cavalry move as Knights but mêlée Dx and shoot as Brigans [Try a
    Horse Master personality!]"."""
    report = bretons(u0={"personality": "horse_marshal"})
    assert report.valid, report.issues
    assert "horse marshal" in report.units[0].stats["turns"]


def test_a_horse_marshal_with_brigans_is_refused():
    """ "A Horse Marshal knows how to maneuver knights on a battlefield"."""
    report = bretons(u4={"personality": "horse_marshal"})
    assert codes(report) == ["horse-marshal-unit"]
    assert report.issues[0].rule == "Personalities"


# -- missile modifications -------------------------------------------------------------------


def test_extra_missiles_for_4_shots_total_with_three_shots_supply():
    """ "Extra Missiles for 4 Shots total", balanced by a disadvantage elsewhere."""
    report = report_for(
        with_changes(u4={"advantage": "extra_missiles"}, u5={"disadvantage": "unenthusiastic"})
    )
    assert report.valid, report.issues
    assert report.units[4].stats["shots"] == "4"


def test_extra_missiles_change_nothing_for_a_well_supplied_army():
    """ "Missile Units that are well-supplied ... have a 4-Shot limit, not 3": extra
    missiles would give the same 4 shots."""
    report = report_for(
        with_changes(u4={"advantage": "extra_missiles"}, u5={"disadvantage": "unenthusiastic"}),
        options={"missile_supply": "four_shots"},
    )
    assert codes(report) == ["modification-not-applicable"]
    assert report.issues[0].message == (
        "Crossbowmen: extra missiles (4 shots) changes nothing: the army is well supplied "
        "with 4 shots already."
    )


def test_bowmen_that_only_have_3_shots_in_a_well_supplied_army():
    """ "Freemen / Bowmen that enter Woods, or only have 3 shots, or run out on a 5-6"."""
    report = report_for(
        with_changes(u4={"disadvantage": "three_shots"}), options={"missile_supply": "four_shots"}
    )
    assert report.valid, report.issues
    assert report.units[4].stats["shots"] == "3"


def test_only_3_shots_changes_nothing_when_every_unit_has_3():
    report = report_for(with_changes(u4={"disadvantage": "three_shots"}))
    assert codes(report) == ["modification-not-applicable"]
    assert report.issues[0].unit == 4


def test_missile_modifications_need_a_unit_that_shoots():
    report = report_for(with_changes(u1={"disadvantage": "runs_out_5_6"}))
    assert codes(report) == ["modification-not-applicable"]
    assert report.issues[0].message == (
        "Knights of the honour: running out on a 5-6 changes nothing: knights do not shoot."
    )


def test_run_out_on_a_5_6_replaces_the_shot_count():
    report = report_for(with_changes(u4={"disadvantage": "runs_out_5_6"}))
    assert report.valid
    assert report.units[4].stats["shots"] == "until a natural 5 or 6"


def test_impetuous_charge_is_taken_as_a_unit_advantage():
    """ "This ability should be taken as a Unit Advantage": balanced by a disadvantage."""
    legal = report_for(
        with_changes(u1={"advantage": "impetuous"}, u5={"disadvantage": "melee_minus"})
    )
    assert legal.valid, legal.issues
    assert "impetuous" in legal.units[1].stats["notes"]
    unbalanced = report_for(with_changes(u1={"advantage": "impetuous"}))
    assert codes(unbalanced) == ["advantage-unbalanced"]


# -- Strategos ---------------------------------------------------------------------------------


def test_strategos_has_a_one_time_bonus_of_3_to_seize_initiative():
    """ "Personality: Strategos has a one-time bonus of +3 to seize Initiative"."""
    report = report_for(with_changes(u0={"banner": False}, u2={"personality": "strategos"}))
    assert report.valid, report.issues
    assert "strategos: once per game, +3 to seize the initiative" in report.units[2].stats["notes"]


def test_strategos_counts_against_one_personality_per_three_units():
    """ "For every three Units in a force, a player may pick a personality figure"."""
    report = report_for(with_changes(u2={"personality": "strategos"}))
    assert codes(report) == ["too-many-personalities"]


# -- one mistake, one error ----------------------------------------------------------------------


def test_mercenary_crossbows_on_freemen_give_one_error():
    report = report_for(with_changes(u5={"mercenary_crossbows": True}))
    assert codes(report) == ["crossbow-balance"]
    assert report.issues[0].unit == 5


def test_crossbows_without_a_balance_name_the_unit_first():
    report = report_for(with_changes(u4={"mercenary_crossbows": True}))
    assert codes(report) == ["crossbow-balance"]
    assert report.issues[0].message.startswith(
        "Crossbowmen: mercenary crossbows with nothing to balance them"
    )
