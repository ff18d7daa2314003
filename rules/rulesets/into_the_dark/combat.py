"""Into the Dark at the table: dice for the figures fighting (COMBAT), each die against the
target's armour with the cumulative modifiers (Missile Fire, Melee), casualties, the morale
test that follows (Morale Tests) and rallies, and the sequence of play."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.base import Ruling, Unit
from rules.combat import (
    Combat,
    CombatRules,
    DieSpec,
    Initiative,
    Modifier,
    Phase,
    Rally,
    Result,
    Step,
    Verdict,
)
from rules.errors import MalformedDocument
from rules.rulesets.into_the_dark.troops import QUALITY, RANGES, SHIELDLESS_MISSILES

D6 = (1, 2, 3, 4, 5, 6)
HIT_ON = {"unarmoured": 3, "protected": 4, "armoured": 5, "mailed": 6, "encased": 7}
PHASES = (
    Phase("rally", "1) Rallys", "Rallys"),
    Phase("initiative", "2) Dice for initiative", "Initiative"),
    Phase("movement", "3) Movement", "MOVEMENT"),
    Phase("missile", "4a) Combat: missile fire", "Missile Fire"),
    Phase("melee", "4b) Combat: melee", "Melee"),
    Phase("morale", "5) Morale tests", "MORALE"),
)
# Morale Tests' modifiers: key -> (label, amount)
MORALE_MODIFIERS = {
    "shaken": ("unit shaken", -1),
    "disordered": ("unit disordered", -1),
    "flanked": ("unit flanked", -3),
    "outnumbers": ("outnumbers its melee opponents by double or more", 1),
    "long_range_only": ("receiving long range missile fire only", 1),
    "fewer_firers": ("receiving missile fire from fewer enemy than its own numbers", 1),
    "deeper_ranks": ("opposing unit in melee has more complete ranks", -1),
    "supported": ("unit supported", 1),
    "unsupported": ("unit unsupported", -2),
    "uphill": ("unit is uphill", 1),
    "cover": ("unit in cover", 1),
}
RULINGS = (
    Ruling(
        "C1",
        "numbers.figures is the figures of the attacking unit eligible to fight or "
        "shoot (first two ranks facing the enemy; a disordered unit's front rank); "
        "when a flank or rear is attacked they are the figures in contact with it.",
    ),
    Ruling(
        "C2",
        '"Shieldless, or being hit from the rear +1" is one +1: a shieldless target '
        'hit in the rear gets +1, not +2. Peasants\' "always -1" is the same -1 as '
        '"peasants or missile troops", not a second one.',
    ),
    Ruling(
        "C3",
        "A unit is gone when its casualties reach its figures; otherwise both sides "
        "take the morale test for being in combat.",
    ),
    Ruling(
        "C4",
        "Foot bows and light crossbows without cross-training are shieldless targets "
        "(Missile Weapons); longbows and heavy crossbows count as bows.",
    ),
    Ruling(
        "C5",
        'Dice for initiative: each side rolls one d6 (SETUP: "standard six sided dice") and '
        "the higher roll, after last turn's winner's -1s, wins; the source says nothing of "
        "ties, so a tie wins nothing and both sides roll again.",
    ),
)
BY_CODE = {r.code: r for r in RULINGS}
BOWS = SHIELDLESS_MISSILES | {"longbow", "heavy_crossbow", "mounted_bow"}


def hit_on(unit: Unit) -> int:
    return HIT_ON[unit["armour"]]


class IntoTheDarkCombat(CombatRules):
    rulings = RULINGS
    numbers_asked = (("figures", "the attacking figures eligible to fight or shoot"),)

    def phases(self, options: Mapping[str, Any]) -> tuple[Phase, ...]:
        return PHASES

    def initiative(self, options: Mapping[str, Any]) -> Initiative:
        """Sequence of Play, 2. Dice for initiative: "At the beginning of each turn both
        sides roll dice, the winner decides if he wishes to keep or pass the initiative to
        his opponent. The side with the initiative moves first. The winner of last turn's
        initiative roll receives a -1 to his roll for each consecutive turn he won the
        initiative." Rolled in Turn 1 too: "each turn" names no exception, and nothing else
        in the source says who moves first (3. Movement a.: "The side with initiative moves
        first"). Due in its own phase, after the rallies (1. Rallys). Ties: Ruling C5."""
        return Initiative(0, DieSpec("D6", D6), "Sequence of Play, 2. Dice for initiative",
                          "a tie wins nothing: both sides roll again (Ruling C5)",
                          phase="initiative", first=1, choose=True, streak=True)  # fmt: skip

    def combat_modifiers(
        self,
        attacker: Unit,
        target: Unit,
        phase: str,
        options: Mapping[str, Any],
        target_list: Mapping[str, Any] | None = None,
    ) -> tuple[Modifier, ...]:
        if phase == "missile":
            return _missile_modifiers(attacker, target)
        if phase == "melee":
            return _melee_modifiers(attacker, target)
        raise MalformedDocument("phase", f"phase: no combat in {phase!r}; combat is 'missile' "
                                "or 'melee'")  # fmt: skip

    def dice(self, combat: Combat) -> DieSpec:
        return DieSpec("D6", D6, self._dice_count(combat)[0], "one per die the figures roll")

    def _dice_count(self, combat: Combat) -> tuple[int, str]:
        unit, keys = combat.attacker, combat.modifiers
        if unit["champion"]:
            left = (3 if unit["mounted"] else 2) - combat.number("attacker_hits")
            count = 2 if left > 1 else 1
            return count, f"Champion: {count} d6 ({'unwounded' if count == 2 else 'wounded'})"
        if "figures" not in combat.numbers:
            raise MalformedDocument("numbers.figures", "numbers.figures: is required: the "
                                    "attacking figures eligible to fight or shoot (Ruling "
                                    "C1)")  # fmt: skip
        figures = combat.number("figures")
        per = 4
        why = ["1 d6 per 4 figures"]
        if combat.phase == "missile" and "long_range" in keys:
            per, why = 8, ["long range: 1 d6 per 8 figures"]
        if combat.phase == "melee":
            for key, said in (("flank", "flank"), ("rear", "rear"), ("impetuous", "impetuous")):
                if key in keys:
                    per //= 2
                    why.append(f"{said}: dice doubled")
        return figures // per, f"{figures} figures, {', '.join(why)}: {figures // per} d6"

    def work_out_hits(self, combat: Combat) -> Result:
        applied = self.check(combat)
        rule = "Missile Fire" if combat.phase == "missile" else "Melee"
        count, how = self._dice_count(combat)
        steps = [Step(how + " (rounded down)", "COMBAT")]
        adds = [m for m in applied if m.effect == "add"]
        keys = {m.key for m in applied}
        if {"shieldless", "rear"} <= keys:
            adds = [m for m in adds if m.key != "rear"]
            steps.append(Step("Shieldless and hit in the rear: +1 once (Ruling C2)", rule))
        total_mod = sum(m.amount for m in adds)
        need = hit_on(combat.target)
        for m in adds:
            steps.append(Step(f"{m.label} {m.amount:+d}", m.section))
        steps.append(Step(f"{combat.target['armour'].capitalize()}: hit on {need}+; with "
                          f"{total_mod:+d}, a die hits on {need - total_mod}+; a natural 1 "
                          "always misses, a 6 always hits", "Armour"))  # fmt: skip
        hits = sum(1 for d in combat.dice if d == 6 or (d != 1 and d + total_mod >= need))
        shown = ", ".join(str(d) for d in combat.dice) or "no dice"
        steps.append(Step(f"Rolled {shown}: {hits} casualt{'y' if hits == 1 else 'ies'}", rule))
        total = combat.number("target_casualties") + hits
        used = [BY_CODE["C1"], BY_CODE["C3"]]
        if any(m.key in ("shieldless", "rear") for m in adds):
            used.append(BY_CODE["C2"])
        verdict = self.removal(combat.target, total, combat.options, combat.phase)
        return Result(hits, "casualties", tuple(steps), total, verdict, tuple(used))

    def removal(self, unit: Unit, total: int, options: Mapping[str, Any], phase: str) -> Verdict:
        figures = (3 if unit["mounted"] else 2) if unit["champion"] else unit["figures"]
        if total >= figures:
            return Verdict("removed", "now", f"{total} casualties of {figures}: gone (Ruling C3)",
                           "Combat Results")  # fmt: skip
        quarters = total * 4 // unit["figures"] if not unit["champion"] else 0
        return Verdict("test", "end of the turn", f"{total} of {figures} figures lost: morale "
                       f"test for being in combat, −{quarters} for casualties",
                       "Morale Tests")  # fmt: skip

    def morale_test(self, unit: Unit, die: int, *, casualties: int = 0,
                    modifiers: frozenset[str] = frozenset(), friends_routing: int = 0) -> Result:  # fmt: skip
        """Roll the unit's morale level or less, modified, on a d6 (Morale Tests)."""
        unknown = sorted(modifiers - set(MORALE_MODIFIERS))
        if unknown:
            raise MalformedDocument("modifiers", f"modifiers: {', '.join(unknown)} unknown; "
                                    f"allowed: {', '.join(MORALE_MODIFIERS)}")  # fmt: skip
        if die not in D6:
            raise MalformedDocument("die", f"die: {die} is not a face of the D6")
        level = QUALITY[unit["quality"]]
        parts = [(label, amount) for key, (label, amount) in MORALE_MODIFIERS.items()
                 if key in modifiers]  # fmt: skip
        quarters = casualties * 4 // unit["figures"]
        if quarters:
            parts.append((f"casualties: {quarters} × 25%", -quarters))
        if friends_routing:
            parts.append((f"{friends_routing} friendly units routing", -friends_routing))
        needed = level + sum(a for _, a in parts)
        said = "".join(f" {a:+d} {label}" for label, a in parts)
        steps = [Step(f"Morale level {level}{said} = {needed}", "Morale Tests")]
        over = die - needed
        outcome = ("passed" if over <= 0 else "shaken" if over == 1
                   else "driven back" if over <= 3 else "routed")  # fmt: skip
        steps.append(Step(f"Rolled {die}: {outcome}", "Morale Tests"))
        return Result(0, "casualties", tuple(steps), casualties,
                      Verdict(outcome, "now", outcome, "Morale Tests"))  # fmt: skip

    def rally_facts(self, options: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
        # "shaken" always counts: a unit that rallies is shaken or routed
        moods = tuple((k, label[:1].upper() + label[1:]) for k, (label, _) in
                      MORALE_MODIFIERS.items() if k != "shaken")  # fmt: skip
        return (("in_melee", "In melee"), ("routed", "Routed (else shaken)"), *moods)

    def rally_dice(self, rally: Rally) -> DieSpec | None:
        """A rally is a test on a d6 (Rallying); a unit in melee attempts none."""
        if "in_melee" in rally.facts:
            return None
        return DieSpec("D6", D6, 1, "the rally's test")

    def rally(self, rally: Rally) -> Result:
        """A routed unit rallies by passing a morale test; a shaken one by a control test."""
        if "in_melee" in rally.facts:  # no test, so no die (``rally_dice``)
            step = Step("A unit in melee may not attempt to rally", "Rallying")
            return Result(0, "casualties", (step,), rally.hits)
        if rally.die is None:
            raise MalformedDocument("die", "die: a rally is a test on a d6; give the die")
        kind = "routed" if "routed" in rally.facts else "shaken"
        flags = frozenset(f for f in rally.facts if f in MORALE_MODIFIERS) | {"shaken"}
        test = self.morale_test(rally.unit, rally.die, casualties=rally.hits, modifiers=flags)
        outcome = test.verdict.outcome if test.verdict else "passed"
        if kind == "routed":
            said = {"passed": "stops routing, steady and still disordered",
                    "shaken": "stops routing, shaken and disordered",
                    "driven back": "retreats 4 inches more, then rallies, shaken",
                    "routed": "fails: another rout move"}[outcome]  # fmt: skip
        else:
            said = "steady again" if outcome == "passed" else "stays shaken (not disordered)"
        steps = (*test.steps, Step(f"Rally: {said}", "Rallying"))
        return Result(0, "casualties", steps, rally.hits)


def _missile_modifiers(attacker: Unit, target: Unit) -> tuple[Modifier, ...]:
    weapon = attacker["missile_weapon"]
    if weapon is None or attacker["training"] == "melee":
        raise MalformedDocument("phase", "phase: the attacker has no missile weapon; melee is "
                                "phase 'melee'")  # fmt: skip
    rule = "Missile Fire"
    found = []
    if RANGES[weapon][1] is not None:
        found.append(Modifier("long_range", "Long range: dice halved", rule, "note"))
    if weapon in ("longbow", "heavy_crossbow"):
        found.append(Modifier("close_range_piercing", "Close range: +1 to hit", "SWAT", "add",
                              1, automatic=False))  # fmt: skip
    if not target["mounted"] and target["density"] == "open":
        found.append(Modifier("open_foot", "Target open order foot", rule, "add", -2,
                              automatic=True))  # fmt: skip
    elif (
        target["density"] == "loose"
        and not target["mounted"]
        or (target["density"] == "open" and target["mounted"])
    ):
        found.append(Modifier("loose", "Target loose order foot or open order mounted", rule,
                              "add", -1, automatic=True))  # fmt: skip
    found += _shieldless(target, rule, melee=False)
    found.append(Modifier("light_cover", "Target in light cover (woods, fences)", rule, "add",
                          -1, group="cover"))  # fmt: skip
    found.append(Modifier("heavy_cover", "Target in heavy cover (buildings, walls)", rule,
                          "add", -2, group="cover"))  # fmt: skip
    return tuple(found)


def _shieldless(target: Unit, rule: str, *, melee: bool) -> list[Modifier]:
    """The one +1 for a target without shields (or unable to use them), or hit in the rear."""
    bows = target["missile_weapon"] in BOWS and target["training"] == "missile"
    polearm = melee and target["melee_weapon"] == "polearm"
    if bows or polearm:
        label = "Target shieldless (bows, Ruling C4)" if bows else "Target wields a polearm"
        return [Modifier("shieldless", label, rule, "add", 1, automatic=True)]
    found = [Modifier("shieldless", "Target without shields or unable to use them", rule, "add", 1)]
    if not melee:
        found.append(Modifier("rear", "Hit from the rear (shields not counted)", rule, "add", 1))
    return found


def _melee_modifiers(attacker: Unit, target: Unit) -> tuple[Modifier, ...]:
    rule = "Melee"
    found = [Modifier("charging", "Charging or counter-charging", rule, "add", 1)]
    if attacker["quality"] == "fanatic":
        found.append(Modifier("fanatics", "Steady fanatics", "Troop Quality", "add", 1,
                              automatic=True))  # fmt: skip
        found.append(Modifier("shaken", "Shaken: fanatics lose their +1", "Morale States",
                              "add", -1, group="fanatic"))  # fmt: skip
    if attacker["quality"] == "peasant" or attacker["training"] == "missile":
        found.append(Modifier("peasants_or_missile", "Peasants or missile troops", rule, "add",
                              -1, automatic=True))  # fmt: skip
    if attacker["melee_weapon"] == "polearm":
        found.append(Modifier("polearm", "Polearm", "Polearm", "add", 1, automatic=True))
    found += _shieldless(target, rule, melee=True)
    if target["melee_weapon"] == "pike" and attacker["melee_weapon"] == "pike":
        found = [m for m in found if m.key != "shieldless"]
        found.append(Modifier("shieldless", "Pike against pike: opponent shieldless", "Pike",
                              "add", 1, automatic=True))  # fmt: skip
    found.append(Modifier("uphill", "Enemy uphill of the attacking unit", rule, "add", -1))
    found.append(Modifier("obstacle", "Enemy defending an obstacle (fence, ditch)", rule,
                          "add", -1))  # fmt: skip
    if target["shieldwall"]:
        found.append(Modifier("shieldwall", "Enemy in shieldwall, frontal contact",
                              "Shieldwall", "add", -1))  # fmt: skip
    found.append(Modifier("flank", "Attacking the flank: dice doubled", "Flanks & Rear",
                          "note", group="facing"))  # fmt: skip
    found.append(Modifier("rear", "Attacking the rear: dice doubled, shields not counted",
                          "Flanks & Rear", "add", 1, group="facing"))  # fmt: skip
    if attacker["mounted"] or attacker["warband"]:
        found.append(Modifier("impetuous", "Charged impetuously: dice doubled",
                              "Impetuous Charges", "note"))  # fmt: skip
    return tuple(found)
