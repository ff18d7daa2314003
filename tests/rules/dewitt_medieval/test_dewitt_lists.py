"""A player's Dewitt army list: allowed arm, class and weapons, stands and unit counts."""

from rules import check_document
from rules.registry import get_ruleset
from tests.support import DEWITT_ARCHER, DEWITT_KNIGHT, DEWITT_LIST, army

RULESET = get_ruleset("dewitt-medieval")
LIST = DEWITT_LIST
KNIGHT, ARCHER = DEWITT_KNIGHT, DEWITT_ARCHER


def codes(units):
    doc = army("dewitt-medieval", units, army_list="mine")
    _, report = check_document(doc, lambda ruleset: {"mine": LIST})
    return sorted(i.code for i in report.issues if i.severity == "error")


def test_the_list_validator_accepts_its_shape_and_names_the_field_at_fault():
    assert RULESET.validate_army_list(LIST) == []
    assert RULESET.validate_army_list(RULESET.list_shape().empty) == []
    bad = {"entries": [{**LIST["entries"][0], "match": {"arm": ["camel"]}}]}
    assert RULESET.validate_army_list(bad) == ["entries[0].match.arm: a list of its values"]
    stands = {"entries": [{**LIST["entries"][0], "min_stands": 4, "max_stands": 3}]}
    assert RULESET.validate_army_list(stands) == [
        "entries[0].max_stands: whole numbers with min_stands <= max_stands"
    ]


def test_an_army_within_the_list_is_legal():
    assert codes([KNIGHT, ARCHER]) == []


def test_a_weapon_class_or_stand_count_outside_every_entry_is_not_in_the_list():
    assert codes([KNIGHT, {**ARCHER, "weapons": ["crossbow"]}]) == ["not-in-army-list"]
    assert codes([KNIGHT, {**KNIGHT, "stands": 5}]) == ["not-in-army-list"]
    assert codes([KNIGHT, {**KNIGHT, "class": "medium"}]) == ["not-in-army-list"]


def test_entry_counts_are_checked():
    assert codes([ARCHER]) == ["army-list-min"]
    assert codes([KNIGHT, KNIGHT, KNIGHT]) == ["army-list-max"]


def test_the_entries_give_the_builders_tiles():
    tiles = RULESET.list_entries(LIST, None)
    assert [(t.label, t.minimum, t.maximum) for t in tiles] == [
        ("Knights", 1, 2),
        ("Archers", 0, 4),
    ]
    assert tiles[0].values == {"name": "Knights", "arm": "cavalry", "class": "heavy", "stands": 3}
