"""Feudal 2017 stat lines: what a unit moves, fights, shoots and takes, as a player reads it
on the roster (Move 2.x, Mêlée 3.x, Shoot 1.x, the 6-Hit variant and the optional rules).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.base import Army, Unit
from rules.fields import exact_number
from rules.rulesets.feudal_2017.troops import (
    DICED_MOVE,
    DICED_RANGE,
    HITS,
    MOVE_CLASS,
    PERSONALITY_NOTE,
    SHOOTING,
    SIX_HITS,
    TURNS,
    attack_dice,
    dice,
    inches,
    melee_modifier,
    modifications_cancel,
    shooting_modifier,
    toughness,
)


def unit_die(unit: Unit, army: Army) -> str:
    """The die a unit rolls: d6 for an untrained unit under the trained-units option."""
    options = army.options
    if options["trained_units"] and not unit["trained"]:
        return "d6"
    return options["dice"]


def stat_line(unit: Unit, army: Army, list_in_force: Mapping[str, Any]) -> dict[str, Any]:
    """The roster stat line of one unit; ``list_in_force`` is the army list it is read
    under (a serjeants unit forms schiltrons where its list says so)."""
    options = army.options
    bw = exact_number(options["base_width_in"])
    bd = bw / 2
    kind = unit["type"]
    move_class = MOVE_CLASS[kind]
    die = unit_die(unit, army)
    diced = options["diced_movement"]
    six_hit = options["six_hit_variant"]

    if diced:
        move, fast, road = inches(DICED_MOVE[move_class]), f'+{die}"', "+" + inches(3)
    else:
        fast_bonus = bw if move_class == 3 or kind == "mounted_brigans" else bd
        move = inches(bd if move_class == 1 else bw)
        fast, road = "+" + inches(fast_bonus), "+" + inches(bd)
    turns = TURNS[move_class]
    if unit["personality"] == "horse_marshal":
        turns += "; a further turn at the end (horse marshal)"
    melee = melee_modifier(unit)
    stats: dict[str, Any] = {
        "class": str(move_class),
        "move": move,
        "fast": fast,
        "road": road,
        "turns": turns,
        "melee": attack_dice(melee) if six_hit else dice(die, melee),
    }
    shooting = shooting_modifier(unit)
    if shooting is not None:
        missile, reach, phase, _ = SHOOTING[kind]
        distance = DICED_RANGE[missile] if diced else reach * bw
        if unit["personality"] == "bow_marshal":
            distance += bw
        roll = attack_dice(shooting) if six_hit else dice(die, shooting)
        stats["shooting"] = f"{missile} {inches(distance)} in phase {phase}, {roll}"
        stats["shots"] = shots(unit, army)
    hardiness = toughness(unit)
    if six_hit:
        stats["hits"] = f"{SIX_HITS[hardiness]} (removed above {SIX_HITS[hardiness]})"
    else:
        stats["hits"] = f"{HITS[hardiness]} (removed at {HITS[hardiness]})"
    if kind == "serjeants":
        schiltron = list_in_force.get("schiltrons") and not unit["dismounted"]
        stats["defence"] = (
            "schiltron: halves mêlée hits, not shooting hits"
            if schiltron
            else "armoured: halves mêlée and shooting hits"
        )
    unit_notes = notes(unit, army)
    if unit_notes:
        stats["notes"] = "; ".join(unit_notes)
    return stats


def shots(unit: Unit, army: Army) -> str:
    """3 shots; 4 well supplied or with extra missiles; "only 3 shots" takes a unit back
    to 3; out on a natural 5 (the supply variant) or a 5-6 (the disadvantage). Extra
    missiles with "only 3 shots" net out: the army's own supply."""
    cancelled = modifications_cancel(unit)
    supply = army.options["missile_supply"]
    limit: str | None = "4" if supply == "four_shots" else "3"
    roll = None
    if supply == "natural_5":
        limit, roll = None, "5"
    if unit["disadvantage"] == "runs_out_5_6":
        limit, roll = None, "5 or 6"
    if unit["disadvantage"] == "three_shots" and not cancelled:
        limit, roll = "3", None
    if unit["advantage"] == "extra_missiles" and not cancelled:
        limit = "4"
    if roll is None:
        return limit or "3"
    if limit is None:
        return f"until a natural {roll}"
    return f"{limit}, or until a natural {roll}"


def notes(unit: Unit, army: Army) -> list[str]:
    kind = unit["type"]
    notes = []
    if unit["dismounted"]:
        notes.append("dismounted knights: may not remount")
    if unit["mercenary_crossbows"]:
        notes.append("mercenary crossbows")
    if unit["balance"] == "mounted_serjeants":
        notes.append("mounted serjeants (balances the crossbows)")
    elif unit["balance"] == "unwilling_levy":
        notes.append("unwilling levy (balances the crossbows)")
    if unit["personality"]:
        notes.append(PERSONALITY_NOTE[unit["personality"]])
    if unit["banner"]:
        notes.append("banner: may rally despite an attacked marker")
    if kind in ("brigans", "brigans_bows") or unit["advantage"] == "woods":
        notes.append("may enter woods")
    if kind == "mounted_brigans":
        notes.append("cannot enter woods")
    if kind in ("brigans", "mounted_brigans", "brigans_bows"):
        notes.append("charges only a flank or rear, and only if it did not shoot")
    if kind == "bowmen":
        notes.append("charges only when out of missiles")
    if unit["advantage"] == "impetuous":
        notes.append('impetuous: may charge up to 3" farther, taking a hit per inch or part')
    if army.options["trained_units"] and unit["trained"]:
        notes.append(f"trained: rolls {army.options['dice']}")
    if army.options["tired_units"]:
        notes.append("tired past ten hits: -1 to all rolls")
    return notes
