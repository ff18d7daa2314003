"""Feudal 2017 troop types: the tables every unit reads (movement, mêlée, shooting, hits),
the built-in copy of the ``feudal`` list and the small helpers the rule set, its list
entries and its QRS share. A module of its own so the list entries need not import the
rule set that uses them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.base import Unit

UNIT_TYPES = (
    ("knights", "Knights"),
    ("serjeants", "Serjeants"),
    ("freemen", "Freemen"),
    ("bowmen", "Bowmen"),
    ("brigans", "Brigans"),
    ("brigans_bows", "Brigans with bows or crossbows"),
    ("mounted_brigans", "Mounted brigans"),
    ("cavalry", "Cavalry"),
)
TYPE_NAME = dict(UNIT_TYPES)
# the types an army list's columns and replacements name; brigans with bows and mounted
# brigans are brigans armed otherwise ("Alternative Troop Types") and count as brigans
MATRIX_TYPES = ("knights", "serjeants", "freemen", "bowmen", "brigans", "cavalry")
COUNTS_AS = {"brigans_bows": "brigans", "mounted_brigans": "brigans"}

# movement class (2.1): 1 serjeants/freemen/bowmen, 2 brigans, 3 knights (and cavalry)
MOVE_CLASS = {
    "serjeants": 1,
    "freemen": 1,
    "bowmen": 1,
    "brigans": 2,
    "brigans_bows": 2,
    "mounted_brigans": 2,
    "knights": 3,
    "cavalry": 3,
}
MELEE_BASE = {
    "knights": 2,
    "serjeants": 0,
    "freemen": 0,
    "bowmen": -2,
    "brigans": -2,
    "brigans_bows": -2,
    "mounted_brigans": -2,
    "cavalry": 0,
}
# type -> (missile, range in BW, phase, modifier); 1.1, 1.2a, Alternative Troop Types
SHOOTING = {
    "bowmen": ("bows", 2, 1, 0),
    "brigans": ("javelins", 1, 2, -2),
    "brigans_bows": ("bows", 2, 1, -2),
    "mounted_brigans": ("javelins", 1, 2, -2),
    "cavalry": ("javelins", 1, 2, -2),
}
DICED_MOVE = {1: 3, 2: 6, 3: 9}
DICED_RANGE = {"bows": 12, "javelins": 6}
TURNS = {
    1: "once, at the start of the move",
    2: "twice: at the start and at the end of the move",
    3: "once, at the start or at the end of the move",
}
HITS = {None: 15, "determined": 18, "unenthusiastic": 12}
SIX_HITS = {None: 6, "determined": 7, "unenthusiastic": 5}
# The opposite pairs the source names ("Determined / Unenthusiastic: 18 Hits / 12 Hits",
# "Mêlée +1 / -1, Shoot +1 / -1", "Extra Missiles for 4 Shots total" against "only have 3
# shots"): on one unit they net out on their axis, as if the unit had neither.
OPPOSITES = {
    "determined": "unenthusiastic",
    "melee_plus": "melee_minus",
    "shoot_plus": "shoot_minus",
    "extra_missiles": "three_shots",
}
MODIFIER_CAP = 2
BALANCE_TYPE = {"mounted_serjeants": "knights", "unwilling_levy": "freemen"}
WOODS_TYPES = ("freemen", "bowmen")
PERSONALITY_NOTE = {
    "knight_errant": "knight errant: +1 hit in mêlée",
    "constable": "constable: may rally even if it moved",
    "horse_marshal": "horse marshal: an extra turn at the end of its move",
    "bow_marshal": "bow marshal: bows reach a further BW",
    "brabanter": "brabanter: may re-roll its hit dice (the new roll stands)",
    "priest": "priest: once, rallies Dx bonus hits, then leaves",
    "strategos": "strategos: once per game, +3 to seize the initiative",
}
HORSE_MARSHAL_TYPES = ("knights", "cavalry")

DEFAULT_LIST_SLUG = "feudal"
# The built-in copy of the `feudal` list (fixtures/feudal-2017.json holds the same data),
# used when a document names no list and the database has none.
DEFAULT_LIST: Mapping[str, Any] = {
    "columns": {"core": "knights", "t1": "bowmen", "t2": "brigans", "t3": "freemen"},
    "replacements": [],
    "schiltrons": False,
    "extra_terrain": "",
    "notes": [
        "Knights may dismount before a game, becoming a serjeants unit; they may not "
        "remount, and still count as knights in the force matrix.",
        "One bowmen unit may shoot at Dx+1 as mercenary crossbows. Balance it by making "
        "one knights unit mêlée Dx+1 as mounted serjeants, or one freemen unit mêlée Dx-1 "
        "as unwilling levy.",
    ],
}
LIST_KEYS = ("columns", "replacements", "schiltrons", "extra_terrain", "notes")

MATRIX_RULE = "Feudal Force Matrix"
PERSONALITY_RULE = "Personalities"
# "A Banner is an upgrade to any personality above" (Personalities): the five listed before
# it; the Christian Priest comes after it and the Strategos belongs to the Initiative rule.
BANNER_PERSONALITIES = ("knight_errant", "constable", "horse_marshal", "bow_marshal", "brabanter")
ADVANTAGE_RULE = "Advantages and Disadvantages"


def inches(value: Fraction | int) -> str:
    """Inches for the roster: at most two decimals (half up), no trailing zeros."""
    hundredths = math.floor(Fraction(value) * 100 + Fraction(1, 2))
    whole, part = divmod(abs(hundredths), 100)
    sign = "-" if hundredths < 0 else ""
    text = f"{sign}{whole}" if part == 0 else f"{sign}{whole}.{part:02d}".rstrip("0")
    return f'{text}"'


def dice(die: str, modifier: int) -> str:
    return die if modifier == 0 else f"{die}{modifier:+d}"


def attack_dice(modifier: int) -> str:
    """6-hit variant: Dx+2 three dice, Dx two, Dx-2 one; a bit inferior hits on 4+."""
    if modifier >= 2:
        count, target = 3, 3
    elif modifier == 1:
        count, target = 3, 4
    elif modifier == 0:
        count, target = 2, 3
    elif modifier == -1:
        count, target = 2, 4
    else:
        count, target = 1, 3 if modifier == -2 else 4
    return f"{count} attack {'die' if count == 1 else 'dice'}, hit on {target}+"


def matrix_type(unit: Unit) -> str:
    """The type a unit counts as in the force matrix (dismounted knights are knights)."""
    if unit["dismounted"]:
        return "knights"
    return COUNTS_AS.get(unit["type"], unit["type"])


def modifications_cancel(unit: Unit) -> bool:
    """True when the unit's advantage and disadvantage are an opposite pair."""
    disadvantage = unit["disadvantage"]
    return disadvantage is not None and OPPOSITES.get(unit["advantage"]) == disadvantage


def toughness(unit: Unit) -> str | None:
    """determined, unenthusiastic or None (15 hits): the pair on one unit nets out."""
    if modifications_cancel(unit):
        return None
    if unit["advantage"] == "determined":
        return "determined"
    if unit["disadvantage"] == "unenthusiastic":
        return "unenthusiastic"
    return None


def melee_modifier(unit: Unit) -> int:
    modifier = MELEE_BASE[unit["type"]]
    if unit["balance"] is not None:
        modifier -= 1  # mounted serjeants Dx+1 (knights +2), unwilling levy Dx-1
    if unit["advantage"] == "melee_plus":
        modifier += 1
    if unit["disadvantage"] == "melee_minus":
        modifier -= 1
    return modifier


def shooting_modifier(unit: Unit) -> int | None:
    """None for units that do not shoot."""
    if unit["type"] not in SHOOTING:
        return None
    modifier = SHOOTING[unit["type"]][3]
    if unit["mercenary_crossbows"]:
        modifier += 1
    if unit["advantage"] == "shoot_plus":
        modifier += 1
    if unit["disadvantage"] == "shoot_minus":
        modifier -= 1
    return modifier


def banner_fault(kind: str, type_name: str, personality: str | None) -> str | None:
    """Why a banner cannot be on this unit (one reason: the first that applies), or None."""
    if kind not in ("knights", "serjeants"):
        return f"a banner must stay with knights or serjeants, not {type_name}"
    if not personality:
        return "a banner is an upgrade to a personality; give the unit one"
    if personality not in BANNER_PERSONALITIES:
        shown = personality.replace("_", " ")
        return (
            f"a banner is an upgrade to a knight errant, constable, horse marshal, bow marshal "
            f"or brabanter, not a {shown}"
        )
    return None
