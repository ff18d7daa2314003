"""Dewitt's Medieval Wargaming Rules (1987) QRS. Digest: spec/rulesets/dewitt-medieval.md.

Source: seeds/002 (Order of Play, Morale, Movement, shooting, Melee, Evade, Retreats, Routs,
Breakthrough, Sieges, Risk to General). The siege section prints only on request (the
``siege`` extra). Ruling R3: the shooting "TABLE X" is not in the source, so its column is
left blank for the players' own values. Distances halve with the 15 mm option.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.base import Army
from rules.qrs import (
    Section,
    Sheet,
    Table,
    assemble_sheet,
    check_extras,
    inches,
    signed,
)

TITLE = "Medieval Wargaming Rules (Dewitt, 1987)"
SOURCE = "Medieval Wargaming Rules, Brian Dewitt, PW Review March 1987"
EXTRAS = {"siege": "Sieges (walls, towers, ladders, fire arrows)"}

# class, armour, inches per impulse
MOVES = (
    ("Light", "unarmoured", 4),
    ("Medium", "mail shirt", 3),
    ("Heavy", "full mail, or covered horse", 3),
    ("Super heavy, artillery", "plate, or armoured horse", 2),
)
TROOP_POINTS = (
    ("Light", "1"),
    ("Medium", "2"),
    ("Heavy", "3"),
    ("Super heavy", "4"),
    ("Lance", "+1"),
    ("No shield", "\u22121"),
    ("Two-handed", "+1.5"),
    ("1-man stand", "\u22122"),
)
MELEE_MODIFIERS = (
    ("Charge or countercharge", signed(1)),
    ("Moving infantry hit by cavalry", signed(-2)),
    ("Downhill charge", signed(1)),
    ("Uphill charge (defenders holding ground)", "2 (as printed)"),
    ("Spear against lights or mediums", signed(1)),
    ("Pike or thrusters against cavalry", signed(2)),
    ("Defender behind stakes", "\u22121 infantry, \u22122 cavalry"),
    ("Attacking on a flank", signed(1)),
    ("Mace against super heavies", signed(1)),
)
FIGHTING_ROWS = (
    ("Cavalry", "1"),
    ("Two-handed weapons", "1"),
    ("Infantry", "2"),
    ("Cut-and-thrust", "2"),
    ("Pike", "4"),
)
TABLE_X_WEAPONS = ("Bow", "Longbow", "Crossbow", "Sling", "SS (as printed)", "Javelin")
COMMAND = {"general": "General", "c_in_c": "C-in-C"}


def build(options: Mapping[str, Any], army: Army | None, *, extras: tuple[str, ...] = ()) -> Sheet:
    check_extras(extras, EXTRAS)
    fifteen = options.get("figure_scale") == "15mm"
    k = Fraction(1, 2) if fifteen else Fraction(1)

    def d(n: int) -> str:
        return inches(n, k)

    core = (
        Section(
            "Order of play",
            items=(
                "1. A rallies routing units.",
                "2. A moves.",
                "3. B makes defensive moves: only units being charged, at half speed; "
                "archers and artillery may give supporting fire.",
                "4. Melee.",
                "5. A breakthrough: units that won a melee may make a half-speed move.",
                "6. B reacts to the breakthrough (as in 3).",
                "7. Both check morale of units that saw a unit wiped out or routed.",
                "8. A becomes B and B becomes A.",
            ),
            key="sequence",
            rule="Order of Play",
        ),
        Section(
            "Morale",
            tables=(
                Table(
                    "Morale by hits",
                    ("Hits", "Morale"),
                    (
                        ("No hits", "8"),
                        ("1 hit", "7"),
                        ("2 hits", "6"),
                        ("3 hits", "5"),
                        ("4 hits", "Unit destroyed"),
                    ),
                    note=f"Roll a d10 (1–10): higher than the morale fails. Only events "
                    f"within {d(15)} count.",
                    key="morale-table",
                ),
                Table(
                    "Morale modifiers",
                    ("Event", "Mod"),
                    (
                        ("Every impact", signed(-1)),
                        ("Won a melee that player turn", signed(2)),
                        ("Every unit seen routed or eliminated", signed(-1)),
                        ("Routers burst through the unit", signed(-1)),
                    ),
                    note="Units seen routed or eliminated count only in the rally and "
                    "morale phases at the end of the turn.",
                    key="morale-modifiers",
                ),
            ),
            items=(
                "Test: after all shooting, every unit that took an impact; in the morale "
                "phase, units that saw a group wiped out or routed or a general killed in "
                f"melee (seen through infantry and 1 row of cavalry, at most {d(15)}).",
                "Test when burst through by retreaters or routers; a unit whose retreat or "
                "rout is blocked by impassable terrain tests again and surrenders on a fail.",
                "Rally: routers test in the rally phase (they count as seeing themselves "
                "rout); pass — move no closer to the enemy next move; fail — keep routing.",
            ),
            key="morale",
            rule="2. Morale",
        ),
        Section(
            "Movement",
            tables=(
                Table(
                    "Movement per impulse",
                    ("Class", "Armour", "Per impulse"),
                    tuple((c, a, d(n)) for c, a, n in MOVES),
                    note=f"Roads +{d(1)} per impulse. Roll two average dice (2–5): infantry "
                    "move the first die in impulses, cavalry the total.",
                    key="movement",
                ),
                Table(
                    "Facing and other costs",
                    ("Action", "Impulses"),
                    (
                        ("Infantry change facing (90° or 180°)", "1"),
                        ("Cavalry change facing", "2"),
                        ("Plant or pull up stakes", "1"),
                        ("Expand 1 stand on each flank (unit sits)", "1"),
                    ),
                    key="facing",
                ),
            ),
            items=(
                "Infantry may move backwards at half speed; cavalry never. Pinwheels are "
                "measured from the stand moving furthest. Units may not split.",
                "Charge: move half the distance to the target; after defensive fire, close "
                f"for melee. Countercharge: at least {d(1)} forward and 2 impulses of the "
                "reaction move for the melee bonus.",
                f"Not charging: stop at least {d(3)} from an enemy front or {d(1)} from a side.",
            ),
            key="movement",
            rule="3. Movement",
        ),
        Section(
            "Shooting",
            tables=(
                Table(
                    "Table X (not in the source: write in your own values)",
                    ("Weapon", "Table X"),
                    tuple((w, "") for w in TABLE_X_WEAPONS),
                    note="Shooting points = Table X × men firing × impulses firing ÷ 10. "
                    "Roll a d10: equal or less causes an impact.",
                    key="table-x",
                ),
            ),
            items=(
                "Horse archers halve the total. Long range or indirect: count half the "
                "firing men. Two rows fire; javelins count half the second row.",
                "Bow, javelin, sling and mounted may move and fire in the same impulse. "
                "Foot fire 45° either side, mounted all round.",
                f"Over friends at least {d(2)} away and not more than {d(15)}. Once per turn "
                "(defensive fire uses it). Uphill shortens ranges, downhill lengthens.",
                "No shooting while using a shield. Super heavies count shieldless only "
                "against crossbows.",
            ),
            key="shooting",
            rule="Shooting; Shields",
        ),
        Section(
            "Melee",
            tables=(
                Table("Troop points", ("Troops", "Points"), TROOP_POINTS, key="troop-points"),
                Table(
                    "Melee modifications",
                    ("Situation", "Mod"),
                    MELEE_MODIFIERS,
                    note="Melee strength = morale + troop points + a roll (0–10, as "
                    "printed), for each stand pair-off separately.",
                    key="melee-modifiers",
                ),
                Table("Fighting rows", ("Troops", "Rows"), FIGHTING_ROWS, key="fighting-rows"),
            ),
            items=(
                "Only stands in full or partial contact fight (diagonals may). When all of a "
                "unit's stands lose: 1 hit and a morale roll — pass: retreat; fail: rout.",
                "Losing without driving back one enemy stand: rout. Morale modifiers do not "
                "count in melee; a unit that already lost this player turn counts half its "
                "morale.",
                "Infantry with 1–2 stands, or cavalry with 1, retreat without a hit. "
                "Two-handed weapons and pikes never count shieldless. Hit in the rear: no "
                "fighting back.",
            ),
            key="melee",
            rule="Melee",
        ),
        Section(
            "Evades, retreats, routs, breakthrough",
            items=(
                "Evade: always allowed when charged; free about-turn, half speed.",
                "Retreat: any hit forces one, at half speed, facing the enemy; routers and "
                "retreaters may contract 1 stand on either flank to avoid friends.",
                "Rout: the first move at half speed, later ones at full, facing away.",
                "Breakthrough: only stands that have not lost fight again; chargers whose "
                "target retreats or evades stop at its old place or move on, hitting what "
                "is in their path.",
            ),
            key="retreats",
            rule="Evade; Retreats; Routs; Breakthrough",
        ),
        Section(
            "Risk to generals",
            items=(
                "A general may raise a unit's morale by 1 or 2 points but is at risk by "
                "double the amount.",
                f"The C-in-C may add 10 points in all during the game to units within "
                f"{d(10)}, without risk.",
                "In melee a general or the C-in-C may raise any roll by 1, but is killed on "
                "a roll of 1 or 2.",
                "Arrival: half move on the turn of arrival.",
            ),
            key="generals",
            rule="7. Rules of Play",
        ),
    )
    settings = (("Figure scale", "15 mm — every distance halved" if fifteen else "25 mm"),)
    return assemble_sheet(
        "dewitt-medieval",
        TITLE,
        SOURCE,
        settings=settings,
        core=core,
        army=army,
        army_sections=(
            _commanders(army) if army is not None else None,
            _siege(d) if "siege" in extras else None,
        ),
        reference_title="Sieges",
        extras=extras,
        offered=EXTRAS,
    )


def _commanders(army: Army) -> Section | None:
    rows = tuple(
        (COMMAND[u["command"]], u["name"]) for u in army.units if u.get("command") in COMMAND
    )
    if not rows:
        return None
    return Section(
        "Commanders",
        tables=(Table("Who rides where", ("Commander", "With unit"), rows, key="commanders"),),
        key="commanders",
    )


def _siege(d: Any) -> Section:
    return Section(
        "Sieges",
        items=(
            "Damage is per impulse per catapult, per ram and per 3 men; count it the turn "
            "the target is reached. Step through a breach the next turn, defenders counting "
            "as behind an obstacle. 20 casualty points make a structure unusable or a hole "
            f"{d(3)} wide.",
            "Fire arrows: 2 impulses to light, 2 to shoot (light one turn, shoot the next). "
            "Damage × roll (1–10) over 50 starts a fire: 5 points of damage on the owner's "
            "turn each time he fails to put it out (50%).",
            "Siege towers and penthouses: impact number halved from artillery, other "
            "shooting does not hurt them; no pikes on towers; 8 figures push one, each "
            "level climbed counts 2.",
            f"Rocks and oil: attack as longbows, two rows deep, limited supply, out to "
            f"{d(3)} from the wall, also as defensive fire, once a turn.",
            "Ladders: 1 impulse for a stand to climb; 2 per unit. Attackers' number + morale "
            "+ roll against defenders' (no horses or pikes on walls); the winner takes or "
            "keeps the wall top; a ladder next to the player is broken on 8–10.",
            "Ladder values: attacker LI 0, MI 1, HI 2; defender LI 3, MI 4, HI 5, SHI 6; "
            "defender shieldless −1, with spear or two-handed +1. Gates: 2 impulses to raise "
            "or lower.",
        ),
        key="siege",
        rule="6. Sieges",
        wide=True,
    )
