"""Quick-reference sheets as data (rules/qrs): contents per digest, distances from options."""

import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules.qrs import available, inches, qrs_sheet
from tests.support import army, example, fixture_lists

ITD_UNIT = {
    "name": "Town Militia",
    "figures": 12,
    "quality": "levy",
    "density": "close",
    "armour": "unarmoured",
}

# What each digest's "Quick-reference sheet" paragraph lists, as section keys.
CORE_SECTIONS = {
    "into-the-dark": {
        "sequence", "movement", "charges", "to-hit", "missiles", "melee", "flank-rear",
        "results", "morale", "control",
    },
    "dewitt-medieval": {
        "sequence", "morale", "movement", "shooting", "melee", "retreats", "generals",
    },
    "dark-ages-2015": {
        "sequence", "movement", "turning", "charging", "shooting", "melee", "elimination",
        "optional",
    },
    "dark-ages-d5": {
        "sequence", "movement", "charging", "shooting", "melee", "removal", "optional",
    },
    "feudal-2017": {
        "conventions", "sequence", "shoot", "move", "charging", "melee", "rallies", "optional",
    },
}  # fmt: skip

# Each rule set's morale/result table (or its equivalent) and rows it must hold.
MORALE_TABLES = {
    "into-the-dark": ("morale-results", ["passed", "shaken", "driven back", "routed"]),
    "dewitt-medieval": ("morale-table", ["8", "7", "6", "5", "Unit destroyed"]),
    "dark-ages-2015": ("elimination", ["15 hits", "18 hits", "12 hits"]),
    "dark-ages-d5": ("removal", ["15 hits", "18 hits", "12 hits"]),
    "feudal-2017": ("rallies", ["rally 1 hit", "never rallies below 5", "15 hits"]),
}


def parsed(document):
    return rules.parse_document(document, fixture_lists)


def test_every_registered_ruleset_has_a_quick_reference_sheet():
    assert sorted(available()) == sorted(r.slug for r in rules.all_rulesets())


@pytest.mark.parametrize("slug", sorted(CORE_SECTIONS))
def test_core_sections_are_the_ones_the_digest_lists(slug):
    sheet = qrs_sheet(slug, None)
    assert {s.key for s in sheet.core} == CORE_SECTIONS[slug]
    assert sheet.title and sheet.settings


@pytest.mark.parametrize("slug", sorted(MORALE_TABLES))
def test_each_ruleset_sheet_has_its_morale_or_result_table(slug):
    key, expected_rows = MORALE_TABLES[slug]
    table = qrs_sheet(slug, None).table(key)
    text = table.text()
    for row in expected_rows:
        assert row.lower() in text.lower(), (slug, row)


def test_into_the_dark_morale_results_follow_the_source_margins():
    table = qrs_sheet("into-the-dark", None).table("morale-results")
    assert [r[0] for r in table.rows] == [
        "equal or less",
        "over by 1",
        "over by 2 or 3",
        "over by 4 or more",
    ]
    assert table.rows[2][1].startswith('Driven back 4"')


def test_feudal_at_base_width_4_prints_moves_in_inches_for_that_width():
    doc = army("feudal-2017", [{"name": "Knights", "type": "knights"}])
    doc["options"] = {"base_width_in": 4}
    sheet = qrs_sheet("feudal-2017", parsed(doc))
    rows = {r[1]: r[2:] for r in sheet.table("movement").rows}
    # Move, Fast, Road, Fast total: BD = 2", BW = 4"
    assert rows["Serjeants, freemen, bowmen"] == ('2"', '+2"', '+2"', '4"')
    assert rows["Brigans"] == ('4"', '+2"', '+2"', '6"')
    assert rows["Knights, cavalry"] == ('4"', '+4"', '+2"', '8"')
    shooting = {r[0]: r[2] for r in sheet.table("shooting").rows}
    assert shooting["Bowmen"] == '2BW = 8"'
    assert shooting["Brigans (javelins)"] == 'BW = 4"'
    assert ("Base width", 'BW 4", BD 2"') in sheet.settings


def test_feudal_fractional_base_width_stays_exact():
    sheet = qrs_sheet("feudal-2017", None, options={"base_width_in": 4.5})
    rows = {r[1]: r[2:] for r in sheet.table("movement").rows}
    assert rows["Serjeants, freemen, bowmen"] == ('2.25"', '+2.25"', '+2.25"', '4.5"')
    assert 'Bow marshal: 3BW = 13.5"' in sheet.table("shooting").note


@settings(max_examples=60, deadline=None)
@given(quarters=st.integers(min_value=8, max_value=32))
def test_feudal_movement_is_bd_and_bw_for_any_base_width(quarters):
    bw = Fraction(quarters, 4)
    sheet = qrs_sheet("feudal-2017", None, options={"base_width_in": float(bw)})
    bd = bw / 2
    expected = {
        "Serjeants, freemen, bowmen": (bd, bd, bd),
        "Brigans": (bw, bd, bd),
        "Mounted brigans (no woods)": (bw, bw, bd),
        "Knights, cavalry": (bw, bw, bd),
    }
    for row in sheet.table("movement").rows:
        move, fast, road = expected[row[1]]
        assert row[2:] == (
            inches(move),
            f"+{inches(fast)}",
            f"+{inches(road)}",
            inches(move + fast),
        )


def test_feudal_diced_movement_replaces_the_base_width_table():
    sheet = qrs_sheet("feudal-2017", None, options={"diced_movement": True, "dice": "d5"})
    rows = {r[1]: r[2:] for r in sheet.table("movement").rows}
    assert rows["Knights, cavalry"] == ('9"', '+d5"', '+3"')
    assert {r[0]: r[2] for r in sheet.table("shooting").rows}["Bowmen"] == '12"'
    assert any("Diced movement" in item for item in sheet.section("optional").items)


_INCH = re.compile(r'(?<![d\d.])(\d+(?:\.\d+)?)"')  # 6" but not the dice of 3d6"


def test_into_the_dark_15mm_halves_every_distance_on_the_sheet():
    full = qrs_sheet("into-the-dark", None, options={"figure_scale": "25mm"}).text()
    half = qrs_sheet("into-the-dark", None, options={"figure_scale": "15mm"}).text()
    big = [Fraction(n) for n in _INCH.findall(full)]
    small = [Fraction(n) for n in _INCH.findall(half)]
    assert len(big) == len(small) > 20
    assert small == [n / 2 for n in big]


def test_dewitt_15mm_halves_moves_per_impulse():
    sheet = qrs_sheet("dewitt-medieval", None, options={"figure_scale": "15mm"})
    assert [r[2] for r in sheet.table("movement").rows] == ['2"', '1.5"', '1.5"', '1"']


def test_dewitt_table_x_column_is_left_blank_for_the_players():
    table = qrs_sheet("dewitt-medieval", None).table("table-x")
    assert all(row[1] == "" for row in table.rows)
    assert "SS (as printed)" in [row[0] for row in table.rows]


def test_dewitt_siege_rules_print_only_when_asked_for():
    assert "siege" not in {s.key for s in qrs_sheet("dewitt-medieval", None).sections()}
    with_siege = qrs_sheet("dewitt-medieval", None, extras=["siege"])
    assert "Fire arrows" in with_siege.section("siege").text()
    with pytest.raises(KeyError, match="siege"):
        qrs_sheet("into-the-dark", None, extras=["siege"])


def test_d5_sheet_prints_the_die_the_army_chose():
    d5 = qrs_sheet("dark-ages-d5", None)
    d6 = qrs_sheet("dark-ages-d5", None, options={"dice": "d6"})
    assert d5.table("movement").rows[0][2] == '1d5+2"'
    assert d6.table("movement").rows[0][2] == '1d6+2"'
    assert {r[0]: r[1] for r in d6.table("melee").rows}["Warriors (warband)"] == "d6+1"


def test_2015_optional_rules_print_only_when_switched_on():
    on = qrs_sheet("dark-ages-2015", None)
    off = qrs_sheet("dark-ages-2015", None, options={"personalities": False})
    assert "Personalities" in on.section("optional").text()
    assert "Personalities" not in off.section("optional").text()
    assert "personalities" not in {s.key for s in off.army}
    levy_off = qrs_sheet("dark-ages-2015", None, options={"variable_quality": False})
    assert levy_off.table("elimination").rows == (("Standard", "15 hits"),)


def test_army_sheet_adds_the_stat_lines_of_the_units_it_fields():
    source = parsed(example("into-the-dark-source-examples.json"))
    sheet = qrs_sheet("into-the-dark", source)
    table = sheet.table("army-stat-lines")
    names = [row[0] for row in table.rows]
    assert names == ["Town Militia", "Knights", "Combat Archers", "Champion"]
    assert table.columns[:3] == ("Unit", "Code", "Move")
    assert table.rows[1][1:3] == ("LMM", '12"')
    assert sheet.army_name == source.name


def test_units_with_the_same_stat_line_share_one_row():
    doc = army("into-the-dark", [ITD_UNIT, ITD_UNIT, dict(ITD_UNIT, name="Fyrd")])
    rows = qrs_sheet("into-the-dark", parsed(doc)).table("army-stat-lines").rows
    assert len(rows) == 1
    assert rows[0][0] == "Town Militia \u00d72, Fyrd"


def test_army_sheet_lists_only_the_special_troops_it_fields():
    archers = dict(ITD_UNIT, name="Archers", training="missile", missile_weapon="longbow")
    sheet = qrs_sheet("into-the-dark", parsed(army("into-the-dark", [archers])))
    text = sheet.section("special-troops").text()
    assert 'Longbow: close 8", long 24"' in text
    assert "Pike" not in text and "Champions" not in text
    plain = qrs_sheet("into-the-dark", parsed(army("into-the-dark", [ITD_UNIT])))
    assert "special-troops" not in {s.key for s in plain.army}


def test_army_sheet_uses_the_army_options_for_distances():
    doc = army("into-the-dark", [ITD_UNIT], options={"figure_scale": "15mm"})
    sheet = qrs_sheet("into-the-dark", parsed(doc))
    assert sheet.table("movement").rows[0][1] == '3"'
    assert sheet.table("army-stat-lines").rows[0][2] == '3"'


def test_feudal_army_sheet_names_the_force_matrix_row_it_fits():
    sheet = qrs_sheet("feudal-2017", parsed(example("feudal-2017-roll-4.json")))
    assert sheet.table("force-matrix").rows == (("4", "4", "1", "0", "1"),)
    personalities = sheet.section("personalities").text()
    assert "Knight errant with banner" in personalities
    assert "Bow marshal" not in personalities


def test_qrs_for_another_rulesets_army_is_refused():
    with pytest.raises(ValueError, match="into-the-dark"):
        qrs_sheet("feudal-2017", parsed(army("into-the-dark", [ITD_UNIT])))
    with pytest.raises(KeyError):
        qrs_sheet("chess", None)
