"""Feudal Wargame Rules (2017): options, stat lines from BW, every check, lists, rolling."""

import copy
import json

import pytest

from rules import MalformedDocument, check_document
from rules.registry import get_ruleset
from rules.rulesets.feudal_2017.matrix import COLUMNS, MATRIX
from rules.rulesets.feudal_2017.troops import DEFAULT_LIST, inches
from tests.support import army, example, expected, fixture_lists

RULESET = get_ruleset("feudal-2017")
LIST_SLUGS = [
    "feudal",
    "anglo-irish",
    "norse-irish",
    "scots-common",
    "scots-isles-highlands",
    "early-feudal-french-german",
    "bretons",
    "north-welsh",
    "south-welsh",
]


def lists(_ruleset):
    return fixture_lists("feudal-2017")


def report_for(units, **top):
    return check_document(army("feudal-2017", units, **top), lists)[1]


def roll4_units():
    return copy.deepcopy(example("feudal-2017-roll-4.json")["units"])


def with_changes(**by_index):
    """The roll-4 example army with some units' fields changed: with_changes(u4={...})."""
    units = roll4_units()
    for key, fields in by_index.items():
        units[int(key[1:])].update(fields)
    return units


def codes(report):
    return [i.code for i in report.issues]


def unit_stats(unit, **options):
    units = [unit, *roll4_units()[1:]]
    return report_for(units, options=options).units[0].stats


# -- the example and the vocabulary ---------------------------------------------------------


def test_roll_4_example_is_valid_and_fits_row_4_only():
    want = expected()["feudal-2017-roll-4.json"]
    _, report = check_document(example("feudal-2017-roll-4.json"), lists)
    assert report.valid is want["valid"]
    assert report.total_points is want["total_points"] is None
    assert report.composition == {
        "matrix_rows": want["matrix_rows"],
        "columns": {"core": "knights", "t1": "bowmen", "t2": "brigans", "t3": "freemen"},
    }
    assert report.issues == ()
    assert [u.points for u in report.units] == [None] * 6


def test_options_and_defaults_are_the_digests():
    assert RULESET.default_options() == {
        "dice": "d6",
        "base_width_in": 5.0,
        "diced_movement": False,
        "six_hit_variant": False,
        "trained_units": False,
        "missile_supply": "three_shots",
        "tired_units": False,
    }
    assert RULESET.option_field("dice").values == ("d6", "d5")
    assert RULESET.option_field("missile_supply").values == (
        "three_shots",
        "natural_5",
        "four_shots",
    )
    width = RULESET.option_field("base_width_in")
    assert (width.kind, width.minimum, width.maximum) == ("number", 2.0, 8.0)
    assert not RULESET.uses_points
    assert RULESET.can_roll


def test_unit_fields_are_the_digests():
    assert [f.name for f in RULESET.unit_fields] == [
        "name", "type", "dismounted", "mercenary_crossbows", "balance", "advantage",
        "disadvantage", "trained", "personality", "banner",
    ]  # fmt: skip
    assert RULESET.unit_field("type").values == (
        "knights", "serjeants", "freemen", "bowmen", "brigans", "brigans_bows",
        "mounted_brigans", "cavalry",
    )  # fmt: skip
    assert RULESET.unit_field("balance").values == ("mounted_serjeants", "unwilling_levy")
    assert RULESET.unit_field("advantage").values == (
        "determined", "melee_plus", "shoot_plus", "extra_missiles", "impetuous", "woods",
    )  # fmt: skip
    assert RULESET.unit_field("disadvantage").values == (
        "unenthusiastic", "melee_minus", "shoot_minus", "runs_out_5_6", "three_shots",
    )  # fmt: skip
    assert RULESET.unit_field("personality").values == (
        "knight_errant", "constable", "horse_marshal", "bow_marshal", "brabanter", "priest",
        "strategos",
    )  # fmt: skip


@pytest.mark.parametrize("width", [1.9, 8.5, "5"])
def test_base_width_outside_2_to_8_inches_is_refused_naming_the_option(width):
    with pytest.raises(MalformedDocument) as caught:
        report_for(roll4_units(), options={"base_width_in": width})
    assert caught.value.path == "options.base_width_in"


def test_a_dismounted_unit_must_be_entered_as_serjeants():
    report = report_for(with_changes(u1={"dismounted": True}))
    issue = next(i for i in report.issues if i.code == "dismounted-not-serjeants")
    assert issue.unit == 1
    assert "enter this unit as serjeants, not knights" in issue.message
    assert not report.valid


def test_a_points_limit_is_refused_because_feudal_has_no_points():
    with pytest.raises(MalformedDocument, match="has no points"):
        report_for(roll4_units(), points_limit=100)


# -- stat lines ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [(5, '5"'), ("2.5", '2.5"'), ("2.36", '2.36"'), ("9.44", '9.44"'), ("2.3625", '2.36"'),
     ("1.6665", '1.67"'), ("4.70", '4.7"')],
)  # fmt: skip
def test_inches_print_at_most_two_decimals(value, text):
    from fractions import Fraction

    assert inches(Fraction(value)) == text


@pytest.mark.parametrize(
    ("width", "bw", "bd", "two_bw", "three_bw"),
    [(5.0, '5"', '2.5"', '10"', '15"'), (4.72, '4.72"', '2.36"', '9.44"', '14.16"')],
)
def test_stat_lines_in_inches_from_the_base_width(width, bw, bd, two_bw, three_bw):
    def stats(unit):
        return unit_stats({"name": "U", **unit}, base_width_in=width)

    knights = stats({"type": "knights"})
    assert (knights["move"], knights["fast"], knights["road"]) == (bw, "+" + bw, "+" + bd)
    serjeants = stats({"type": "serjeants"})
    assert (serjeants["move"], serjeants["fast"], serjeants["road"]) == (bd, "+" + bd, "+" + bd)
    brigans = stats({"type": "brigans"})
    assert (brigans["move"], brigans["fast"], brigans["road"]) == (bw, "+" + bd, "+" + bd)
    assert brigans["shooting"] == f"javelins {bw} in phase 2, d6-2"
    mounted = stats({"type": "mounted_brigans"})
    assert (mounted["move"], mounted["fast"]) == (bw, "+" + bw)
    bowmen = stats({"type": "bowmen"})
    assert bowmen["shooting"] == f"bows {two_bw} in phase 1, d6"
    marshal = stats({"type": "bowmen", "personality": "bow_marshal"})
    assert marshal["shooting"] == f"bows {three_bw} in phase 1, d6"
    assert stats({"type": "brigans_bows"})["shooting"] == f"bows {two_bw} in phase 1, d6-2"
    assert stats({"type": "cavalry"})["shooting"] == f"javelins {bw} in phase 2, d6-2"
    assert "shooting" not in knights


@pytest.mark.parametrize(
    ("unit", "melee"),
    [
        ({"type": "knights"}, "d6+2"),
        ({"type": "serjeants"}, "d6"),
        ({"type": "freemen"}, "d6"),
        ({"type": "bowmen"}, "d6-2"),
        ({"type": "brigans"}, "d6-2"),
        ({"type": "cavalry"}, "d6"),
        ({"type": "knights", "balance": "mounted_serjeants"}, "d6+1"),
        ({"type": "freemen", "balance": "unwilling_levy"}, "d6-1"),
        ({"type": "freemen", "advantage": "melee_plus"}, "d6+1"),
    ],
)
def test_melee_dice_by_type_and_modification(unit, melee):
    assert unit_stats({"name": "U", **unit})["melee"] == melee


def test_turns_by_class():
    assert unit_stats({"name": "U", "type": "freemen"})["turns"] == (
        "once, at the start of the move"
    )
    assert unit_stats({"name": "U", "type": "brigans"})["turns"] == (
        "twice: at the start and at the end of the move"
    )
    assert unit_stats({"name": "U", "type": "knights"})["turns"] == (
        "once, at the start or at the end of the move"
    )
    marshal = unit_stats({"name": "U", "type": "knights", "personality": "horse_marshal"})
    assert "a further turn at the end (horse marshal)" in marshal["turns"]


def test_hits_are_15_determined_18_unenthusiastic_12():
    assert unit_stats({"name": "U", "type": "freemen"})["hits"] == "15 (removed at 15)"
    determined = unit_stats({"name": "U", "type": "freemen", "advantage": "determined"})
    assert determined["hits"] == "18 (removed at 18)"
    keen = unit_stats({"name": "U", "type": "freemen", "disadvantage": "unenthusiastic"})
    assert keen["hits"] == "12 (removed at 12)"


def test_six_hit_variant_gives_attack_dice_and_six_hits():
    def stats(unit):
        return unit_stats({"name": "U", **unit}, six_hit_variant=True)

    assert stats({"type": "knights"})["melee"] == "3 attack dice, hit on 3+"
    assert stats({"type": "serjeants"})["melee"] == "2 attack dice, hit on 3+"
    assert stats({"type": "brigans"})["melee"] == "1 attack die, hit on 3+"
    assert (
        stats({"type": "brigans"})["shooting"] == 'javelins 5" in phase 2, 1 attack die, hit on 3+'
    )
    assert stats({"type": "knights", "balance": "mounted_serjeants"})["melee"] == (
        "3 attack dice, hit on 4+"
    )
    assert stats({"type": "knights"})["hits"] == "6 (removed above 6)"
    assert stats({"type": "freemen", "advantage": "determined"})["hits"] == "7 (removed above 7)"


def test_diced_movement_moves_3_6_9_fast_by_the_die_and_shoots_12_and_6():
    def stats(unit, **options):
        return unit_stats({"name": "U", **unit}, diced_movement=True, **options)

    freemen = stats({"type": "freemen"})
    assert (freemen["move"], freemen["fast"], freemen["road"]) == ('3"', '+d6"', '+3"')
    assert stats({"type": "brigans"})["move"] == '6"'
    assert stats({"type": "knights"}, dice="d5")["fast"] == '+d5"'
    assert stats({"type": "knights"})["move"] == '9"'
    assert stats({"type": "bowmen"})["shooting"] == 'bows 12" in phase 1, d6'
    assert stats({"type": "brigans"})["shooting"] == 'javelins 6" in phase 2, d6-2'


def test_d5_dice_are_printed_as_the_units_die():
    assert unit_stats({"name": "U", "type": "knights"}, dice="d5")["melee"] == "d5+2"


def test_trained_units_roll_dx_and_the_rest_a_d6():
    plain = unit_stats({"name": "U", "type": "knights"}, dice="d5", trained_units=True)
    assert plain["melee"] == "d6+2"
    trained = unit_stats(
        {"name": "U", "type": "knights", "trained": True}, dice="d5", trained_units=True
    )
    assert trained["melee"] == "d5+2"
    assert "trained: rolls d5" in trained["notes"]


@pytest.mark.parametrize(
    ("unit", "supply", "shots"),
    [
        ({}, "three_shots", "3"),
        ({}, "four_shots", "4"),
        ({}, "natural_5", "until a natural 5"),
        ({"advantage": "extra_missiles"}, "three_shots", "4"),
        ({"disadvantage": "runs_out_5_6"}, "three_shots", "until a natural 5 or 6"),
    ],
)
def test_missile_supply(unit, supply, shots):
    stats = unit_stats({"name": "U", "type": "bowmen", **unit}, missile_supply=supply)
    assert stats["shots"] == shots


def test_tired_units_option_notes_the_penalty():
    stats = unit_stats({"name": "U", "type": "knights"}, tired_units=True)
    assert "tired past ten hits: -1 to all rolls" in stats["notes"]


def test_serjeants_halve_all_hits_but_scots_schiltrons_only_melee_hits():
    serjeants = unit_stats({"name": "U", "type": "serjeants"})
    assert serjeants["defence"] == "armoured: halves mêlée and shooting hits"
    scots = [{"name": f"Schiltron {i}", "type": "serjeants"} for i in range(4)] + [
        {"name": "Brigans", "type": "brigans"},
        {"name": "Knights", "type": "knights"},
    ]
    report = report_for(scots, army_list="scots-common")
    assert report.valid
    assert report.units[0].stats["defence"] == "schiltron: halves mêlée hits, not shooting hits"


# -- checks ------------------------------------------------------------------------------


def test_matrix_mismatch_says_what_the_nearest_row_needs():
    units = with_changes(u5={"type": "brigans"})  # 4 core, 1 T1, 1 T2 is row 5 ...
    units[4]["type"] = "brigans"  # ... but 4 core, 0 T1, 2 T2 is no row
    report = report_for(units)
    assert codes(report) == ["matrix-mismatch"]
    message = report.issues[0].message
    assert message.startswith("These units fit no row of the force matrix (core knights")
    assert "row 5 needs 1 more bowmen and 1 fewer brigans" in message
    assert report.composition["matrix_rows"] == []


def test_army_size_is_six_units():
    report = report_for(roll4_units()[1:])
    """One mistake, one error: the missing unit is reported once, naming the nearest rows."""
    assert codes(report) == ["army-size"]
    assert report.issues[0].message == (
        "The army has 5 units; a Feudal force is six (one row of the force matrix). "
        "Nearest: row 2 needs 1 more brigans; or row 4 needs 1 more knights."
    )


def test_mercenary_crossbows_balanced_by_mounted_serjeants_or_unwilling_levy_are_valid():
    by_knights = with_changes(u4={"mercenary_crossbows": True}, u1={"balance": "mounted_serjeants"})
    assert report_for(by_knights).valid
    by_levy = with_changes(u4={"mercenary_crossbows": True}, u5={"balance": "unwilling_levy"})
    assert report_for(by_levy).valid
    assert report_for(by_levy).units[4].stats["shooting"] == 'bows 10" in phase 1, d6+1'


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"u4": {"mercenary_crossbows": True}}, "nothing to balance them"),
        ({"u5": {"balance": "unwilling_levy"}}, "crossbows the army does not have"),
        ({"u4": {"mercenary_crossbows": True}, "u1": {"balance": "mounted_serjeants"},
          "u5": {"balance": "unwilling_levy"}}, "2 balancing units"),
        ({"u4": {"mercenary_crossbows": True}, "u5": {"mercenary_crossbows": True},
          "u1": {"balance": "mounted_serjeants"}}, "only bowmen may be mercenary crossbows"),
        ({"u4": {"mercenary_crossbows": True}, "u5": {"balance": "mounted_serjeants"}},
         "mounted serjeants must be a knights unit, not freemen"),
        ({"u4": {"mercenary_crossbows": True}, "u3": {"balance": "mounted_serjeants"}},
         "not dismounted knights"),
        ({"u4": {"mercenary_crossbows": True}, "u1": {"balance": "unwilling_levy"}},
         "unwilling levy must be a freemen unit, not knights"),
    ],
)  # fmt: skip
def test_crossbow_balance(changes, words):
    report = report_for(with_changes(**changes))
    assert "crossbow-balance" in codes(report)
    assert any(words in i.message for i in report.issues if i.code == "crossbow-balance")
    assert not report.valid


def test_two_mercenary_crossbow_units_are_refused():
    units = with_changes(u4={"mercenary_crossbows": True}, u1={"balance": "mounted_serjeants"})
    units[5] = {"name": "More crossbows", "type": "bowmen", "mercenary_crossbows": True}
    units[3] = {"name": "Freemen", "type": "freemen"}  # row 4 -> 3 core, 2 T1, 1 T3 (no row)
    report = report_for(units)
    assert any("2 mercenary crossbow units" in i.message for i in report.issues)


def test_too_many_personalities_counts_banners():
    units = with_changes(u1={"personality": "constable"})  # 2 personalities + 1 banner
    report = report_for(units)
    assert codes(report) == ["too-many-personalities"]
    assert report.issues[0].message == (
        "3 personalities (banners count as one each); 6 units allow 2, one for every three."
    )
    assert report_for(with_changes(u0={"banner": False}, u1={"personality": "constable"})).valid


def test_banner_only_with_knights_or_serjeants_and_a_personality():
    no_errant = {"personality": None, "banner": False}
    on_bowmen = report_for(with_changes(u0=no_errant, u4={"personality": "priest", "banner": True}))
    assert codes(on_bowmen) == ["banner-unit"]
    assert on_bowmen.issues[0].unit == 4
    no_personality = report_for(with_changes(u0={"personality": None}))
    assert codes(no_personality) == ["banner-unit"]
    assert "give the unit one" in no_personality.issues[0].message
    on_dismounted = with_changes(u0=no_errant, u3={"personality": "constable", "banner": True})
    assert report_for(on_dismounted).valid


def test_a_banner_is_an_upgrade_to_any_personality_above():
    """Personalities: "A Banner is an upgrade to any personality above" -- the knight errant,
    constable, horse marshal, bow marshal and brabanter; the priest comes after it and the
    strategos belongs to the Initiative rule."""
    for personality in ("priest", "strategos"):
        report = report_for(with_changes(u0={"personality": personality, "banner": True}))
        assert codes(report) == ["banner-unit"], personality
        assert report.issues[0].unit == 0 and report.issues[0].rule == "Personalities"
        assert f"not a {personality}" in report.issues[0].message
    for personality in ("knight_errant", "constable", "horse_marshal", "brabanter"):
        assert report_for(with_changes(u0={"personality": personality})).valid, personality


def test_horse_marshal_only_with_knights():
    report = report_for(with_changes(u0={"banner": False}, u3={"personality": "horse_marshal"}))
    assert codes(report) == ["horse-marshal-unit"]
    assert report.issues[0].unit == 3
    fine = with_changes(u0={"banner": False}, u1={"personality": "horse_marshal"})
    assert report_for(fine).issues == ()


def test_bow_marshal_only_with_bowmen():
    report = report_for(with_changes(u0={"banner": False}, u1={"personality": "bow_marshal"}))
    assert codes(report) == ["bow-marshal-unit"]
    assert report_for(with_changes(u0={"banner": False}, u4={"personality": "bow_marshal"})).valid


def test_one_advantage_balanced_by_one_disadvantage_is_valid():
    units = with_changes(u5={"advantage": "determined"}, u4={"disadvantage": "shoot_minus"})
    assert report_for(units).valid


def test_a_disadvantage_on_its_own_is_allowed():
    assert report_for(with_changes(u4={"disadvantage": "runs_out_5_6"})).valid


def test_advantage_limit_one_of_each():
    two_advantages = with_changes(
        u5={"advantage": "determined"}, u1={"advantage": "impetuous"},
        u4={"disadvantage": "shoot_minus"},
    )  # fmt: skip
    report = report_for(two_advantages)
    assert codes(report) == ["advantage-limit"]
    assert "2 units with an advantage" in report.issues[0].message
    two_disadvantages = with_changes(
        u5={"advantage": "determined"}, u4={"disadvantage": "shoot_minus"},
        u1={"disadvantage": "unenthusiastic"},
    )  # fmt: skip
    assert codes(report_for(two_disadvantages)) == ["advantage-limit"]


def test_woods_advantage_only_for_freemen_or_bowmen():
    knights = with_changes(u1={"advantage": "woods"}, u4={"disadvantage": "shoot_minus"})
    report = report_for(knights)
    assert codes(report) == ["advantage-limit"]
    assert "only freemen or bowmen take the woods advantage" in report.issues[0].message
    freemen = with_changes(u5={"advantage": "woods"}, u4={"disadvantage": "shoot_minus"})
    assert report_for(freemen).valid


def test_advantage_unbalanced():
    report = report_for(with_changes(u5={"advantage": "determined"}))
    assert codes(report) == ["advantage-unbalanced"]
    assert report.issues[0].message == (
        "Town levy has an advantage with no disadvantage to balance it: downgrade another unit."
    )


def test_one_modification_per_unit():
    """An advantage or disadvantage on top of the crossbow arrangement is one too many."""
    with_crossbows = with_changes(
        u4={"mercenary_crossbows": True, "advantage": "extra_missiles"},
        u1={"balance": "mounted_serjeants"}, u5={"disadvantage": "melee_minus"},
    )  # fmt: skip
    assert codes(report_for(with_crossbows)) == ["one-modification-per-unit"]


@pytest.mark.parametrize(
    ("index", "changes", "words"),
    [
        (1, {"advantage": "melee_plus"}, "mêlée Dx+3"),
        (4, {"disadvantage": "melee_minus"}, "mêlée Dx-3"),
    ],
)
def test_modifier_cap(index, changes, words):
    units = roll4_units()
    units[index].update(changes)
    if "advantage" in changes:
        units[5]["disadvantage"] = "unenthusiastic"
    report = report_for(units)
    assert codes(report) == ["modifier-cap"]
    assert words in report.issues[0].message


def test_modifier_cap_on_shooting():
    units = [
        {"name": "Kerns", "type": "brigans", "disadvantage": "shoot_minus"},
        *[{"name": f"Brigans {i}", "type": "brigans"} for i in range(3)],
        {"name": "Archers", "type": "bowmen"},
        {"name": "Knights", "type": "knights"},
    ]
    report = report_for(units, army_list="anglo-irish")
    assert codes(report) == ["modifier-cap"]
    assert "shoots Dx-3" in report.issues[0].message


def test_trained_disabled():
    report = report_for(with_changes(u1={"trained": True}))
    assert codes(report) == ["trained-disabled"]
    assert report.issues[0].unit == 1
    assert report_for(with_changes(u1={"trained": True}), options={"trained_units": True}).valid


def test_every_documented_check_code_is_one_the_tests_trigger():
    assert {c.code for c in RULESET.checks} == {
        "matrix-mismatch", "army-size", "crossbow-balance", "too-many-personalities",
        "banner-unit", "horse-marshal-unit", "bow-marshal-unit", "advantage-limit",
        "advantage-unbalanced", "one-modification-per-unit", "modifier-cap", "trained-disabled",
        "dismounted-not-serjeants", "modification-not-applicable", "modifications-cancel",
    }  # fmt: skip


# -- army lists ------------------------------------------------------------------------


DIGEST_TABLE = {
    "feudal": ("knights", "bowmen", "brigans", "freemen"),
    "anglo-irish": ("brigans", "bowmen", "knights", "freemen"),
    "norse-irish": ("brigans", "serjeants", "freemen", "cavalry"),
    "scots-common": ("serjeants", "brigans", "bowmen", "knights"),
    "scots-isles-highlands": ("serjeants", "brigans", "freemen", "bowmen"),
    "early-feudal-french-german": ("knights", "freemen", "bowmen", "brigans"),
    "bretons": ("cavalry", "brigans", "bowmen", "knights"),
    "north-welsh": ("freemen", "knights", "brigans", "bowmen"),
    "south-welsh": ("bowmen", "knights", "brigans", "freemen"),
}


def test_the_nine_lists_have_the_digests_columns_and_validate():
    found = fixture_lists("feudal-2017")
    assert sorted(found) == sorted(LIST_SLUGS)
    for slug, columns in DIGEST_TABLE.items():
        assert tuple(found[slug]["columns"][c] for c in COLUMNS) == columns, slug
        assert RULESET.validate_army_list(found[slug]) == [], slug


def test_the_lists_replacements_and_notes():
    found = fixture_lists("feudal-2017")

    def replacements(slug):
        return [(r["from"], r["to"], r["max"]) for r in found[slug]["replacements"]]

    assert replacements("north-welsh") == [
        ("freemen", "brigans", None), ("freemen", "serjeants", 1), ("knights", "cavalry", None),
    ]  # fmt: skip
    assert replacements("south-welsh") == [("knights", "cavalry", None)]
    assert replacements("scots-isles-highlands") == [
        ("bowmen", "brigans", None), ("freemen", "brigans", None),
    ]  # fmt: skip
    others = set(LIST_SLUGS) - {"north-welsh", "south-welsh", "scots-isles-highlands"}
    assert all(replacements(slug) == [] for slug in others)
    assert any('"T4 Cavalry": read as T3' in n for n in found["norse-irish"]["notes"])
    assert found["norse-irish"]["extra_terrain"].startswith('Add an 8"x4" wood')
    assert found["scots-common"]["schiltrons"] is True
    assert [s for s in LIST_SLUGS if found[s]["schiltrons"]] == ["scots-common"]


def test_the_feudal_fixture_is_the_engines_built_in_default():
    assert fixture_lists("feudal-2017")["feudal"] == DEFAULT_LIST


def test_no_list_uses_the_stored_feudal_list_then_the_built_in_copy():
    doc = example("feudal-2017-roll-4.json")
    del doc["army_list"]
    _, built_in = check_document(doc)
    assert built_in.composition["matrix_rows"] == [4]
    changed = copy.deepcopy(fixture_lists("feudal-2017"))
    changed["feudal"]["columns"] = {"core": "knights", "t1": "freemen", "t2": "brigans",
                                    "t3": "bowmen"}  # fmt: skip
    _, stored = check_document(doc, lambda _rs: changed)
    assert stored.composition["columns"]["t1"] == "freemen"
    assert stored.composition["matrix_rows"] == [4]  # 4 core, 1 T1 freemen, 1 T3 bowmen
    assert stored.valid


def test_norse_irish_cavalry_fill_the_fourth_column():
    units = [{"name": "Kerns", "type": "brigans"}, {"name": "Gall-gaels", "type": "serjeants"},
             {"name": "Bonnachts", "type": "freemen"}, {"name": "Freemen", "type": "freemen"},
             {"name": "Horse", "type": "cavalry"}, {"name": "More horse", "type": "cavalry"}]  # fmt: skip
    report = report_for(units, army_list="norse-irish")
    assert report.composition["matrix_rows"] == [1]
    assert report.valid


def test_north_welsh_freemen_replaced_by_brigans_and_one_serjeants_knights_by_cavalry():
    units = [{"name": "Spears", "type": "serjeants"}, {"name": "Raiders", "type": "brigans"},
             {"name": "Levy", "type": "freemen"}, {"name": "Teulu", "type": "cavalry"},
             {"name": "Skirmishers", "type": "mounted_brigans"}, {"name": "Archers", "type": "bowmen"}]  # fmt: skip
    report = report_for(units, army_list="north-welsh")
    # row 2: 3 core (serjeants, brigans, levy); row 4: 4 core (+ mounted brigans as freemen)
    assert report.composition["matrix_rows"] == [2, 4]
    assert report.valid


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"columns": {"core": "archers", "t1": "bowmen", "t2": "brigans", "t3": "freemen"}},
         "columns.core: 'archers' is not a unit type; allowed types: knights, serjeants, "
         "freemen, bowmen, brigans, cavalry"),
        ({"columns": {"core": "knights", "t1": "bowmen", "t2": "brigans"}}, "columns.t3: missing"),
        ({"columns": {"core": "knights", "t1": "knights", "t2": "brigans", "t3": "freemen"}},
         "each column must name a different unit type"),
        ({"columns": DEFAULT_LIST["columns"],
          "replacements": [{"from": "freemen", "to": "slingers", "max": None}]},
         "replacements[0].to: 'slingers' is not a unit type"),
        ({"columns": DEFAULT_LIST["columns"],
          "replacements": [{"from": "cavalry", "to": "brigans", "max": None}]},
         "replacements[0].from: 'cavalry' is not one of the list's column types"),
        ({"columns": DEFAULT_LIST["columns"],
          "replacements": [{"from": "freemen", "to": "serjeants", "max": 0}]},
         "replacements[0].max: a whole number of at least 1"),
        ({"columns": DEFAULT_LIST["columns"], "colums": {}}, "unknown keys colums"),
        ([], "constraint data must be a JSON object"),
    ],
)  # fmt: skip
def test_list_validator_refuses_malformed_lists_with_a_message(data, words):
    problems = RULESET.validate_army_list(data)
    assert any(words in p for p in problems), problems


def test_a_malformed_list_reached_through_a_lookup_is_a_clear_error_not_a_crash():
    bad = {"feudal": {"columns": {"core": "knights"}}}
    with pytest.raises(MalformedDocument, match="the list 'feudal' is malformed") as caught:
        check_document(example("feudal-2017-roll-4.json"), lambda _rs: bad)
    assert caught.value.path == "army_list"


# -- rolling a force ----------------------------------------------------------------------


def seeds_for_every_row(slug):
    found = {}
    data = fixture_lists("feudal-2017")[slug]
    for seed in range(500):
        document = RULESET.roll_force(slug, data, seed)
        row = int(document["name"].rsplit(" ", 1)[1].rstrip(")"))
        found.setdefault(row, (seed, document))
        if len(found) == len(MATRIX):
            break
    return found


@pytest.mark.parametrize("slug", LIST_SLUGS)
def test_a_rolled_force_is_legal_and_reports_its_row_for_every_row(slug):
    rolled = seeds_for_every_row(slug)
    assert sorted(rolled) == sorted(MATRIX)
    for row, (seed, document) in rolled.items():
        assert document["army_list"] == slug
        assert len(document["units"]) == 6
        assert f"Rolled {row} on the force matrix (seed {seed})" in document["notes"]
        _, report = check_document(document, lists)
        assert report.valid, (row, report.issues)
        assert row in report.composition["matrix_rows"]
        want = dict(zip(COLUMNS, MATRIX[row], strict=True))
        columns = fixture_lists("feudal-2017")[slug]["columns"]
        kinds = [u["type"] for u in document["units"]]
        assert {c: kinds.count(columns[c]) for c in COLUMNS} == want


def test_a_roll_is_reproducible_from_its_seed():
    data = fixture_lists("feudal-2017")["north-welsh"]
    first = RULESET.roll_force("north-welsh", data, 1234)
    assert RULESET.roll_force("north-welsh", data, 1234) == first
    assert json.dumps(first)  # a plain JSON document
    rows = {RULESET.roll_force("north-welsh", data, s)["name"] for s in range(40)}
    assert len(rows) > 1  # the seed really drives the die


def test_rolling_with_no_list_uses_the_built_in_default_and_names_no_list():
    document = RULESET.roll_force(None, None, 7)
    assert document["army_list"] is None
    _, report = check_document(document)
    assert report.valid
    assert report.composition["columns"] == DEFAULT_LIST["columns"]


def test_norse_irish_rolls_carry_the_extra_wood_in_their_notes():
    document = RULESET.roll_force("norse-irish", fixture_lists("feudal-2017")["norse-irish"], 1)
    assert 'Add an 8"x4" wood' in document["notes"]


# -- through the web layer -----------------------------------------------------------------


@pytest.mark.django_db
def test_api_ruleset_page_includes_the_nine_lists(client):
    response = client.get("/api/v1/rulesets/feudal-2017")
    assert response.status_code == 200
    body = response.json()
    assert sorted(al["slug"] for al in body["army_lists"]) == sorted(LIST_SLUGS)
    north = next(al for al in body["army_lists"] if al["slug"] == "north-welsh")
    assert north["name"] == "North Welsh"
    assert north["data"]["columns"]["core"] == "freemen"
    assert {c["code"] for c in body["checks"]} >= {"matrix-mismatch", "army-size"}


@pytest.mark.django_db
def test_api_checks_the_roll_4_example_against_the_stored_list(client):
    response = client.post(
        "/api/v1/check",
        data=json.dumps(example("feudal-2017-roll-4.json")),
        content_type="application/json",
    )
    assert response.status_code == 200
    body = response.json()
    assert body["valid"] is True
    assert body["composition"]["matrix_rows"] == [4]


@pytest.mark.django_db
def test_api_refuses_an_unknown_army_list_with_400_naming_the_known_lists(client):
    document = example("feudal-2017-roll-4.json")
    document["army_list"] = "welsh"
    response = client.post(
        "/api/v1/check", data=json.dumps(document), content_type="application/json"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["path"] == "army_list"
    assert "'welsh' is not an army list of Feudal Wargame Rules (2017)" in body["error"]
    from armybuilder.catalog.models import ArmyList

    names = ArmyList.objects.filter(ruleset="feudal-2017").values_list("name", "slug")
    assert all(name in body["error"] for name, _ in names)
    assert not any(f"{slug}," in body["error"] for _, slug in names)
