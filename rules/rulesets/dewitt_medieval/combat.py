"""Dewitt's Medieval Wargaming Rules at the table: shooting points and impacts, one stand's
melee pair-off, morale tests and rallies on the 1-10 die, and the order of play. Figures are
never removed: hits lower a unit's morale (8, 7, 6, 5) and the fourth destroys it."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Protocol

from rules.base import Ruling, Unit
from rules.combat import (
    Combat,
    CombatRules,
    DieSpec,
    Modifier,
    Phase,
    Rally,
    Result,
    Step,
    Verdict,
    counted,
    fraction_text,
)
from rules.errors import MalformedDocument

D10 = tuple(range(1, 11))
MELEE_ROLL = tuple(range(0, 11))  # "ROLL 0-10)", as printed
MISSILES = ("crossbow", "sling", "longbow", "bow", "ss")
MORALE_BY_HITS = (8, 7, 6, 5)  # "NO HITS 8 / 1 HIT 7 / 2 HITS 6 / 3 HITS 5 / 4 HITS UNIT DESTROYED"
DESTROYED_AT = 4
PHASES = (
    Phase("rally", "1) Player A may rally routing units", "ORDER OF PLAY"),
    Phase("move", "2) Player A moves", "ORDER OF PLAY"),
    Phase("defensive", "3) Player B's defensive moves and supporting fire", "ORDER OF PLAY"),
    Phase("melee", "4) Melee", "ORDER OF PLAY"),
    Phase("breakthrough", "5) Player A breakthrough", "ORDER OF PLAY"),
    Phase("reaction", "6) Player B's reaction to the breakthrough", "ORDER OF PLAY"),
    Phase("morale", "7) Both players check morale", "ORDER OF PLAY"),
    Phase("swap", "8) Player A becomes player B", "ORDER OF PLAY"),
)
SHOOTING_PHASES = ("move", "defensive")
MELEE_PHASES = ("melee", "breakthrough")

RULINGS = (
    Ruling(
        "C1",
        "A failed morale test is a hit: the unit's morale falls one step (8, 7, 6, 5) "
        'and the fourth destroys it (the introduction: "a unit that fails morale '
        'four times is removed"); losing every pair-off of a melee is a hit too '
        "(Melee).",
    ),
    Ruling(
        "C2",
        'The shooting table ("TABLE X") is not in the source (Ruling R3): the '
        "players give its value (numbers.table); shooting points are kept exact, so "
        "the roll is compared with them without rounding.",
    ),
    Ruling(
        "C3",
        "Shooting is resolved once all movement is finished: the moving player's fire "
        "after step 3, Player B's supporting fire in step 3.",
    ),
    Ruling(
        "C4",
        "The melee roll reads 0-10 as printed; stand strengths that tie are rolled "
        'again. "UP HILL CHARGE (DEFENDERS HOLDING GROUND) 2" is +2 to the '
        "defenders holding the ground against a charge up the hill.",
    ),
)
BY_CODE = {r.code: r for r in RULINGS}


class Points(Protocol):
    def melee_points(self, unit: Unit) -> tuple[Fraction, list[str]]: ...


def _signed(value: Fraction) -> str:
    return f"{'−' if value < 0 else '+'} {fraction_text(abs(value))}"


def morale(hits: int) -> int:
    return MORALE_BY_HITS[min(hits, DESTROYED_AT - 1)]


class DewittCombat(CombatRules):
    rulings = RULINGS
    numbers_asked = (
        ("table", "the shooting table's value"),
        ("men", "the men firing"),
        ("impulses", "the impulses firing"),
    )

    def __init__(self, ruleset: Points) -> None:
        self.ruleset = ruleset

    def phases(self, options: Mapping[str, Any]) -> tuple[Phase, ...]:
        return PHASES

    def combat_modifiers(
        self,
        attacker: Unit,
        target: Unit,
        phase: str,
        options: Mapping[str, Any],
        target_list: Mapping[str, Any] | None = None,
    ) -> tuple[Modifier, ...]:
        if phase in SHOOTING_PHASES:
            if not set(MISSILES) & set(attacker["weapons"]):
                raise MalformedDocument("phase", "phase: the attacker has no crossbow, sling, "
                                        "bow, longbow or SS to shoot with; melee is phase "
                                        "'melee'")  # fmt: skip
            found = [Modifier("long_range_or_indirect", "Long range or indirect: count ½ of "
                              "the firing men", "Movement", "halve")]  # fmt: skip
            if attacker["arm"] == "cavalry":
                found.append(Modifier("horse_archers", "Horse archers divide the total by 2",
                                      "Movement", "halve", automatic=True))  # fmt: skip
            return tuple(found)
        if phase not in MELEE_PHASES:
            raise MalformedDocument("phase", f"phase: no combat in {phase!r}; shooting is in "
                                    "'move' or 'defensive', melee in 'melee' or "
                                    "'breakthrough'")  # fmt: skip
        return _melee_modifiers(attacker, target)

    def dice(self, combat: Combat) -> DieSpec:
        if combat.phase in SHOOTING_PHASES:
            return DieSpec("D10 (1-10)", D10)
        return DieSpec("roll (0-10)", MELEE_ROLL, 2, "the attacker's stand, then the target's")

    def work_out_hits(self, combat: Combat) -> Result:
        applied = self.check(combat)
        if combat.phase in SHOOTING_PHASES:
            return self._shooting(combat, applied)
        return self._melee(combat, applied)

    def _shooting(self, combat: Combat, applied: tuple[Modifier, ...]) -> Result:
        keys = {m.key for m in applied}
        for need in ("table", "men", "impulses"):
            if need not in combat.numbers:
                raise MalformedDocument(f"numbers.{need}", f"numbers.{need}: is required to "
                                        "work out shooting points: table (the shooting "
                                        "table's value), men (firing) and impulses"
                                        " (firing)")  # fmt: skip
        table, impulses = combat.number("table"), combat.number("impulses")
        men = Fraction(combat.number("men"))
        steps = []
        if "long_range_or_indirect" in keys:
            men /= 2
            steps.append(Step(f"Long range or indirect: count ½ of the men, {fraction_text(men)}",
                              "Movement"))  # fmt: skip
        points = Fraction(table) * men * impulses / 10
        steps.append(Step(f"Shooting points: {table} × {fraction_text(men)} men × {impulses} "
                          f"impulses / 10 = {fraction_text(points)} (Ruling C2)",
                          "Movement"))  # fmt: skip
        if "horse_archers" in keys:
            points /= 2
            steps.append(Step(f"Horse archers: total / 2 = {fraction_text(points)}", "Movement"))
        die = combat.dice[0]
        impact = die <= points
        steps.append(Step(f"Rolled {die}: {'equal or less' if impact else 'more'} than "
                          f"{fraction_text(points)}: {'an impact' if impact else 'no impact'}",
                          "Movement"))  # fmt: skip
        total = combat.number("target_impacts") + int(impact)
        verdict = (
            Verdict("test", "after all shooting", "Impact: the target takes a morale test after "
                    f"all shooting, at −{total} for impacts", "Morale")
            if impact else None
        )  # fmt: skip
        return Result(int(impact), "impacts", tuple(steps), total, verdict,
                      (BY_CODE["C2"], BY_CODE["C3"]))  # fmt: skip

    def _melee(self, combat: Combat, applied: tuple[Modifier, ...]) -> Result:
        keys = {m.key for m in applied}
        steps: list[Step] = []
        sides = []
        for who, unit, hits_key, roll in (
            ("Attacker", combat.attacker, "attacker_hits", combat.dice[0]),
            ("Target", combat.target, "target_hits", combat.dice[1]),
        ):
            own = Fraction(morale(combat.number(hits_key)))
            lost = f"{who.lower()}_lost_melee" in keys
            if lost:
                own /= 2
            points, terms = self.ruleset.melee_points(unit)
            bonus = sum((Fraction(m.amount) for m in applied if m.effect == "add"
                         and m.key.startswith(who.lower() + "_")), Fraction(0))  # fmt: skip
            strength = own + points + bonus + roll
            named = ", ".join(m.label for m in applied if m.key.startswith(who.lower() + "_")
                              and m.effect == "add")  # fmt: skip
            steps.append(Step(
                f"{who}: morale {fraction_text(own)}{' (half: lost a melee this turn)' if lost else ''}"
                f" + troop points {fraction_text(points)} ({', '.join(terms)})"
                f"{f' {_signed(bonus)} ({named})' if bonus or named else ''}"
                f" + roll {roll} = {fraction_text(strength)}", "Melee"))  # fmt: skip
            sides.append(strength)
        if "rear" in keys:
            steps.append(Step("Hit in the rear: the target does not fight back", "Melee"))
            outcome, text = "target stand loses", "The attacker's stand wins the pair-off"
        elif sides[0] == sides[1]:
            outcome, text = "tie", "Equal strengths: roll the pair-off again (Ruling C4)"
        elif sides[0] > sides[1]:
            outcome, text = "target stand loses", "The attacker's stand wins the pair-off"
        else:
            outcome, text = "attacker stand loses", "The target's stand wins the pair-off"
        steps.append(Step(text, "Melee"))
        verdict = Verdict(outcome, "now", "When all of a unit's stands in a battle lose, it takes "
                          "1 hit and makes a morale roll: pass, retreat; fail, rout",
                          "Melee")  # fmt: skip
        total = combat.number("target_hits")
        return Result(0, "hits", tuple(steps), total, verdict, (BY_CODE["C4"],))

    def removal(self, unit: Unit, total: int, options: Mapping[str, Any], phase: str) -> Verdict:
        if total >= DESTROYED_AT:
            return Verdict("removed", "now", f"{counted(total, 'hits')}: unit destroyed", "Morale")
        return Verdict("stays", "", f"{counted(total, 'hits')}: morale {morale(total)}", "Morale")

    def morale_test(self, hits: int, die: int, *, impacts: int = 0, won_melee: bool = False,
                    seen: int = 0, burst: bool = False) -> Result:  # fmt: skip
        """A morale test: fail by rolling higher than the unit's morale, modified (Morale);
        a failure is a hit (Ruling C1)."""
        if die not in D10:
            raise MalformedDocument("die", f"die: {die} is not a roll of 1-10")
        level = morale(hits) - impacts + (2 if won_melee else 0) - seen - (1 if burst else 0)
        steps = [Step(f"Morale {morale(hits)} ({counted(hits, 'hits')})"
                      f"{f' −{impacts} impacts' if impacts else ''}"
                      f"{' +2 won the melee' if won_melee else ''}"
                      f"{f' −{seen} units seen routed or eliminated' if seen else ''}"
                      f"{' −1 routers burst through' if burst else ''} = {level}",
                      "Morale")]  # fmt: skip
        failed = die > level
        steps.append(Step(f"Rolled {die}: {'higher: fails' if failed else 'passes'}", "Morale"))
        total = hits + int(failed)
        verdict = self.removal({}, total, {}, "morale")
        return Result(int(failed), "hits", tuple(steps), total, verdict, (BY_CODE["C1"],))

    def rally_facts(self, options: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
        # each unit seen routed or eliminated is one more fact (``saw_rout...``): -1 each
        return tuple((f"saw_rout_{n}", f"Saw {word} friendly unit rout or be eliminated")
                     for n, word in ((1, "a"), (2, "a second"), (3, "a third")))  # fmt: skip

    def rally_dice(self, rally: Rally) -> DieSpec | None:
        """A rally is a morale test: one roll of 1-10 (Morale)."""
        return DieSpec("D10 (1-10)", D10, 1, "the morale test")

    def rally(self, rally: Rally) -> Result:
        """A routing unit rallies by passing a morale test; it counts as seeing itself rout."""
        if rally.die is None:
            raise MalformedDocument("die", "die: a rally is a morale test; give the 1-10 roll")
        seen = 1 + sum(1 for f in rally.facts if f.startswith("saw_rout"))
        test = self.morale_test(rally.hits, rally.die, seen=seen)
        passed = test.hits == 0
        steps = (*test.steps, Step("Rallied: moves no closer to the enemy next move" if passed
                                   else "Fails: routs on", "Morale"))  # fmt: skip
        return Result(0, "hits", steps, rally.hits, None, ())


def _melee_modifiers(attacker: Unit, target: Unit) -> tuple[Modifier, ...]:
    found = [
        Modifier("attacker_charge", "Charge", "MODIFICATIONS", "add", 1),
        Modifier("target_countercharge", "Countercharge", "MODIFICATIONS", "add", 1),
        Modifier("attacker_downhill_charge", "Downhill charge", "MODIFICATIONS", "add", 1),
        Modifier("target_holding_uphill", "Defenders holding ground against an uphill charge "
                 "(Ruling C4)", "MODIFICATIONS", "add", 2),
        Modifier("attacker_flank", "Attacking on the flank", "MODIFICATIONS", "add", 1),
        Modifier("rear", "Hit in the rear: no fighting back", "Melee", "note"),
        Modifier("attacker_lost_melee", "Attacker lost a melee this player turn: ½ morale",
                 "Melee", "note"),
        Modifier("target_lost_melee", "Target lost a melee this player turn: ½ morale",
                 "Melee", "note"),
    ]  # fmt: skip
    if target["arm"] == "foot" and attacker["arm"] == "cavalry":
        found.append(Modifier("target_moving_hit_by_cavalry", "Moving infantry hit by cavalry",
                              "MODIFICATIONS", "add", -2))  # fmt: skip
    stakes = -2 if attacker["arm"] == "cavalry" else -1
    found.append(Modifier("attacker_stakes", "Defender behind stakes", "MODIFICATIONS", "add",
                          stakes))  # fmt: skip
    for who, unit, other in (("attacker", attacker, target), ("target", target, attacker)):
        weapons = set(unit["weapons"])
        if "spear" in weapons and other["class"] in ("light", "medium"):
            found.append(Modifier(f"{who}_spear", "Spear vs lights or medium", "MODIFICATIONS",
                                  "add", 1, automatic=True))  # fmt: skip
        if "pike" in weapons and other["arm"] == "cavalry":
            found.append(Modifier(f"{who}_pike", "Pike vs cavalry", "MODIFICATIONS", "add", 2,
                                  automatic=True))  # fmt: skip
        if "mace" in weapons and other["class"] == "super_heavy":
            found.append(Modifier(f"{who}_mace", "Mace vs super heavy", "MODIFICATIONS", "add",
                                  1, automatic=True))  # fmt: skip
    return tuple(found)
