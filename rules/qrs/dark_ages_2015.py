"""NT Dark Ages Rules, 1-hour update (2015) QRS. Digest: spec/rulesets/dark-ages-2015.md.

Source: seeds/004 (Play Sequence, Movement, Turning, Charging, Shooting, Melee, Eliminating
Units, Optional Rules). The optional rules print only when the army (or the options given)
switch them on.
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

TITLE = "NT Dark Ages Rules — 1 Hour Update (2015)"
SOURCE = "NT Dark Ages Rules — 1 Hour Update (January 2015)"
EXTRAS: dict[str, str] = {}
D = "d6"

VARIANTS = {
    "roman_militia": "Roman militia: infantry who melee at d6−1.",
    "roman_cavalry": "Roman cavalry: better-equipped cavalry that shoot and melee at d6.",
    "arthurs_cavalry": "Arthur's cavalry: as Roman cavalry, but Elite.",
    "the_knights": "“The Knights”: Arthur's cavalry fighting at d6+1.",
    "mounted_servants": "Mounted servants: javelin cavalry at d6−2; may be Elite when an "
    "Elite cavalry unit is in play (then a second Levy unit).",
    "irish_nobles": "Irish nobles: javelin skirmishers fighting at d6; one may be Elite.",
    "scots_nobles": "Scots nobles: stubborn warband at d6+1, Elite.",
    "viking_veterans": "Viking veterans: after deployment choose infantry or warband; one "
    "may be Elite.",
}
PERSONALITIES = {
    "hero": "Hero: +1 in shooting or melee.",
    "leader": "Leader: one extra Turn, at any time in the unit's move.",
    "banner": "Banner (upgrade of a hero or leader): a unit not in melee that has not "
    "moved or shot rallies off 1–3 hits (d6 halved, rounded up); counts as a personality.",
    "priest": "Christian priest: rallies off 2–4 hits (d6 halved, rounded up, +1).",
}


def build(options: Mapping[str, Any], army: Army | None, *, extras: tuple[str, ...] = ()) -> Sheet:
    check_extras(extras, EXTRAS)
    variable_quality = options.get("variable_quality", True)
    personalities = options.get("personalities", True)
    supply = options.get("missile_supply", "three_shots")
    elimination = [("Standard", "15 hits")]
    if variable_quality:
        elimination += [("Elite / stubborn", "18 hits"), ("Levy / nervous", "12 hits")]
    core = (
        Section(
            "Play sequence",
            items=(
                "Each player in turn, attacker first: 1) Movement, 2) Shooting, 3) Melee, "
                "4) Eliminating units.",
            ),
            key="sequence",
            rule="Play Sequence",
        ),
        Section(
            "Movement",
            tables=(
                Table(
                    "Movement dice (inches)",
                    ("Class", "Units", "Move"),
                    (
                        ("1", "Infantry", '1d6+1"'),
                        ("2", "Warband, skirmishers", '2d6+2"'),
                        ("3", "Cavalry", '3d6+3"'),
                    ),
                    note='No corner may exceed the total rolled. Road: +3" moving entirely '
                    "along a road and not charging.",
                    key="movement",
                ),
                Table(
                    "Terrain",
                    ("Terrain", "Effect"),
                    (
                        ("Village (area)", "no effect on movement"),
                        ("Woods (area)", "skirmishers only"),
                        ("Marsh, lake (area)", "impassable"),
                        ("River (linear)", "cross at a bridge, ford or shallows"),
                        ("Road (linear)", '+3" moving along it, not charging'),
                    ),
                    key="terrain",
                ),
            ),
            items=(
                "Moving shots: javelins may shoot before or at the end of their move instead "
                "of in the shooting phase. Bows may not shoot if they moved.",
            ),
            key="movement",
            rule="Movement; Terrain",
        ),
        Section(
            "Turning",
            tables=(
                Table(
                    "Turns (pivot on the centre front, up to 180°)",
                    ("Units", "Turns"),
                    (
                        ("Warband, infantry", "once: at the start or the end of the move"),
                        ("Skirmishers, cavalry", "twice: at the start and the end"),
                        ("In melee, attacked off the front", "face one attacker (90° or 180°)"),
                    ),
                    key="turning",
                ),
            ),
            key="turning",
            rule="Turning",
        ),
        Section(
            "Charging",
            items=(
                "Target within 45° of the charger's front and in its line of sight.",
                "Flank or rear contact only if the whole charger is past a line along the "
                "target's side or rear.",
                "One attacking unit per facing: front, rear and each flank.",
                "Move along the shortest line, centre to the centre of a free facing, "
                "maximising edge contact; no free “closing the door”.",
            ),
            key="charging",
            rule="Charging",
        ),
        Section(
            "Shooting",
            tables=(
                Table(
                    "Shooting (skirmishers and cavalry)",
                    ("Weapon", "Range", "Hits"),
                    (
                        ("Bow (not after moving)", '12"', die(D, -2)),
                        ("Javelin (or a moving shot)", '6"', die(D, -1)),
                    ),
                    note="One target within 45° of the front with a clear line of sight to a "
                    "whole facing; may shoot into a melee.",
                    key="shooting",
                ),
                Table(
                    "Hits taken",
                    ("Target", "Hits"),
                    (
                        ("In woods or a village", "½ (round up)"),
                        ("Infantry (shieldwall), shot at front or flank", "½ (round up)"),
                        ("Shot at the rear facing", "×2"),
                    ),
                    key="shooting-modifiers",
                ),
            ),
            items=(
                "Missile supply: bows and javelins have three shots."
                if supply == "three_shots"
                else "Missile supply (optional rule): from the second shot an unmodified 5 "
                "or 6 uses the last missiles.",
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
                        ("Infantry", D),
                        ("Warband", die(D, 2)),
                        ("Cavalry", die(D, -1)),
                        ("Skirmishers, bow", die(D, -2)),
                        ("Skirmishers, javelin", die(D, -1)),
                    ),
                    key="melee",
                ),
                Table(
                    "Hits taken",
                    ("Defender", "Hits"),
                    (
                        ("Defending woods, uphill or a river crossing", "½ (round up)"),
                        ("Infantry (shieldwall)", "½ (round up)"),
                        ("Attacked on the flank or rear", "×2"),
                    ),
                    key="melee-modifiers",
                ),
            ),
            items=(
                "Units fight only to their front, one enemy unit; hits are never divided. "
                "Melee goes on until one side is eliminated.",
            ),
            key="melee",
            rule="Melee",
        ),
        Section(
            "Eliminating units",
            tables=(
                Table(
                    "Removed from the table at",
                    ("Units", "Hits"),
                    tuple(elimination),
                    key="elimination",
                ),
            ),
            key="elimination",
            rule="Eliminating Units; Variable Quality",
        ),
        _optional(personalities, variable_quality),
    )
    settings = (
        ("Army size", f"{options.get('army_size', 6)} units"),
        ("Variable quality", "on" if variable_quality else "off"),
        ("Personalities", "on" if personalities else "off"),
        ("Missile supply", "three shots" if supply == "three_shots" else "roll (5 or 6 ends)"),
    )
    return assemble_sheet(
        "dark-ages-2015",
        TITLE,
        SOURCE,
        settings=settings,
        core=core,
        army=army,
        army_sections=(
            variant_section(army, VARIANTS, "Additional unit types"),
            personality_section(army, PERSONALITIES) if personalities else None,
        ),
        reference_title="Unit types and personalities",
        extras=extras,
        offered=EXTRAS,
    )


def _optional(personalities: bool, variable_quality: bool) -> Section:
    items = []
    if personalities:
        items.append(
            "Personalities: one per three units (banners count); a unit upgrade that may "
            'move to a unit within 6" at the start of the move; stuck in a melee, shares '
            "its fate."
        )
    if variable_quality:
        items.append("Variable quality: per six units one may be Elite, balanced by one Levy.")
    items += [
        "Initiative: the attacker goes first; from turn 2 roll off, +3 for the side with "
        "the initiative; losing it passes it over.",
        "Force morale: each time a unit is destroyed roll a d6; equal or under the units "
        "lost and the force routs (3 units: d3, 4 units: d3+1).",
        "Fall back: skirmishers and cavalry of a faster class may move full back out of "
        "melee if no enemy is on their rear; a frontal enemy that wins a dice-off gets a "
        "free attack.",
    ]
    return Section("Optional rules in play", items=tuple(items), key="optional")
