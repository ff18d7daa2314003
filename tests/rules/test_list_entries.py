"""RuleSet.list_entries and RuleSet.allowed_values: the army list as the picker shows it.

Per rule set: the entries of a list, their counts once units are added, costs equal to the
engine's, the values allowed for a unit of an entry (by the list and by the rule set), and
the "matches no entry" message naming the field and the values the nearest entry allows.
"""

from typing import Any

import pytest

import rules
from rules import Allowed, EntryStatus, get_ruleset
from tests.rules.into_the_dark.test_into_the_dark_lists import LEGAL
from tests.support import army, example, fixture_lists

ITD = "into-the-dark"
LIST_RULESETS = ("into-the-dark", "dark-ages-2015", "dark-ages-d5", "feudal-2017")


def parsed(ruleset: str, units: list[dict[str, Any]], **top: Any) -> rules.Army:
    return rules.parse_document(army(ruleset, units, **top), fixture_lists)


def by_key(entries: tuple[EntryStatus, ...]) -> dict[str, EntryStatus]:
    return {e.key: e for e in entries}


def entries_for(ruleset: str, slug: str, units: list[dict[str, Any]] | None = None, **top: Any):
    rs = get_ruleset(ruleset)
    data = fixture_lists(ruleset)[slug]
    if units is None:
        return rs.list_entries(data, None)
    return rs.list_entries(data, parsed(ruleset, units, army_list=slug, **top))


# -- the interface ---------------------------------------------------------------------------


def test_entry_status_says_how_many_are_still_required_and_remaining():
    entry = EntryStatus("k", "K", {"name": "K"}, None, have=1, minimum=3, maximum=4)
    assert (entry.still_required, entry.remaining) == (2, 3)
    full = EntryStatus("k", "K", {"name": "K"}, None, have=5, minimum=3, maximum=4)
    assert (full.still_required, full.remaining) == (0, 0)
    open_ended = EntryStatus("k", "K", {"name": "K"}, None, have=7, minimum=0, maximum=None)
    assert open_ended.remaining is None


def test_a_rule_set_without_lists_has_no_entries_and_restricts_nothing():
    dewitt = get_ruleset("dewitt-medieval")
    assert dewitt.list_entries(None, None) == ()
    assert dewitt.allowed_values(None, {"name": "Knights"}) == {}


@pytest.mark.parametrize("ruleset", ("into-the-dark", "dark-ages-2015", "dark-ages-d5"))
def test_without_a_list_there_are_no_entries(ruleset):
    assert get_ruleset(ruleset).list_entries(None, None) == ()


@pytest.mark.parametrize("ruleset", LIST_RULESETS)
def test_every_list_gives_entries_whose_values_parse_as_a_unit(ruleset):
    rs = get_ruleset(ruleset)
    names = {f.name for f in rs.unit_fields}
    for slug, data in fixture_lists(ruleset).items():
        entries = rs.list_entries(data, None)
        assert entries, slug
        assert len({e.key for e in entries}) == len(entries), slug
        for entry in entries:
            assert set(entry.values) <= names and entry.values["name"]
            assert entry.have == 0 and entry.minimum >= 0
            assert entry.maximum is None or entry.maximum >= entry.minimum
            document = army(ruleset, [dict(entry.values)], army_list=slug)
            rules.parse_document(document, fixture_lists)  # raises if it does not parse


# -- Into the Dark -------------------------------------------------------------------------


def test_into_the_dark_entries_are_the_list_entries_in_order_with_their_limits():
    entries = entries_for(ITD, "anglo-danish-1066")
    assert [(e.key, e.label, e.minimum, e.maximum) for e in entries] == [
        ("huscarls", "Huscarls", 1, 3),
        ("select-fyrd", "Select fyrd", 2, 6),
        ("great-fyrd", "Great fyrd", 0, 4),
        ("archers", "Fyrd archers and javelinmen", 0, 2),
        ("champion", "Thegn champion", 0, 1),
    ]
    huscarls = entries[0]
    assert huscarls.values["quality"] == "elite" and huscarls.values["armour"] == "armoured"
    assert "Dane axes" in huscarls.note


def test_into_the_dark_champion_entry_starts_as_one_open_figure():
    champion = by_key(entries_for(ITD, "anglo-danish-1066"))["champion"]
    assert champion.values["champion"] is True
    assert champion.values["figures"] == 1 and champion.values["density"] == "open"


@pytest.mark.parametrize("slug", sorted(fixture_lists(ITD)))
def test_into_the_dark_entry_costs_are_the_engines_points(slug):
    for entry in entries_for(ITD, slug):
        _, report = rules.check_document(army(ITD, [dict(entry.values)]), fixture_lists)
        assert entry.cost == report.units[0].points
        assert isinstance(entry.cost, int) and entry.cost > 0


def test_into_the_dark_costs_follow_the_armys_units_not_a_fixed_number():
    huscarls = by_key(entries_for(ITD, "anglo-danish-1066"))["huscarls"]
    # 12 figures x (elite 4 + armoured 2) + command 4 x 10
    assert huscarls.cost == 12 * 6 + 40


def test_into_the_dark_counts_units_against_entries_after_adding_them():
    units = [
        {"name": "Huscarls 1", "quality": "elite", "armour": "mailed"},
        {"name": "Huscarls 2", "quality": "elite", "armour": "armoured"},
        {"name": "Fyrd", "armour": "protected"},
        {"name": "Mounted thegns", "mounted": True},
    ]
    entries = by_key(entries_for(ITD, "anglo-danish-1066", units))
    assert entries["huscarls"].have == 2 and entries["huscarls"].remaining == 1
    assert entries["select-fyrd"].have == 1 and entries["select-fyrd"].still_required == 1
    assert entries["great-fyrd"].have == 0
    assert sum(e.have for e in entries.values()) == 3  # the mounted unit fits no entry


def test_into_the_dark_a_unit_fitting_two_entries_fills_the_one_still_required():
    overlap = {
        "entries": [
            {"key": "any", "name": "Any foot", "match": {"mounted": [False]}, "max": 3},
            {"key": "elite", "name": "Elite foot", "match": {"quality": ["elite"]}, "min": 1},
        ]
    }
    rs = get_ruleset(ITD)
    elite = {"name": "Guard", "quality": "elite"}
    first = rs.list_entries(overlap, rules.parse_document(army(ITD, [elite])))
    assert [e.have for e in first] == [0, 1]  # the elite unit fills the minimum
    both = rs.list_entries(overlap, rules.parse_document(army(ITD, [elite, {"name": "Spears"}])))
    assert [e.have for e in both] == [1, 1]


@pytest.mark.parametrize("slug", sorted(LEGAL))
def test_into_the_dark_legal_armies_have_every_entry_within_its_limits(slug):
    entries = entries_for(ITD, slug, LEGAL[slug])
    for entry in entries:
        assert entry.minimum <= entry.have, entry
        assert entry.maximum is None or entry.have <= entry.maximum, entry
    assert sum(e.have for e in entries) == len(LEGAL[slug])


def test_into_the_dark_allowed_values_for_a_huscarls_unit_are_the_entrys():
    rs = get_ruleset(ITD)
    data = fixture_lists(ITD)["anglo-danish-1066"]
    unit = parsed(ITD, [dict(by_key(rs.list_entries(data, None))["huscarls"].values)]).units[0]
    allowed = rs.allowed_values(data, unit)
    assert allowed["armour"] == Allowed(
        ("armoured", "mailed"), "Huscarls: armour armoured or mailed only"
    )
    assert allowed["melee_weapon"].values == ("hand", "polearm")
    assert allowed["mounted"].values == (False,)
    assert "mounted is not allowed" in allowed["mounted"].reason
    # elite for Huscarls, average for Select fyrd: either keeps the unit in the list
    assert allowed["quality"].values == ("average", "elite")
    assert "figures" not in allowed and "name" not in allowed


def test_into_the_dark_rules_restrict_a_mounted_units_weapons_without_a_list():
    rs = get_ruleset(ITD)
    unit = parsed(ITD, [{"name": "Horse archers", "mounted": True, "training": "missile",
                         "missile_weapon": "mounted_bow"}]).units[0]  # fmt: skip
    allowed = rs.allowed_values(None, unit)
    assert allowed["missile_weapon"].values == ("mounted_bow", "javelin")
    assert allowed["shieldwall"].values == (False,)
    assert allowed["warband"].values == (False,)
    assert "pike" not in allowed["melee_weapon"].values


def test_into_the_dark_no_entry_message_names_the_field_and_the_allowed_values():
    unit = {"name": "Huscarls", "quality": "elite", "armour": "unarmoured"}
    _, report = rules.check_document(
        army(ITD, [unit], army_list="anglo-danish-1066"), fixture_lists
    )
    issue = next(i for i in report.issues if i.code == "not-in-army-list")
    assert issue.unit == 0
    assert issue.message == (
        "Huscarls: matches no troop entry of this army list — armour 'unarmoured' is not "
        "allowed for Huscarls (allowed: armoured, mailed)."
    )


def test_into_the_dark_a_unit_matching_no_entry_is_restricted_to_the_nearest_entry():
    rs = get_ruleset(ITD)
    data = fixture_lists(ITD)["anglo-danish-1066"]
    unit = parsed(ITD, [{"name": "Huscarls", "quality": "elite", "armour": "unarmoured"}])
    allowed = rs.allowed_values(data, unit.units[0])
    assert allowed["armour"].values == ("armoured", "mailed")
    assert allowed["armour"].reason.startswith("nearest list entry Huscarls")


# -- Dark Ages 2015 and d5 -------------------------------------------------------------------


def da_unit(name: str, type_: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "type": type_, **fields}


def test_dark_ages_entries_are_required_units_then_choices():
    entries = entries_for("dark-ages-2015", "sub-roman-british")
    first = entries[0]
    assert (first.key, first.minimum, first.maximum, first.cost) == ("infantry", 3, 3, None)
    assert first.note.startswith("required")
    choices = [e for e in entries if e.note.startswith("a choice")]
    assert choices and all(e.minimum == 0 for e in choices)
    assert "2 support in all" in choices[0].note


# A six-unit list of the Dark Ages format whose choice overlaps a required unit.
SHIELDWALL = {
    "required": [
        {"key": "infantry", "name": "Shieldwall", "match": {"type": ["infantry"]}, "count": 3},
        {"key": "horse", "name": "Horse", "match": {"type": ["cavalry"]}, "count": 1},
    ],
    "choices": [
        {"key": "support", "name": "support", "pick": 2, "options": [
            {"key": "more-infantry", "name": "More shieldwall", "match": {"type": ["infantry"]},
             "max": 1},
            {"key": "bows", "name": "Bows", "match": {"type": ["skirmishers"]}, "max": 2},
        ]},
    ],
}  # fmt: skip


@pytest.mark.parametrize("ruleset", ("dark-ages-2015", "dark-ages-d5"))
def test_dark_ages_counts_are_where_the_list_check_places_units(ruleset):
    rs = get_ruleset(ruleset)
    assert rs.validate_army_list(SHIELDWALL) == []
    units = [da_unit(f"Shieldwall {n}", "infantry") for n in range(4)]
    entries = by_key(rs.list_entries(SHIELDWALL, rules.parse_document(army(ruleset, units))))
    # three fill the required infantry; the fourth is a "more infantry" choice
    assert entries["infantry"].have == 3 and entries["infantry"].remaining == 0
    assert entries["more-infantry"].have == 1 and entries["more-infantry"].remaining == 0
    assert entries["horse"].still_required == 1
    # the other option keeps the one pick left of the group's two
    assert entries["bows"].maximum == 1 and entries["bows"].remaining == 1


def test_dark_ages_a_full_choice_group_leaves_no_room_in_its_other_options():
    units = [
        da_unit("Militia", "infantry", variant="roman_militia"),
        da_unit("Archers", "skirmishers", missile="bow"),
    ]
    entries = by_key(entries_for("dark-ages-2015", "sub-roman-british", units))
    assert entries["militia"].have == 1 and entries["bows"].have == 1
    assert entries["javelins"].maximum == 0 and entries["javelins"].remaining == 0
    assert entries["militia"].remaining == 0


def test_dark_ages_2015_double_army_doubles_every_number():
    entries = entries_for("dark-ages-2015", "sub-roman-british", [], options={"army_size": 12})
    assert by_key(entries)["infantry"].minimum == 6
    assert "4 support in all" in by_key(entries)["militia"].note


def test_dark_ages_d5_allies_count_against_no_entry_of_the_host_list():
    units = [
        da_unit("Spears", "infantry"),
        da_unit("Allied spears", "infantry", ally="anglo-saxon"),
    ]
    entries = by_key(entries_for("dark-ages-d5", "north-welsh", units))
    assert entries["infantry"].have == 1


def test_dark_ages_allowed_values_for_a_list_unit_and_by_the_rules():
    rs = get_ruleset("dark-ages-2015")
    data = fixture_lists("dark-ages-2015")["sub-roman-british"]
    arthur = by_key(rs.list_entries(data, None))["arthur"]
    unit = parsed("dark-ages-2015", [dict(arthur.values)]).units[0]
    allowed = rs.allowed_values(data, unit)
    assert "arthurs_cavalry" in allowed["variant"].values
    assert None not in allowed["variant"].values
    assert allowed["quality"].values == ("elite",)
    infantry = parsed("dark-ages-2015", [da_unit("Spears", "infantry")]).units[0]
    assert rs.allowed_values(None, infantry)["missile"].values == (None,)
    assert rs.allowed_values(None, infantry)["banner"].values == (False,)


def test_dark_ages_d5_fixed_units_take_no_change_and_the_attack_cap_holds():
    rs = get_ruleset("dark-ages-d5")
    data = fixture_lists("dark-ages-d5")["sub-roman-british"]
    knights = parsed("dark-ages-d5", [da_unit("Knights", "cavalry", missile="javelin",
                                              variant="roundtable_knights")]).units[0]  # fmt: skip
    allowed = rs.allowed_values(data, knights)
    assert allowed["change"].values == (None,)
    assert "fixed" in allowed["change"].reason
    # without the list only the cap bites: +2 knights may not become household (+3)
    capped = rs.allowed_values(None, knights)["change"]
    assert "household" not in capped.values and "levy" in capped.values


@pytest.mark.parametrize("ruleset", ("dark-ages-2015", "dark-ages-d5"))
def test_dark_ages_no_entry_message_names_the_field_and_the_allowed_values(ruleset):
    warband = "warband" if ruleset == "dark-ages-2015" else "warriors"
    report = parsed_report(ruleset, [da_unit("Wild men", warband)], "sub-roman-british")
    issue = next(i for i in report.issues if i.code == "choice-not-allowed")
    assert f"type '{warband}' is not allowed for" in issue.message
    assert "(allowed: infantry)" in issue.message


def parsed_report(ruleset: str, units: list[dict[str, Any]], slug: str) -> rules.Report:
    return rules.check_document(army(ruleset, units, army_list=slug), fixture_lists)[1]


# -- Feudal ---------------------------------------------------------------------------------


def test_feudal_entries_are_the_columns_with_the_matrix_counts():
    entries = entries_for("feudal-2017", "feudal")
    assert [(e.key, e.label, e.minimum, e.maximum) for e in entries[:4]] == [
        ("core", "Knights", 1, 4),
        ("t1", "Bowmen", 1, 2),
        ("t2", "Brigans", 0, 2),
        ("t3", "Freemen", 0, 2),
    ]
    alternatives = [e.key for e in entries[4:]]
    assert alternatives == ["dismounted-knights", "brigans-bows", "mounted-brigans"]
    assert by_key(entries)["dismounted-knights"].values["dismounted"] is True


def test_feudal_without_a_list_gives_the_default_lists_entries():
    rs = get_ruleset("feudal-2017")
    assert [e.key for e in rs.list_entries(None, None)][:4] == ["core", "t1", "t2", "t3"]


def test_feudal_replacements_are_entries_with_their_limit():
    entries = by_key(entries_for("feudal-2017", "north-welsh"))
    assert entries["freemen-as-serjeants"].maximum == 1
    # a stand-in takes a freemen slot: at most the 4 of the core column
    assert entries["freemen-as-brigans"].maximum == 4
    assert "one freemen may be serjeants" in entries["freemen-as-serjeants"].note


def test_feudal_counts_the_roll_4_army_in_row_4():
    units = example("feudal-2017-roll-4.json")["units"]
    entries = by_key(entries_for("feudal-2017", "feudal", units))
    assert [entries[c].have for c in ("core", "t1", "t2", "t3")] == [4, 1, 0, 1]
    assert entries["dismounted-knights"].have == 1


def test_feudal_dismounted_is_offered_to_serjeants_only():
    rs = get_ruleset("feudal-2017")
    freemen = parsed("feudal-2017", [{"name": "Levy", "type": "freemen"}]).units[0]
    allowed = rs.allowed_values(None, freemen)
    assert allowed["dismounted"].values == (False,)
    assert allowed["dismounted"].reason.startswith("serjeants only")
    assert allowed["mercenary_crossbows"].values == (False,)
    assert allowed["balance"].values == (None, "unwilling_levy")
    serjeants = parsed("feudal-2017", [{"name": "Foot", "type": "serjeants"}]).units[0]
    assert "dismounted" not in rs.allowed_values(None, serjeants)


def test_feudal_list_offers_only_the_types_it_fields():
    rs = get_ruleset("feudal-2017")
    data = fixture_lists("feudal-2017")["anglo-irish"]
    unit = parsed("feudal-2017", [{"name": "Kern", "type": "brigans"}]).units[0]
    allowed = rs.allowed_values(data, unit)["type"]
    assert allowed.values == ("knights", "freemen", "bowmen", "brigans", "brigans_bows",
                              "mounted_brigans")  # fmt: skip
    assert "serjeants" not in allowed.values and "cavalry" not in allowed.values
