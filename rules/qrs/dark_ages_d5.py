"""Dark Age Wargame Rules, d5 revision QRS. Digest: spec/rulesets/dark-ages-d5.md.

Source: seeds/001 (Play Sequence, Movement, Terrain, Turning, Charging, Shooting, Melee,
Routs and Rallies, Optional Rules, Unit Definitions, Variations, Allied Forces). Every roll
prints with the die the army uses (``dice`` option: the d5 "average die" or a d6).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.base import Army
from rules.qrs import (
    Section,
    Sheet,
    Table,
    assemble_sheet,
    check_extras,
    die,
    personality_section,
    variant_section,
)

TITLE = "Dark Age Wargame Rules (d5 revision)"
SOURCE = "Dark Age Wargame Rules, later revision with d5 average dice"
EXTRAS: dict[str, str] = {}

VARIANTS = {
    "roman_militia": "Roman militia: infantry who melee at {d}−1.",
    "roman_cavalry": "Roman cavalry: better-equipped cavalry that shoot and melee at {d}.",
    "arthurs_cavalry": "Arthur's cavalry: as Roman cavalry, but {d}+1.",
    "roundtable_knights": "Round-table knights: Arthur's cavalry fighting at {d}+2.",
    "mounted_servants": "Mounted servants: javelin cavalry at {d}−2; may be upgraded when "
    "Arthur's cavalry is in play (then a second unit is downgraded).",
    "irish_nobles": "Irish nobles: javelin skirmishers fighting at {d}.",
    "scots_nobles": "Scots nobles: determined warriors at {d}+1 with 18 hits.",
    "viking_veterans": "Viking veterans: after deployment choose infantry or warriors.",
}
PERSONALITIES = {
    "hero": "Hero: +1 in shooting or melee.",
    "leader": "Leader: one extra Turn, at any time in the unit's move.",
    "banner": "Banner (upgrade of a hero or leader): a unit not in melee that has not moved "
    "or shot rallies off 1–3 hits ({d} halved, rounded up); counts as a personality.",
    "priest": "Christian priest: rallies off 2–4 hits ({d} halved, rounded up, +1).",
}


def build(options: Mapping[str, Any], army: Army | None, *, extras: tuple[str, ...] = ()) -> Sheet:
    check_extras(extras, EXTRAS)
    d = str(options.get("dice") or "d5")
    personalities = options.get("personalities", True)
    supply = options.get("missile_supply", "three_shots")
    rally_variation = options.get("rally_variation", False)
    removal = [
        ("Standard", "15 hits"),
        ("Determined (upgrade)", "18 hits"),
        ("Reluctant (downgrade)", "12 hits"),
    ]
    core = (
        Section(
            "Play sequence",
            items=(
                "Each player in turn, attacker first: 1) Movement, 2) Shooting, 3) Melee, "
                "4) Routs and rallies.",
                f"Dice: {d}"
                + (" — the average die, faces 2, 3, 3, 4, 4, 5." if d == "d5" else "."),
                "Grey areas: define an either/or and roll off.",
            ),
            key="sequence",
            rule="Play Sequence; Dice",
        ),
        Section(
            "Movement",
            tables=(
                Table(
                    "Movement dice (inches)",
                    ("Class", "Units", "Move"),
                    (
                        ("1", "Infantry", f'1{d}+2"'),
                        ("2", "Warband (warriors, raiders), skirmishers", f'2{d}+2"'),
                        ("3", "Cavalry", f'3{d}+2"'),
                    ),
                    note='No corner may exceed the total rolled. Road: +3" moving entirely '
                    "on a road, neither charging nor turning.",
                    key="movement",
                ),
                Table(
                    "Terrain",
                    ("Terrain", "Effect"),
                    (
                        ("Village (area)", "no movement effect; defensive bonus inside"),
                        ("Hill (area)", "no movement effect; bonus fighting from uphill"),
                        ("Woods, marsh (area)", "skirmishers and raiders only; defensive"),
                        ("Lake (area)", "impassable"),
                        ("River (linear)", "impassable but at a bridge, ford or shallows"),
                        ("Wall, gully (linear)", "no movement effect; defensive bonus"),
                    ),
                    key="terrain",
                ),
            ),
            items=(
                "Interpenetration: only skirmishers pass through any unit, and any unit "
                "through skirmishers.",
                "Moving shots: javelins may shoot before or after their move; bows may not "
                "shoot after moving, but may after only turning.",
            ),
            key="movement",
            rule="Movement; Terrain",
        ),
        Section(
            "Turning and charging",
            tables=(
                Table(
                    "Turns (rotate on the centre or centre front, up to 180°; not movement)",
                    ("Units", "Turns"),
                    (
                        ("Warband, infantry", "once: at the start or the end of the move"),
                        ("Skirmishers, cavalry", "twice: at the start and the end"),
                        ("In melee, attacked off the front", "face one attacker (90° or 180°)"),
                    ),
                    key="turning",
                ),
            ),
            items=(
                "Charge: target within 45° of the front and in line of sight; flank or rear "
                "only if the whole charger is past the line of that side.",
                "One attacker per facing; move by the shortest line to the centre of a free "
                "facing, maximising edge contact; no free “closing the door”.",
            ),
            key="charging",
            rule="Turning; Charging",
        ),
        Section(
            "Shooting",
            tables=(
                Table(
                    "Shooting (skirmishers and javelin units)",
                    ("Weapon", "Range", "Hits"),
                    (
                        ("Bow (not after moving)", '12"', die(d, -2)),
                        ("Javelin (or a moving shot)", '6"', die(d, -1)),
                    ),
                    note="One target within 45° of the front, clear line of sight to a whole "
                    "facing, range from the closest points; may shoot into a melee.",
                    key="shooting",
                ),
                Table(
                    "Hits taken (round up)",
                    ("Target", "Hits"),
                    (
                        ("Defending woods, a village or a wall", "½"),
                        ("Infantry (shieldwall), shot at front or flank", "½"),
                        ("Shot at the rear facing", "×2"),
                        ("Stacked benefits, at most", "¼"),
                    ),
                    key="shooting-modifiers",
                ),
            ),
            items=(
                "Missile supply: three shots."
                if supply == "three_shots"
                else "Missile supply (optional rule): a natural 5 uses the last missiles; "
                "replaces the three-shot limit.",
            ),
            key="shooting",
            rule="Shooting",
        ),
        Section(
            "Melee",
            tables=(
                Table(
                    "Melee hits (own player turn only)",
                    ("Unit", "Hits"),
                    (
                        ("Infantry", d),
                        ("Warriors (warband)", die(d, 1)),
                        ("Raiders (warband)", d),
                        ("Cavalry", d),
                        ("Javelin cavalry, javelin skirmishers", die(d, -1)),
                        ("Bow skirmishers", die(d, -2)),
                    ),
                    note="Household +1, levy −1, hero +1; never beyond +2 or −2 in all.",
                    key="melee",
                ),
                Table(
                    "Hits taken (round up)",
                    ("Defender", "Hits"),
                    (
                        ("Uphill, or defending woods, river bank, gully, wall", "½"),
                        ("Infantry (shieldwall)", "½"),
                        ("Attacked on the flank or rear", "×2"),
                        ("Stacked benefits, at most", "¼"),
                    ),
                    key="melee-modifiers",
                ),
            ),
            items=(
                "Units fight only to their front, one enemy unit; hits are never divided; "
                "melee ends when one side is eliminated.",
            ),
            key="melee",
            rule="Melee",
        ),
        Section(
            "Routs and rallies",
            tables=(
                Table(
                    "Removed from the table at",
                    ("Units", "Hits"),
                    tuple(removal),
                    key="removal",
                ),
            ),
            items=(
                "Units eligible to rally off hits under an optional rule do so now.",
                *(
                    ("Rally variation: a unit with 5 or more hits never rallies below 5.",)
                    if rally_variation
                    else ()
                ),
            ),
            key="removal",
            rule="Routs and Rallies",
        ),
        _optional(d, personalities, bool(options.get("variable_quality"))),
    )
    settings = (
        ("Dice", d),
        ("Personalities", "on" if personalities else "off"),
        ("Missile supply", "three shots" if supply == "three_shots" else "roll (a 5 ends)"),
        ("Rally variation", "on" if rally_variation else "off"),
        ("Variable quality", "on" if options.get("variable_quality") else "off"),
    )
    variants = {key: text.format(d=d) for key, text in VARIANTS.items()}
    people = {key: text.format(d=d) for key, text in PERSONALITIES.items()}
    return assemble_sheet(
        "dark-ages-d5",
        TITLE,
        SOURCE,
        settings=settings,
        core=core,
        army=army,
        army_sections=(
            variant_section(army, variants, "Unit types"),
            personality_section(army, people) if personalities else None,
            _allies(army),
        ),
        reference_title="Unit types, personalities and allies",
        extras=extras,
        offered=EXTRAS,
    )


def _optional(d: str, personalities: bool, variable_quality: bool = False) -> Section:
    items = []
    if personalities:
        items.append(
            "Personalities: one per three units (banners count); a unit upgrade that may "
            'move to a unit within 6" at the start of the move; stuck in a melee, shares '
            "its fate."
        )
    items += [
        "Initiative: the attacker goes first; from turn 2 roll off, +3 for the side with the "
        "initiative (−1 per own unit routed); losing it passes it over.",
        f"Force morale: each time a unit is destroyed roll a {d}; equal or under the units "
        f"lost and the force routs (3–4 units: {d} halved, round up). Optionally roll two "
        "and go on if either beats it; +1 if the opponent has lost more.",
        "Variations: one upgrade (household +1 attack, or determined 18 hits) must be paid "
        "for with one downgrade (levy −1 attack, or reluctant 12 hits); one change per "
        "unit; never beyond ±2.",
    ]
    if variable_quality:
        items.append(
            "Variable quality: for each army of six units one may be Elite (stubborn, 18 "
            "casualties before routing) if one is Levy (nervous, 12 casualties); separate from "
            "the upgrade and downgrade."
        )
    return Section("Optional rules in play", items=tuple(items), key="optional")


def _allies(army: Army | None) -> Section | None:
    rules = (
        "Allies: 1–3 units from another list's required units.",
        "1–2 allied units: a natural 2 rolled for their movement and they do not move.",
        "3 allied units: may take a personality (then no roll); it counts against the "
        "personality limit.",
        "Personalities attach only to units of their own list, host or allied.",
    )
    if army is None:
        return Section("Allied forces", items=rules, key="allies")
    allied = [u["name"] for u in army.units if u.get("ally")]
    if not allied:
        return None
    return Section(
        "Allied forces",
        items=(f"Allied units: {', '.join(allied)}.", *rules),
        key="allies",
    )
