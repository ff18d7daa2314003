"""Into the Dark QRS. Digest: spec/rulesets/into-the-dark.md "Quick-reference sheet".

Source: seeds/000 Part II (Turn Sequence, Movement, Combat, Morale) and Part III (Special
Troops, SWAT, Command & Control). Every distance goes through ``d()`` so the 15 mm option
halves all of them ("for 15mm half the distances").
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

TITLE = "Into the Dark"
SOURCE = "Into the Dark — Dark Age / Medieval mass combat rules"
EXTRAS: dict[str, str] = {}

# (troops, move inches, rout/evade dice), the source's "Distances" table
MOVEMENT = (
    ("Close order foot", 6, "3d6"),
    ("Loose order foot", 8, "3d6"),
    ("Open order foot", 8, "3d6"),
    ("Close order mounted", 8, "4d6"),
    ("Loose order mounted", 12, "4d6"),
    ("Open order mounted", 16, "5d6"),
    ("Encased foot (armour limit)", 4, "2d6"),
    ("Encased mounted (armour limit)", 8, "3d6"),
)
TO_HIT = (
    ("(U) Unarmoured", "3+"),
    ("(P) Protected", "4+"),
    ("(A) Armoured", "5+"),
    ("(M) Mailed", "6+"),
    ("(E) Encased", "7+ (a natural 6)"),
)
# weapon, close, long (None: no long range)
RANGES = (
    ("Foot bow, light crossbow", 6, 18),
    ("Mounted bow", 6, 12),
    ("Sling", 6, 12),
    ("Javelin, thrown axe", 6, None),
    ("Longbow (SWAT)", 8, 24),
    ("Heavy crossbow (SWAT)", 6, 24),
)
MISSILE_MODIFIERS = (
    ("Target open order foot", -2),
    ("Target loose order foot, or open order mounted", -1),
    ("Target shieldless, or hit from the rear", 1),
    ("Target in light cover (woods, fences)", -1),
    ("Target in heavy cover (buildings, walls)", -2),
)
MELEE_MODIFIERS = (
    ("Attacker charging or counter-charging", 1),
    ("Attacker steady fanatics (quality 5)", 1),
    ("Attacker peasants, or missile troops not cross-trained", -1),
    ("Enemy without shields or unable to use them", 1),
    ("Enemy uphill of the attacker", -1),
    ("Enemy defending an obstacle (fence, ditch)", -1),
)
QUALITY_LEVELS = "fanatic 5, elite 4, average 3, levy 2, peasant 1"
RATINGS = (("Poor", 1), ("Average", 2), ("Good", 3))
RATING_ACTIONS = {name.lower(): n for name, n in RATINGS}


def build(options: Mapping[str, Any], army: Army | None, *, extras: tuple[str, ...] = ()) -> Sheet:
    check_extras(extras, EXTRAS)
    fifteen = options.get("figure_scale") == "15mm"
    k = Fraction(1, 2) if fifteen else Fraction(1)

    def d(n: int) -> str:
        return inches(n, k)

    def dice(expr: str) -> str:
        return f'½ × {expr}"' if fifteen else f'{expr}"'

    core = (
        Section(
            "Sequence of play",
            items=(
                "1. Rallies: rally attempts; routers that fail to rally move at once.",
                "2. Initiative: both roll; the winner keeps or passes it; −1 for each "
                "consecutive turn already won.",
                "3. Movement: the initiative side, then the other; counter-charges, evades "
                "and opportunity charges as they happen.",
                "4. Combat: a) missile fire, b) melee — all simultaneous.",
                "5. Morale tests.",
            ),
            key="sequence",
            rule="Turn Sequence",
        ),
        Section(
            "Movement",
            tables=(
                Table(
                    "Maximum move and rout/evade",
                    ("Troops", "Move", "Rout/evade"),
                    tuple((t, d(m), dice(r)) for t, m, r in MOVEMENT),
                    note="Mounted in disordering terrain: half move. Dense woods, swamps: "
                    "foot half, no mounted. Deep streams: foot ½, mounted ¼.",
                    key="movement",
                ),
            ),
            items=(
                "Straight forward moves and forward wheels; about-face uses half the turn "
                "(all of it when disordered). Turning left or right is a wheel.",
                "Wheels: measured along the outside edge, inside figure fixed; no slanted or "
                "backward wheels, never from the centre.",
                "Frontage: ±8 figures a turn (4 per half turn) when not moving or in melee; "
                "half that when disordered or in melee.",
                "Zone of control (straight ahead): melee troops half their move; missile "
                "troops their weapon's close range.",
                "Disordered: wheel at half speed, frontage changes take twice as long, "
                "about-face takes the turn, only the front rank fights, −1 morale/control.",
            ),
            key="movement",
            rule="Movement",
        ),
        Section(
            "Charges and evades",
            items=(
                "Charge: any move meant to contact; a normal move's distance. If the target "
                "evades, stop at its old place or carry on.",
                "Counter-charge: melee troops charged from the front charge back and meet "
                "about halfway.",
                f"Impetuous (cavalry; warbands after a control test): the last {d(4)} "
                "straight, no wheels; double dice in the first round; anyone charging or "
                "counter-charging them is disordered unless impetuous too; never in or "
                "through disordering terrain.",
                "Opportunity charge: at an enemy moving in the ZOC, out of sequence; may be "
                "impetuous.",
                "Evade (open order and missile troops): free turn, roll the rout/evade dice "
                "and move it all directly away, ending facing away; caught evaders are hit "
                "in the back and do not fight back.",
            ),
            key="charges",
            rule="Charges & Evades",
        ),
        Section(
            "To hit",
            tables=(
                Table(
                    "Defender's armour",
                    ("Armour", "Hit on"),
                    TO_HIT,
                    note="One d6 per 4 figures fighting (the first two ranks, rounded down, "
                    "per unit). A natural 1 always misses, a 6 always hits.",
                    key="to-hit",
                ),
            ),
            key="to-hit",
            rule="Combat: Armour",
        ),
        Section(
            "Missile fire",
            tables=(
                Table(
                    "Ranges",
                    ("Weapon", "Close", "Long"),
                    tuple((w, d(c), d(lo) if lo else "–") for w, c, lo in RANGES),
                    note="Long range: half the dice (1 per 8 figures). Longbow and heavy "
                    "crossbow +1 to hit at close range.",
                    key="missile-ranges",
                ),
                Table(
                    "Missile modifiers (to each die)",
                    ("Target", "Mod"),
                    tuple((t, signed(m)) for t, m in MISSILE_MODIFIERS),
                    key="missile-modifiers",
                ),
            ),
            items=(
                "Foot may move up to half and shoot; more than half, no shooting. Mounted "
                "move full and shoot.",
                "No shooting when charging, in melee, pursuing or interpenetrating. Foot "
                "shoot straight ahead; mounted in any one direction.",
                "Shoot first at chargers, split evenly between them.",
            ),
            key="missiles",
            rule="Missile Fire",
        ),
        Section(
            "Melee",
            tables=(
                Table(
                    "Melee modifiers (to each die)",
                    ("Condition", "Mod"),
                    tuple((t, signed(m)) for t, m in MELEE_MODIFIERS),
                    note="Double dice (1 per 2 figures) for an impetuous charge or an attack "
                    "on a flank or rear; both: 1 per figure.",
                    key="melee-modifiers",
                ),
            ),
            items=(
                "Figures facing and in contact, plus the second rank behind them; no "
                "overlaps. Missile troops in melee are penalised.",
            ),
            key="melee",
            rule="Melee",
        ),
        Section(
            "Flank and rear",
            items=(
                "Flanked: at least 4 enemy figures on a side with no figures facing them.",
                "Figures on a flank or rear roll 1 d6 per 2 figures; shields do not count "
                "from the rear.",
                "The unit attacked is pinned until next turn, then turns (flank: a column "
                "facing, or only the engaged figures and disordered).",
                "Morale −3 while flanked.",
            ),
            key="flank-rear",
            rule="Flanks & Rear",
        ),
        Section(
            "Combat results",
            items=(
                f"Driven back: {d(4)} straight back, still facing; a unit that cannot go "
                f"the full {d(4)} routs instead.",
                "Rout: roll the rout dice and move directly away, backs to the enemy; shaken "
                "and disordered; routers count as loose order.",
                f"Follow-up {d(4)} or pursuit (a normal move) when every opponent falls "
                "back or routs; pursuers are disordered. Catching routers: a bonus round, "
                "1 d6 per figure.",
            ),
            key="results",
            rule="Combat Results",
        ),
        Section(
            "Morale",
            tables=(
                Table(
                    "Morale modifiers (to the level)",
                    ("Condition", "Mod"),
                    (
                        ("Unit shaken", signed(-1)),
                        ("Unit disordered", signed(-1)),
                        ("Each 25% casualties from original strength", signed(-1)),
                        ("Flanked by enemy in melee", signed(-3)),
                        ("Outnumbering melee opponents by double or more", signed(1)),
                        ("Receiving long-range missile fire only", signed(1)),
                        ("Fire from fewer enemy than own numbers", signed(1)),
                        ("Melee opponent has more complete ranks", signed(-1)),
                        (
                            f"Supported: friends within {d(3)} of both flanks, or {d(6)} behind",
                            signed(1),
                        ),
                        (f"Each friendly unit routing within {d(12)}", signed(-1)),
                        (f"No unrouted friends in sight within {d(12)}", signed(-2)),
                        ("Uphill of all enemy in sight", signed(1)),
                        ("In cover, defending an obstacle, or cannot see the enemy", signed(1)),
                    ),
                    key="morale-modifiers",
                ),
                Table(
                    "Morale results",
                    ("d6 roll", "Result"),
                    (
                        ("equal or less", "Passed: steady (rallying routers stop, disordered)"),
                        ("over by 1", "Shaken: −1 to morale and control tests"),
                        ("over by 2 or 3", f"Driven back {d(4)}, shaken"),
                        ("over by 4 or more", "Routed: flee the rout dice, shaken, disordered"),
                    ),
                    note=f"Roll a d6: pass on the morale level ({QUALITY_LEVELS}) or less "
                    "after modifiers.",
                    key="morale-results",
                ),
            ),
            items=(
                "Test for: interpenetration by routers*; receiving an impetuous charge*; "
                "receiving missile fire* or being in melee (losers test first).",
                f"Also each friendly unit routed this turn that began within {d(6)} (not "
                f"open order), and each friendly unit destroyed, or friendly fanatics "
                f"routing, within {d(12)}. * taken at once.",
            ),
            key="morale",
            rule="Morale",
        ),
        Section(
            "Control tests and rallying",
            items=(
                "Control test: a morale test with the relevant modifiers; pass and the unit "
                "acts as wished, fail and it does not and is disordered.",
                "For: missile troops (not cross-trained) resisting an evade; not pursuing or "
                "following up; rallying from shaken (failing does not disorder).",
                "Rally phase (not in melee): shaken — control test; disordered — automatic, "
                "the whole turn; routed — morale test; evading — automatic.",
            ),
            key="control",
            rule="Control Tests; Rallying",
        ),
    )
    settings = (
        ("Figure scale", "15 mm — every distance halved" if fifteen else "25 mm"),
        ("Command & control", "on" if options.get("command_and_control") else "off"),
    )
    return assemble_sheet(
        "into-the-dark",
        TITLE,
        SOURCE,
        settings=settings,
        core=core,
        army=army,
        army_sections=(_special_troops(army, d), _command(army, options, d)),
        reference_title="Special troops, SWAT and command",
        extras=extras,
        offered=EXTRAS,
    )


def _special_troops(army: Army | None, d: Any) -> Section | None:
    rules = {
        "champion": "Champions: one figure, always open order; foot 2 hits, mounted 3 (the "
        "first kills the mount); 2 dice, 1 when wounded; cannot pin or flank or be flanked; "
        "always strike back; may join a front rank (2 enemy dice may target him).",
        "warband": "Warbands: may charge impetuously after passing a control test (failing "
        "has no effect); disordered at the end of the turn if melee followed.",
        "skirmishers": "Skirmishers: may back up at half speed without turning and still "
        "shoot; must evade when charged.",
        "peasant": "Peasants (quality 1): −1 in melee; no SWAT.",
        "longbow": f"Longbow: close {d(8)}, long {d(24)}; +1 to hit at close range; never "
        "cross-trained.",
        "heavy_crossbow": f"Heavy crossbow: close {d(6)}, long {d(24)}; +1 to hit at close "
        "range; cannot move and shoot.",
        "polearm": "Polearm: +1 in every melee; opponents get the +1 'shieldless' in melee.",
        "pike": "Pike: four ranks fight; only other pikes, and enemies on a flank or rear, "
        "get the +1 'shieldless'.",
        "shieldwall": f"Shieldwall: declared instead of moving; move at most {d(4)}; frontal "
        "opponents −1 in melee; +1 morale; not when disordered.",
        "mixed": "Mixed units: move at the speed of the slowest type; in melee the figures in "
        "contact give the attack and defence values; giving or receiving missile fire, the "
        "majority troop type's values.",
    }
    if army is None:
        return Section("Special troops and SWAT", items=tuple(rules.values()), key="special-troops")
    fielded: list[str] = []
    for unit in army.units:
        tags = [
            "champion" if unit.get("champion") else "",
            "warband" if unit.get("warband") else "",
            "skirmishers" if unit.get("skirmishers") else "",
            "peasant" if unit.get("quality") == "peasant" else "",
            str(unit.get("missile_weapon") or ""),
            str(unit.get("melee_weapon") or ""),
            "shieldwall" if unit.get("shieldwall") else "",
            "mixed" if unit.get("mixed") else "",
        ]
        fielded.extend(t for t in tags if t in rules and t not in fielded)
    if any(g.get("champion") for g in army.generals) and "champion" not in fielded:
        fielded.insert(0, "champion")
    if not fielded:
        return None
    order = list(rules)
    return Section(
        "Special troops and SWAT this army fields",
        items=tuple(rules[t] for t in sorted(fielded, key=order.index)),
        key="special-troops",
    )


def _command(army: Army | None, options: Mapping[str, Any], d: Any) -> Section | None:
    if army is not None and not army.generals and not options.get("command_and_control"):
        return None
    items = [
        "A general joined to a unit leads it: overrides its combat preferences and cancels "
        "negative morale modifiers up to his rating; 2 enemy dice may target him; one hit "
        "removes him.",
        f"Unjoined: his rating in command actions a turn — new orders (1 action), or order "
        f"units within {d(12)} against their combat preferences (1 unit per action).",
        "Orders: Attack, Hold, Fall Back. Preferences: mounted charge; foot stand; missile "
        "troops in close range stop, shoot and evade.",
        f"New orders to a general within {d(24)}: 1 action from each; d6 ≤ both ratings "
        "added: at once, else next turn.",
    ]
    if army is not None:
        divisions: dict[str, int] = {}
        for unit in army.units:
            if unit.get("division"):
                divisions[unit["division"]] = divisions.get(unit["division"], 0) + 1
        for g in army.generals:
            role = ", commanding" if g.get("commanding") else ""
            champion = ", champion" if g.get("champion") else ""
            count = divisions.get(g["name"], 0)
            actions = RATING_ACTIONS.get(g["rating"], 0)
            items.append(
                f"{g['name']}: {g['rating']} general ({actions} "
                f"action{'s' if actions != 1 else ''}){role}{champion}; division of "
                f"{count} unit{'s' if count != 1 else ''}."
            )
    return Section(
        "Generals and command & control",
        tables=(
            Table(
                "General ratings",
                ("Rating", "Actions", "Points"),
                tuple((name, str(n), str(25 * n)) for name, n in RATINGS),
                key="general-ratings",
            ),
        ),
        items=tuple(items),
        key="command",
        rule="Command & Control",
    )
