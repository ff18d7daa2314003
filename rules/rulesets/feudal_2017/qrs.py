"""Feudal Wargame Rules (2017) QRS. Digest: spec/rulesets/feudal-2017.md.

Source: seeds/003 (Game Conventions 0.x, Shoot 1.x, Move 2.x, Mêlée 3.x, Rallies 4.x, the
6-Hit variant, Optional Rules, Feudal Force Matrix). Every distance is printed in inches
computed from the army's base width BW (base depth BD = BW / 2), exactly; the die is the
army's "Dx".
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.base import Army
from rules.fields import exact_number
from rules.qrs import (
    Section,
    Sheet,
    Table,
    assemble_sheet,
    check_extras,
    die,
    inches,
    number,
)
from rules.registry import get_ruleset

TITLE = "Feudal Wargame Rules (2017)"
SOURCE = "Feudal Wargame Rules, 13 September 2017"
EXTRAS: dict[str, str] = {}
DEFAULT_BW = Fraction(5)

FORCE_MATRIX = (
    (1, 1, 1, 2, 2),
    (2, 3, 1, 1, 1),
    (3, 3, 2, 1, 0),
    (4, 4, 1, 0, 1),
    (5, 4, 1, 1, 0),
    (6, 4, 2, 0, 0),
)
PERSONALITIES = {
    "knight_errant": "Knight errant: his unit inflicts +1 hit in mêlée.",
    "constable": "Constable: his unit may rally even if it moved.",
    "horse_marshal": "Horse marshal: his knights get an extra turn at the end of the move.",
    "bow_marshal": "Bow marshal: his bowmen shoot 3BW ({bw3}).",
    "brabanter": "Brabanter: his unit may re-roll its hit dice (the new result stands).",
    "priest": "Priest: once, rallies Dx bonus hits on one unit (per 4.1b), then leaves.",
    "strategos": "Strategos: a one-time bonus of +3 to seize the initiative (Initiative).",
    "banner": "Banner (upgrade): the unit may rally despite an attacked marker; counts as a "
    "personality; stays with one unit of knights or serjeants.",
}
ADVANTAGES = {
    "determined": "Determined: 18 hits.",
    "melee_plus": "Mêlée +1.",
    "shoot_plus": "Shoot +1.",
    "extra_missiles": "Extra missiles: 4 shots.",
    "impetuous": 'Impetuous: may charge up to 3" farther, taking a hit per inch or part.',
    "woods": "Woods: freemen or bowmen that may enter woods.",
    "unenthusiastic": "Unenthusiastic: 12 hits.",
    "melee_minus": "Mêlée −1.",
    "shoot_minus": "Shoot −1.",
    "runs_out_5_6": "Runs out of missiles on a 5 or 6.",
    "three_shots": "Only 3 shots (the army has more).",
}


def base_width(options: Mapping[str, Any]) -> Fraction:
    value = options.get("base_width_in")
    return DEFAULT_BW if value is None else exact_number(value)


def build(options: Mapping[str, Any], army: Army | None, *, extras: tuple[str, ...] = ()) -> Sheet:
    check_extras(extras, EXTRAS)
    dx = str(options.get("dice") or "d6")
    bw = base_width(options)
    bd = bw / 2
    diced = bool(options.get("diced_movement"))
    six_hit = bool(options.get("six_hit_variant"))
    trained = bool(options.get("trained_units"))
    tired = bool(options.get("tired_units"))
    supply = options.get("missile_supply", "three_shots")
    shots = "4" if supply == "four_shots" else "3"

    def i(value: Fraction) -> str:
        return inches(value)

    if diced:
        bow_range, javelin_range = '12"', '6"'
    else:
        bow_range, javelin_range = f"2BW = {i(2 * bw)}", f"BW = {i(bw)}"

    core = (
        Section(
            "Conventions",
            items=(
                f"Dx: the chosen die, {dx}"
                + (" (faces 2, 3, 3, 4, 4, 5)." if dx == "d5" else " (1–6)."),
                f"BW (base width) = {i(bw)}; BD (base depth) = BW/2 = {i(bd)}. "
                "More than half a unit (a BD) is needed for line of sight, terrain, a "
                "protected flank, shooting and contact.",
                "Arcs: front, flank and rear are 45° arcs from the corners; the unit's front "
                "centre point shows which arc it is in.",
                f"Line of sight from the front centre to a BD ({i(bd)}) of the target's "
                f"side, through a gap over a BD; a friend beside within a BD protects a "
                f"flank from shooting and charges.",
                "Grey areas: define an either/or and roll off (the Triple-Zed rule).",
            ),
            key="conventions",
            rule="0. Game Conventions",
        ),
        Section(
            "Play sequence",
            items=("Each player in turn, attacker first: 1) Shoot, 2) Move, 3) Mêlée, 4) Rally.",),
            key="sequence",
            rule="Play Sequence",
        ),
        Section(
            "Shoot",
            tables=(
                Table(
                    "Shooting",
                    ("Shooters", "Phase", "Range", "Hits"),
                    (
                        ("Bowmen", "1 Shoot", bow_range, dx),
                        ("Mercenary crossbows", "1 Shoot", bow_range, die(dx, 1)),
                        ("Brigans (javelins)", "2 Move", javelin_range, die(dx, -2)),
                        ("Brigans with bows", "1 Shoot", bow_range, die(dx, -2)),
                        ("Cavalry, mounted brigans", "2 Move", javelin_range, die(dx, -2)),
                    ),
                    note=f"Bow marshal: 3BW = {i(3 * bw)}. {shots} shots, then out of missiles"
                    + ("; a natural 5 also ends them." if supply == "natural_5" else "."),
                    key="shooting",
                ),
                Table(
                    "Hits taken (round every fraction up)",
                    ("Target", "Hits"),
                    (
                        ("Defending woods, camp, village or walls", "½"),
                        ("Serjeants (armoured)", "½"),
                        ("Shot in the rear arc", "×2"),
                        ("Stacked benefits, at most (½ and ×2 cancel)", "¼"),
                    ),
                    key="shooting-modifiers",
                ),
            ),
            items=(
                "Bowmen that shoot cannot move; brigans that shoot cannot charge. Shooting "
                "into a mêlée needs line of sight to the target's side.",
                "Attacked marker on every target. Remove units at 15+ hits: from bowmen at "
                "the end of phase 1, from brigans at the end of phase 2.",
            ),
            key="shoot",
            rule="1. Shoot",
        ),
        Section(
            "Move",
            tables=(_movement_table(bw, bd, dx, diced),),
            items=(
                "Turns (rotate on the centre up to 180°, not measured): serjeants, freemen "
                "and bowmen once at the start; knights once at the start or end; brigans "
                "twice, at the start and end.",
                f"Fast moves start and stay over a BD ({i(bd)}) from all enemy unless "
                f"charging. Gaps: a BW ({i(bw)}) to pass. Only brigans pass through brigans.",
                "Retreat from mêlée (front contact with one slower unit): a fast move "
                "straight back, facing the same way. Facing an attacker: a full 90° or 180° turn.",
            ),
            key="move",
            rule="2. Move",
        ),
        Section(
            "Charging and contact",
            items=(
                "Charge a target in the front arc within a fast move, or within a BD "
                f"({i(bd)}) of the charger's flank arc.",
                f"Contact edge to edge for at least a BD ({i(bd)}), centred; at most four "
                "chargers, one per side; protected flanks cannot be charged.",
                "Brigans charge only a flank or rear, and only if they did not shoot. "
                "Bowmen charge only when out of missiles.",
                "Cramped: side-edge contact if a gap over a BD lets the attacker through and "
                "a BD of edge contact is possible; mark the temporary front.",
            ),
            key="charging",
            rule="2.8 Charging",
        ),
        Section(
            "Mêlée",
            tables=(
                Table(
                    "Mêlée hits (own player turn, one target in front contact)",
                    ("Unit", "Hits"),
                    (
                        ("Knights", die(dx, 2)),
                        ("Mounted serjeants (knights)", die(dx, 1)),
                        ("Serjeants, dismounted knights", dx),
                        ("Freemen", dx),
                        ("Unwilling levy (freemen)", die(dx, -1)),
                        ("Cavalry", dx),
                        ("Bowmen", die(dx, -2)),
                        ("Brigans", die(dx, -2)),
                    ),
                    key="melee",
                ),
                Table(
                    "Hits taken (round every fraction up)",
                    ("Defender", "Hits"),
                    (
                        ("Uphill, or defending a ditch, riverbank, wall", "½"),
                        ("Defending woods (only the turn it is charged)", "½"),
                        ("Serjeants (armoured; Scots schiltrons too)", "½"),
                        ("Contacted on a flank or rear", "×2"),
                        ("Stacked benefits, at most", "¼"),
                    ),
                    key="melee-modifiers",
                ),
            ),
            items=(
                "Attacked marker on every unit in mêlée. Remove units as soon as they have "
                "15+ hits.",
            ),
            key="melee",
            rule="3. Mêlée",
        ),
        _rallies(dx, six_hit),
        _optional(dx, diced, six_hit, trained, tired, supply),
    )
    settings = (
        ("Dx", dx),
        ("Base width", f"BW {i(bw)}, BD {i(bd)}"),
        ("Movement", "diced" if diced else "fixed, from BW"),
        ("6-hit units", "on" if six_hit else "off"),
        ("Trained units", "on" if trained else "off"),
        ("Missile supply", {"natural_5": "a natural 5 ends", "four_shots": "four shots"}.get(
            str(supply), "three shots")),
        ("Tired units", "on" if tired else "off"),
    )  # fmt: skip
    return assemble_sheet(
        "feudal-2017",
        TITLE,
        SOURCE,
        settings=settings,
        core=core,
        army=army,
        army_sections=(
            _matrix_for(army) if army is not None else _matrix(),
            _personalities(army, bw),
            _advantages(army),
        ),
        reference_title="Force matrix, personalities, advantages",
        extras=extras,
        offered=EXTRAS,
    )


def _movement_table(bw: Fraction, bd: Fraction, dx: str, diced: bool) -> Table:
    if diced:
        rows = (
            ("1", "Serjeants, freemen, bowmen", '3"', f'+{dx}"', '+3"'),
            ("2", "Brigans", '6"', f'+{dx}"', '+3"'),
            ("3", "Knights, cavalry", '9"', f'+{dx}"', '+3"'),
        )
        return Table(
            "Movement (diced)",
            ("Class", "Units", "Move", "Fast", "Road"),
            rows,
            note="Diced movement: fast moves add a Dx roll in inches.",
            key="movement",
        )
    rows = (
        ("1", "Serjeants, freemen, bowmen", bd, bd, bd),
        ("2", "Brigans", bw, bd, bd),
        ("2", "Mounted brigans (no woods)", bw, bw, bd),
        ("3", "Knights, cavalry", bw, bw, bd),
    )
    return Table(
        f'Movement at BW {number(bw)}"',
        ("Class", "Units", "Move", "Fast", "Road", "Fast total"),
        tuple(
            (c, units, inches(move), f"+{inches(fast)}", f"+{inches(road)}", inches(move + fast))
            for c, units, move, fast, road in rows
        ),
        note="Move BD/BW, fast +BD/+BW, road +BD (moving entirely touching a road; it "
        "cancels terrain restrictions).",
        key="movement",
    )


def _rallies(dx: str, six_hit: bool) -> Section:
    if six_hit:
        rows = (
            ("Phasing unit, eligible", f"roll 1{dx}: rally a hit on 3+"),
            ("With an attacked marker", "no rally"),
            ("More than 2 hits", "never rallies below 2"),
            ("Removed", "above 6 hits"),
        )
    else:
        rows = (
            ("Did not shoot, move or mêlée", "rally 1 hit"),
            ("…and has no attacked marker", "rally 1 more"),
            ("5 hits or more", "never rallies below 5"),
            ("Removed", "15 hits (determined 18, unenthusiastic 12)"),
        )
    return Section(
        "Rallies and attacked markers",
        tables=(Table("Rallies (phase 4)", ("Unit", "Rally"), rows, key="rallies"),),
        items=(
            "Attacked markers go on every unit shot at or in mêlée; the phasing player's "
            "are removed at the end of its rally phase.",
        ),
        key="rallies",
        rule="4. Rallies",
    )


def _optional(
    dx: str, diced: bool, six_hit: bool, trained: bool, tired: bool, supply: Any
) -> Section:
    items = []
    if six_hit:
        items.append(
            f"6-hit units: {dx}+2 attackers roll 3 dice, {dx} 2 dice, {dx}−2 1 die; each "
            "hits on 3+; removed above 6 hits."
        )
    if trained:
        items.append("Trained units: every roll is a d6, but units marked trained roll Dx.")
    if supply == "natural_5":
        items.append("Missile supply: a natural 5 runs the unit out of missiles.")
    elif supply == "four_shots":
        items.append("Missile supply: well supplied units have 4 shots.")
    if tired:
        items.append("Tired units: past ten hits, −1 to every Dx roll.")
    if diced:
        items.append('Diced movement: 3"/6"/9" plus Dx fast, road +3"; bows 12", javelins 6".')
    if not items:
        items.append("None switched on: the basic rules apply.")
    return Section("Optional rules in play", items=tuple(items), key="optional")


def _matrix() -> Section:
    return _matrix_section(
        "Feudal force matrix (d6)",
        tuple(tuple(str(n) for n in row) for row in FORCE_MATRIX),
        note="Feudal list: core knights (may dismount), type 1 bowmen, type 2 brigans, "
        "type 3 freemen.",
    )


def _matrix_for(army: Army) -> Section | None:
    try:
        composition = get_ruleset(army.ruleset).composition(army)
    except KeyError:
        composition = None
    rows = (composition or {}).get("matrix_rows") or []
    matrix = {row[0]: row[1:] for row in FORCE_MATRIX}
    table_rows = tuple(
        (str(r), *(str(n) for n in matrix[r])) for r in rows if isinstance(r, int) and r in matrix
    )
    if not table_rows:
        return Section(
            "Force matrix",
            items=("This army fits no row of the force matrix.",),
            key="force-matrix",
        )
    return _matrix_section("Force matrix rows this army fits", table_rows)


def _matrix_section(title: str, rows: tuple[tuple[str, ...], ...], note: str = "") -> Section:
    table = Table(
        "Units per column",
        ("Roll", "Core", "Type 1", "Type 2", "Type 3"),
        rows,
        note=note,
        key="force-matrix",
    )
    return Section(title, tables=(table,), key="force-matrix")


def _personalities(army: Army | None, bw: Fraction) -> Section | None:
    texts = {k: v.format(bw3=inches(3 * bw)) for k, v in PERSONALITIES.items()}
    base = (
        'One personality per three units; a banner counts as one. Moves to a unit within 6" '
        "at the start of the move if not in mêlée; removed with its unit."
    )
    if army is None:
        return Section("Personalities", items=(base, *texts.values()), key="personalities")
    rows = []
    used: list[str] = []
    for unit in army.units:
        who = unit.get("personality")
        if who or unit.get("banner"):
            label = str(who).replace("_", " ").capitalize() if who else "Banner"
            if who and unit.get("banner"):
                label += " with banner"
            rows.append((label, unit["name"]))
            used += ([who] if who else []) + (["banner"] if unit.get("banner") else [])
    if not rows:
        return None
    return Section(
        "Personalities this army fields",
        tables=(Table("Who leads whom", ("Personality", "With unit"), tuple(rows)),),
        items=(base, *(texts[p] for p in PERSONALITIES if p in used)),
        key="personalities",
    )


def _advantages(army: Army | None) -> Section | None:
    if army is None:
        return Section(
            "Advantages and disadvantages",
            items=(
                "One unit may take an advantage, balanced by one with a disadvantage; no "
                "unit beyond +2 or −2 in shooting or mêlée; a unit may carry one of each.",
                *ADVANTAGES.values(),
            ),
            key="advantages",
        )
    rows = []
    for unit in army.units:
        for key in ("advantage", "disadvantage"):
            value = unit.get(key)
            if value in ADVANTAGES:
                rows.append((unit["name"], ADVANTAGES[value]))
    if not rows:
        return None
    return Section(
        "Advantages and disadvantages this army fields",
        tables=(Table("Unit changes", ("Unit", "Change"), tuple(rows), key="advantages"),),
        key="advantages",
    )
