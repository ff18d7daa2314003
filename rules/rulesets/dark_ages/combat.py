"""Both Dark Ages editions at the table: hits from shooting and melee, halved and doubled in
the order each source lists them, removal at the unit's hits, rallies, and the turn's four
phases. One working for both; each edition's words, dice and terrain are its ``Edition``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

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
    counted,
    force_morale,
    modifier_sum,
    round_up,
)
from rules.errors import MalformedDocument
from rules.rulesets.dark_ages import common

D6 = (1, 2, 3, 4, 5, 6)
D5 = (2, 3, 3, 4, 4, 5)  # the average die: "pips of 2, 3, 3, 4, 4, 5"
SHOOT_MODIFIER = {"bow": -2, "javelin": -1}


class Fighter(Protocol):
    """What the working reads of an edition's rule set (``DarkAgesRuleSet``)."""

    slug: str
    woods_types: tuple[str, ...]

    def modifiers(self, unit: Unit) -> list[int]: ...

    def hits(self, unit: Unit) -> int: ...

    def variant_of(self, unit: Unit) -> Any: ...


@dataclass(frozen=True)
class Edition:
    """What differs between the editions: the last phase, the terrain each combat halves
    for, the cap on halvings (None: no cap), its rulings, and what Viking veterans may
    fight as instead of infantry."""

    last_phase: Phase
    shoot_terrain: tuple[tuple[str, str], ...]
    melee_terrain: tuple[tuple[str, str], ...]
    max_halvings: int | None
    rulings: tuple[Ruling, ...]
    second_type: str
    types_rule: str


COMMON_RULINGS = (
    Ruling(
        "C1",
        "A die and its modifier never make fewer than 0 hits (the battle report: "
        '"on a d6 roll of 1-2 zero hits are inflicted").',
    ),
    Ruling(
        "C2",
        "The halvings apply in the order the source lists them, terrain then "
        'shieldwall, each rounded up at once ("[round up]"); then a doubling. The '
        "source does not say a halving and a doubling cancel, so 3 hits on a unit in "
        "woods shot in the rear are 2 × 2 = 4.",
    ),
    Ruling(
        "C3",
        "Viking veterans choose, combat by combat, to fight as infantry or as "
        'warband (the second line of their stat line): tick "fights as" for the '
        "second; as a target in shieldwall, tick shieldwall when they stand as "
        "infantry.",
    ),
)


EDITIONS = {
    "dark-ages-2015": Edition(
        Phase("eliminating", "4) Eliminating Units", "ELIMINATING UNITS"),
        (("woods", "In woods"), ("village", "In a village")),
        (("woods", "Defending woods"), ("uphill", "Uphill"),
         ("river", "Defending a river crossing")),
        None,
        (Ruling("C4", "Banners and priests rally in Phase 4, Eliminating Units, after the "
                      "removals: the 2015 rules name no phase for rallies (the d5 revision's "
                      "Phase 4 is Routs and Rallies)."),
         Ruling("C5", "FORCE MORALE's d3 is a d6 halved, rounded up (d3+1 for four units); "
                      "with two or three d6 the force fights on if any roll beats the units "
                      "lost.")),
        "warband",
        "ADDITIONAL UNIT TYPES",
    ),
    "dark-ages-d5": Edition(
        Phase("routs_rallies", "4) Routs and Rallies", "ROUTS AND RALLIES"),
        (("woods", "Defending woods"), ("village", "Defending a village"),
         ("walls", "Defending walls")),
        (("uphill", "Uphill"), ("woods", "Defending woods"), ("river_bank", "Defending a river "
         "bank"), ("gully", "Defending a gully"), ("wall", "Defending a wall"),
         ("village", "Defending a village (Ruling C4)")),
        2,
        (Ruling("C4", "A village gives a defensive bonus when inside (Terrain); the melee list "
                      "does not repeat it, but Muster halves melee hits for a unit defending "
                      "a village too."),
         Ruling("C5", "Stacked Modifiers: at most two halvings count, so the max defensive "
                      "benefit is ¼ hits; the doubling for a flank or rear follows them.")),
        "warriors",
        "IDEAS FOR UNIT TYPES",
    ),
}  # fmt: skip


class DarkAgesCombat(CombatRules):
    one_sided = ("3) Melee, One-Sided Melee",
                 "units only inflict casualties during their own player turn")  # fmt: skip

    def __init__(self, ruleset: Fighter) -> None:
        self.ruleset = ruleset
        self.edition = EDITIONS[ruleset.slug]
        self.rulings = COMMON_RULINGS + self.edition.rulings

    def phases(self, options: Mapping[str, Any]) -> tuple[Phase, ...]:
        return (
            Phase("movement", "1) Movement", "MOVEMENT"),
            Phase("shooting", "2) Shooting", "SHOOTING"),
            Phase("melee", "3) Melee", "MELEE"),
            self.edition.last_phase,
        )

    def not_offered(self, key: str, combat: Combat) -> str:
        if key == "woods" and combat.target["type"] not in self.ruleset.woods_types:
            return f"only {' and '.join(self.ruleset.woods_types)} may enter woods (Terrain)"
        return ""

    def combat_modifiers(
        self,
        attacker: Unit,
        target: Unit,
        phase: str,
        options: Mapping[str, Any],
        target_list: Mapping[str, Any] | None = None,
    ) -> tuple[Modifier, ...]:
        edition = self.edition
        found: list[Modifier] = []
        if phase == "melee":
            terrain = edition.melee_terrain
        elif phase in ("shooting", "movement"):
            _shooter(attacker, phase)
            terrain = edition.shoot_terrain
        else:
            raise MalformedDocument(
                "phase", f"phase: no combat in {phase!r}; hits are inflicted in 'shooting' "
                         "(javelins also in 'movement', a moving shot) and 'melee'")  # fmt: skip
        rule = "MELEE" if phase == "melee" else "SHOOTING"
        if phase == "melee" and attacker["variant"] == "viking_veterans":
            found.append(Modifier("as_" + edition.second_type,
                                  f"Viking veterans fight as {edition.second_type} (Ruling C3)",
                                  edition.types_rule, "note"))  # fmt: skip
        for key, label in terrain:
            if key == "woods" and target["type"] not in self.ruleset.woods_types:
                continue  # only they may enter woods (Terrain)
            found.append(Modifier(key, label, rule, "halve", group="terrain"))
        veterans = target["variant"] == "viking_veterans"
        if target["type"] == "infantry" or veterans:
            when = "" if phase == "melee" else " (front or flank)"
            found.append(Modifier("shieldwall", f"Shieldwall: infantry{when}", rule, "halve",
                                  automatic=not veterans))  # fmt: skip
        if phase == "melee":
            found.append(Modifier("flank", "Attacking on the flank", rule, "double",
                                  group="facing"))  # fmt: skip
        found.append(Modifier("rear", "Attacking on the rear facing" if phase == "melee"
                              else "Shooting at the rear facing", rule, "double",
                              group="facing"))  # fmt: skip
        return tuple(found)

    def dice(self, combat: Combat) -> DieSpec:
        if combat.options.get("dice", "d6") == "d5":
            return DieSpec("D5", D5)
        return DieSpec("D6", D6)

    def work_out_hits(self, combat: Combat) -> Result:
        applied = self.check(combat)
        used = {r.code: r for r in self.rulings}
        rulings = [used["C1"]]
        rule = "MELEE" if combat.phase == "melee" else "SHOOTING"
        keys = {m.key for m in applied}
        if combat.phase == "melee":
            lines = self.ruleset.modifiers(combat.attacker)
            as_second = "as_" + self.edition.second_type in keys
            fights_as = self.edition.second_type if as_second else combat.attacker["type"]
            # the step names the type the modifier is the source's line of, as Feudal's do
            parts = [(str(fights_as).replace("_", " "),
                      lines[1] if as_second and len(lines) > 1 else lines[0])]  # fmt: skip
            if as_second:
                rulings.append(used["C3"])
        else:
            missile = combat.attacker["missile"]
            variant = self.ruleset.variant_of(combat.attacker)
            own = variant.shoot if variant is not None else None
            parts = [(missile + "s", SHOOT_MODIFIER[missile] if own is None else own)]
        if combat.attacker["personality"] == "hero":
            parts.append(("hero", 1))
        total, text = modifier_sum(combat.dice[0], parts)
        hits = max(0, total)
        floor = "" if total >= 0 else ", never fewer than 0 (Ruling C1)"
        steps = [Step(f"Roll {text} hits{floor}", rule)]
        halvings = [m for m in applied if m.effect == "halve"]
        if combat.phase != "melee" and "rear" in keys:
            halvings = [m for m in halvings if m.key != "shieldwall"]
            if "shieldwall" in keys:
                steps.append(Step("Shieldwall: not against shooting at the rear facing", rule))
        cap = self.edition.max_halvings
        for n, m in enumerate(halvings):
            if cap is not None and n >= cap:
                steps.append(Step(f"{m.label}: no further halving, the max defensive benefit "
                                  "is ¼ (Stacked Modifiers)", rule))  # fmt: skip
                continue
            halved = round_up(hits / Fraction(2))
            steps.append(Step(f"{m.label}: half of {hits}, rounded up: {halved}", rule))
            hits = halved
        if halvings:
            rulings.append(used["C2"])
        for m in applied:
            if m.effect == "double":
                steps.append(Step(f"{m.label}: double {hits}: {hits * 2}", rule))
                hits *= 2
        steps.append(Step(f"{hits} hit{'' if hits == 1 else 's'}", rule))
        total_hits = combat.number("target_hits") + hits
        verdict = self.removal(combat.target, total_hits, combat.options, combat.phase)
        return Result(hits, "hits", tuple(steps), total_hits, verdict, tuple(rulings))

    def removal(self, unit: Unit, total: int, options: Mapping[str, Any], phase: str) -> Verdict:
        limit = self.ruleset.hits(unit)
        last = self.edition.last_phase
        if total >= limit:
            return Verdict("removed", last.name, f"{counted(total, 'hits')}, {limit} or more: removed in "
                                                 f"{last.name}", last.section)  # fmt: skip
        return Verdict("stays", "", f"{total} of {limit} hits", last.section)

    def force_morale(
        self, lost: int, rolls: tuple[int, ...], *, units: int = 6, bonus: int = 0
    ) -> Verdict:
        """FORCE MORALE: a die per destroyed unit, higher than the units lost to keep
        fighting (TWO dice: either); small armies: 2015 a d3 (three units) or d3+1 (four),
        d5 a d5 halved, rounded up."""

        def small(roll: int, size: int) -> int:
            d3 = round_up(Fraction(roll, 2))  # a d3 is a d6 halved (2015's Ruling C5)
            if self._2015 and size == 4:
                return d3 + 1
            return d3

        return force_morale(lost, rolls, units=units, bonus=bonus, beats=lambda r, n: r > n,
                            rule="FORCE MORALE", words="higher than", small=small)  # fmt: skip

    def force_morale_dice(self, options: Mapping[str, Any]) -> DieSpec | None:
        """FORCE MORALE: d5 "TWO d5"; 2015 "TWO d6 ... or even 3d6 for desperate or
        stubborn forces" (either keeping it fighting)."""
        if self._2015:
            return DieSpec("D6", D6, 3, "a d6, TWO, or 3d6: any")
        d5 = options.get("dice", "d6") == "d5"  # the game's die, as its combats roll
        return DieSpec("D5" if d5 else "D6", D5 if d5 else D6, 2, "a die, or TWO: either")

    def force_morale_bonuses(self, options: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
        if self._2015:
            return (("opponent_lots_more", "+1 if your opponent has lots more Units"),)
        return (("opponent_lost_more", "+1 if your opponent has lost more Units"),)

    def initiative(self, options: Mapping[str, Any]) -> Initiative:
        """INITIATIVE (both editions): "at the start of Turn 2 - and every Turn after -
        roll off adding +3 for the Initiative Side. If the Initiative side loses the roll,
        Initiative changes"; a tie is not lost. The roll is the game's die."""
        d5 = options.get("dice", "d6") == "d5"
        die = DieSpec("D5" if d5 else "D6", D5 if d5 else D6)
        return Initiative(3, die, "INITIATIVE", "a tie is not a loss: the Initiative stays",
                          "Subtract '1' from the Initiative player's dice roll for each of "
                          "their Units that have routed")  # fmt: skip

    @property
    def _2015(self) -> bool:
        return self.edition.last_phase.key == "eliminating"  # 2015's last phase (Ruling C4)

    def rally_phase(self, options: Mapping[str, Any]) -> str | None:
        return self.edition.last_phase.key  # d5: Routs and Rallies; 2015: Ruling C4

    def rally_facts(self, options: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
        return (("in_melee", "In melee"), ("moved", "Moved this turn"),
                ("shot", "Shot this turn"))  # fmt: skip

    def rally_dice(self, rally: Rally) -> DieSpec | None:
        """A banner's or a Christian priest's die, half of which rallies (PERSONALITIES);
        none for a unit with neither, or a banner in melee, that moved or shot."""
        rallier = _rallier(rally.unit)
        if rallier is None or (rallier == "banner" and {"in_melee", "moved", "shot"} & rally.facts):
            return None
        d5 = rally.options.get("dice", "d6") == "d5"
        return DieSpec("D5" if d5 else "D6", D5 if d5 else D6, 1, f"the {rallier}'s half die")

    def rally(self, rally: Rally) -> Result:
        facts = rally.facts
        steps: list[Step] = []
        off = 0
        rallier = _rallier(rally.unit)
        if rallier is None:
            steps.append(Step("No banner or priest: no rally", "PERSONALITIES"))
        elif rallier == "banner" and {"in_melee", "moved", "shot"} & facts:
            steps.append(Step("Banner: not when in melee, moved or shot", "PERSONALITIES"))
        elif rally.die is None:
            raise MalformedDocument("die", f"die: a {rallier} rallies half a die roll; give it")
        elif rally.die not in (D5 if rally.options.get("dice", "d6") == "d5" else D6):
            name = "D5" if rally.options.get("dice", "d6") == "d5" else "D6"
            raise MalformedDocument("die", f"die: {rally.die} is not a face of the {name}")
        else:
            off = round_up(Fraction(rally.die, 2))
            if rallier == "priest":
                off += 1
                steps.append(Step(f"Christian priest: half of {rally.die} rounded up, +1: {off}",
                                  "PERSONALITIES"))  # fmt: skip
            else:
                steps.append(Step(f"Banner: half of {rally.die} rounded up: {off}",
                                  "PERSONALITIES"))  # fmt: skip
        after = max(0, rally.hits - off)
        if rally.options.get("rally_variation") and rally.hits >= 5 and after < 5:
            after = 5
            steps.append(Step(f"{counted(rally.hits, 'hits')}: never below 5", "RALLY VARIATION"))
        last = self.edition.last_phase.section
        steps.append(Step(f"Rallies {rally.hits - after}: {counted(after, 'hits')}", last))
        return Result(rally.hits - after, "hits", tuple(steps), after)


def _rallier(unit: Unit) -> str | None:
    """Who rallies a unit (PERSONALITIES): its banner, else its Christian priest."""
    if unit["banner"]:
        return "banner"
    return "priest" if unit["personality"] == "priest" else None


def _shooter(attacker: Unit, phase: str) -> None:
    """Refuse an attacker that cannot shoot in ``phase``."""
    missile = attacker["missile"]
    if attacker["type"] not in common.SHOOTERS or missile not in SHOOT_MODIFIER:
        raise MalformedDocument(
            "phase", f"phase: {attacker['type']} without bows or javelins do not shoot "
                     "(SHOOTING); melee is phase 'melee'")  # fmt: skip
    if phase == "movement" and missile != "javelin":
        raise MalformedDocument(
            "phase", "phase: only javelins make a moving shot in 'movement' (Moving Shots); "
                     "bows shoot in 'shooting'")  # fmt: skip
