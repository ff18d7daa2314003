"""Feudal 2017 at the table: hits from shooting (1.2) and mêlée (3.2), removals (1.5, 3.4),
rallies (4.1) and the turn's four phases, with the optional rules that change them (Tired
Units, the 6-Hit Unit Variant, Trained Units, Personalities)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
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
    counted,
    force_morale,
    fraction_text,
    modifier_sum,
    round_up,
)
from rules.errors import MalformedDocument
from rules.rulesets.feudal_2017.troops import (
    HITS,
    SHOOTING,
    SIX_HITS,
    TYPE_NAME,
    melee_modifier,
    shooting_modifier,
    toughness,
)

SHOOT_RULE = "1.2 Resolving Shooting"
MELEE_RULE = "3.2 Resolving Mêlée"
RALLY_RULE = "4.1 Rallying"
SIX_HIT_RULE = "6-Hit Unit Variant"
D6 = (1, 2, 3, 4, 5, 6)
D5 = (2, 3, 3, 4, 4, 5)  # 0.2: the average die's pips
PHASES = (
    Phase("shoot", "Phase 1: Shoot", "1) SHOOT"),
    Phase("move", "Phase 2: Move", "2) MOVE"),
    Phase("melee", "Phase 3: Mêlée", "3) MÊLÉE"),
    Phase("rally", "Phase 4: Rally", "4) RALLIES"),
)
SHOOT_PHASE = {1: "shoot", 2: "move"}
# "Only Brigans may enter" woods (0.10b), not mounted brigans (Alternative Troop Types);
# freemen and bowmen with the woods advantage may (Advantages and Disadvantages)
WOODS_TYPES = ("brigans", "brigans_bows")

RULINGS = (
    Ruling(
        "C1",
        "A die and its modifiers never make fewer than 0 hits (the battle reports: "
        '"on a roll of 1-2 zero hits are inflicted").',
    ),
    Ruling(
        "C2",
        "Every halving and doubling that applies is collected; one halving cancels "
        "one doubling, and the halvings left never take the hits below ¼ (1.2e, "
        "3.2e); the result is rounded up once, at the end (1.2f, 3.2f).",
    ),
    Ruling(
        "C3",
        "A knight errant's \"+1 Hit in Mêlée\" is added to the die with the unit's "
        "own modifier (3.2a), before any halving.",
    ),
    Ruling(
        "C4",
        "Terrain halves once (1.2b, 3.2b): a unit is defending one piece of terrain. "
        'In mêlée a camp or village is defended like a wall ("etc", 3.2b; 0.10c '
        "gives them the defensive bonus).",
    ),
    Ruling(
        "C5",
        "Removal after shooting follows the shooter's phase: hits from Phase 1 "
        "shooting (bowmen, brigans with bows) remove at the end of Phase 1, from "
        "Phase 2 shooting (brigans, mounted brigans, cavalry) at the end of Phase 2 "
        "(1.5).",
    ),
    Ruling(
        "C6",
        "6-Hit Unit Variant: the attack dice that hit take the same halvings and "
        "doublings as hits (1.2b-f, 3.2b-f); Tired Units take 1 off the unit's "
        "modifier before its attack dice are counted.",
    ),
    Ruling(
        "C7",
        'Force Morale: with two Dx, a roll that "beats" the units lost is read as the '
        'rule\'s own "equal or higher".',
    ),
    Ruling(
        "C8",
        "A Christian priest's \"Dx bonus Hits [per 4.1b]\" replace 4.1b's one additional "
        "hit: the unit rallies 1 (4.1a) plus the priest's Dx, and only without an "
        "Attacked Marker, as 4.1b; the 5 permanent hits still hold (4.1c).",
    ),
)
BY_CODE = {r.code: r for r in RULINGS}


class FeudalCombat(CombatRules):
    rulings = RULINGS
    one_sided = ("3.1 One-Sided Mêlée", "units only inflict Hits during their own player turn")
    rally_phasing = "4.1a Rallying"

    def phases(self, options: Mapping[str, Any]) -> tuple[Phase, ...]:
        return PHASES

    def initiative(self, options: Mapping[str, Any]) -> Initiative:
        """Initiative: "roll off adding +2 for the Initiative Side, who also wins ties"."""
        return Initiative(2, DieSpec("D6", D6), "Initiative",
                          "the Initiative side also wins ties",
                          "Subtract '1' from the players dice rolls for each friendly Unit "
                          "removed", penalty_both=True)  # fmt: skip

    def not_offered(self, key: str, combat: Combat) -> str:
        if key in ("woods", "woods_charged") and not _can_enter_woods(combat.target):
            return ("only brigans (and units with the woods advantage) may enter woods "
                    "(0.10 Terrain)")  # fmt: skip
        return ""

    def combat_modifiers(
        self,
        attacker: Unit,
        target: Unit,
        phase: str,
        options: Mapping[str, Any],
        target_list: Mapping[str, Any] | None = None,
    ) -> tuple[Modifier, ...]:
        if phase == "melee":
            return melee_modifiers(target)
        shoots = SHOOTING.get(attacker["type"])
        if shoots is not None and SHOOT_PHASE[shoots[2]] == phase:
            return shooting_modifiers(target, _schiltrons(target, target_list))
        name = TYPE_NAME[attacker["type"]]
        when = {"shoot": "in Phase 1 only bowmen and brigans with bows shoot",
                "move": "in Phase 2 only brigans, mounted brigans and cavalry shoot"}  # fmt: skip
        if phase in when:
            raise MalformedDocument(
                "phase", f"phase: {name} do not shoot in {phase!r}: {when[phase]} (1.1 "
                         "Shooting Basics); mêlée is phase 'melee'")  # fmt: skip
        raise MalformedDocument(
            "phase", f"phase: no combat in {phase!r}; hits are inflicted in 'shoot', 'move' "
                     "(shooting) and 'melee'")  # fmt: skip

    def dice(self, combat: Combat) -> DieSpec:
        faces, label = _die(combat.attacker, combat.options)
        if combat.options.get("six_hit_variant"):
            count = _attack_dice(_modifier(combat)[0])[0]
            return DieSpec(label, faces, count, "attack dice")
        return DieSpec(label, faces)

    def work_out_hits(self, combat: Combat) -> Result:
        applied = self.check(combat)
        used: list[Ruling] = [BY_CODE["C1"]]
        rule = MELEE_RULE if combat.phase == "melee" else SHOOT_RULE
        steps: list[Step] = []
        modifier, parts = _modifier(combat)
        if combat.attacker["personality"] == "knight_errant" and combat.phase == "melee":
            used.append(BY_CODE["C3"])
        if combat.options.get("six_hit_variant"):
            count, target = _attack_dice(modifier)
            hitting = sum(1 for d in combat.dice if d >= target)
            used.append(BY_CODE["C6"])
            shown = ", ".join(str(d) for d in combat.dice)
            steps.append(Step(f"{count} attack dice for Dx{modifier:+d}, hitting on {target}+: "
                              f"{shown} make {counted(hitting, 'hits')}", SIX_HIT_RULE))  # fmt: skip
            base = hitting
        else:
            total, text = modifier_sum(combat.dice[0], parts)
            base = max(0, total)
            clause = "3.2a" if combat.phase == "melee" else "1.2a"
            floor = "" if total >= 0 else ", never fewer than 0 (Ruling C1)"
            steps.append(Step(f"Die {text} hits{floor} ({clause})", rule))
        halvings = [m for m in applied if m.effect == "halve"]
        doublings = [m for m in applied if m.effect == "double"]
        for m in halvings + doublings:
            steps.append(Step(f"{m.label}: {m.effect} hits", m.section))
        net = len(doublings) - len(halvings)
        factor = Fraction(2) ** max(net, -2)
        if halvings or doublings:
            used.append(BY_CODE["C2"])
            cancel = min(len(halvings), len(doublings))
            said = ["one halving and one doubling cancel" if cancel else ""]
            if net < -2:
                said.append("never better than ¼")
            words = "; ".join(s for s in said if s)
            steps.append(Step(f"Stacked: × {fraction_text(factor)}"
                              f"{f' ({words})' if words else ''} (Ruling C2)", rule))  # fmt: skip
        exact = base * factor
        hits = round_up(exact)
        if exact.denominator != 1:
            steps.append(Step(f"{fraction_text(exact)} rounded up: {counted(hits, 'hits')}", rule))
        else:
            steps.append(Step(counted(hits, "hits"), rule))
        total = combat.number("target_hits") + hits
        verdict = self.removal(combat.target, total, combat.options, combat.phase)
        if verdict.outcome == "removed" and combat.phase != "melee":
            used.append(BY_CODE["C5"])
        return Result(hits, "hits", tuple(steps), total, verdict, tuple(used))

    def removal(self, unit: Unit, total: int, options: Mapping[str, Any], phase: str) -> Verdict:
        kind = toughness(unit)
        if options.get("six_hit_variant"):
            limit = SIX_HITS[kind]
            if total > limit:
                return Verdict("removed", "now", f"{counted(total, 'hits')} is more than {limit}: removed",
                               SIX_HIT_RULE)  # fmt: skip
            return Verdict("stays", "", f"{total} of more than {limit} hits", SIX_HIT_RULE)
        limit = HITS[kind]
        if total < limit:
            return Verdict("stays", "", f"{total} of {limit} hits", _removal_rule(phase))
        when = {"shoot": "end of Phase 1", "move": "end of Phase 2"}.get(phase, "now")
        clause = {"shoot": "1.5", "move": "1.5"}.get(phase, "3.4")
        return Verdict("removed", when, f"{counted(total, 'hits')}, {limit} or more: removed "
                                        f"{'at once' if when == 'now' else 'at the ' + when} "
                                        f"({clause})", _removal_rule(phase))  # fmt: skip

    def force_morale(
        self, lost: int, rolls: tuple[int, ...], *, units: int = 6, bonus: int = 0
    ) -> Verdict:
        """Force Morale: a Dx per destroyed unit, equal or higher than the units lost to
        keep fighting; two Dx, either; a Dx halved (round up) for three or four units."""
        return force_morale(lost, rolls, units=units, bonus=bonus, beats=lambda r, n: r >= n,
                            rule="Force Morale", words="equal or higher than, Ruling C7")  # fmt: skip

    def force_morale_dice(self, options: Mapping[str, Any]) -> DieSpec | None:
        """Force Morale: "rolling a Dx", or "TWO Dx" (0.2: the game's die)."""
        d5 = options.get("dice", "d6") == "d5"
        return DieSpec("D5" if d5 else "D6", D5 if d5 else D6, 2, "a Dx, or TWO: either")

    def force_morale_bonuses(self, options: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
        return (("opponent_lost_more", "+1 if your opponent has lost more Units"),
                ("personality", "+1 if you still have a Personality on the board"))  # fmt: skip

    def rally_facts(self, options: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
        return (("shot", "Shot this turn"), ("moved", "Moved this turn"),
                ("fought", "Fought this turn"), ("attacked", "Has an Attacked Marker"),
                ("priest", "A Christian priest rallies it (type his Dx)"))  # fmt: skip

    def rally_dice(self, rally: Rally) -> DieSpec | None:
        """The 6-hit variant's 1Dx, or a Christian priest's Dx (Ruling C8): only for a unit
        that may rally (4.1a) and, the priest's, has no Attacked Marker."""
        acted, attacked = _rally_marks(rally, [])
        if acted or attacked:
            return None
        if not rally.options.get("six_hit_variant") and "priest" not in rally.facts:
            return None
        faces, name = _die(rally.unit, rally.options)
        what = "the 6-hit variant's rally" if rally.options.get("six_hit_variant") else (
            "the Christian priest's Dx")  # fmt: skip
        return DieSpec(name, faces, 1, what)

    def rally(self, rally: Rally) -> Result:
        unit, facts, options = rally.unit, rally.facts, rally.options
        steps: list[Step] = []
        acted, attacked = _rally_marks(rally, steps)
        if options.get("six_hit_variant"):
            return _six_hit_rally(rally, bool(acted), attacked, steps)
        off = 0
        if acted:
            steps.append(Step(f"It {' and '.join(sorted(acted))} this turn: no rally (4.1a)",
                              RALLY_RULE))  # fmt: skip
        else:
            off = 1
            steps.append(Step("Did not shoot, move or fight: rallies 1 hit (4.1a)", RALLY_RULE))
            priest = "priest" in facts
            if priest and not attacked and rally.die is None:
                # his Dx is the rally (Ruling C8): never worked out as if he were not there
                raise MalformedDocument("die", "die: a Christian priest rallies his Dx; give it")
            if not attacked and priest:
                faces, name = _die(unit, options)
                if rally.die not in faces:
                    raise MalformedDocument("die", f"die: {rally.die} is not a face of the {name}")
                off += rally.die
                steps.append(Step(f"No Attacked Marker: a Christian priest's Dx, {rally.die} "
                                  "more, in place of 4.1b's 1; then he leaves (Ruling C8)",
                                  "PERSONALITIES"))  # fmt: skip
            elif not attacked:
                off += 1
                steps.append(Step("No Attacked Marker: 1 more (4.1b)", RALLY_RULE))
            elif priest:
                steps.append(Step("Christian priest: his bonus is 4.1b's, not with an "
                                  "Attacked Marker (Ruling C8)", "PERSONALITIES"))  # fmt: skip
        return _floor_rally(rally.hits, off, (5, 5), steps, RALLY_RULE, "4.1c")


def _rally_marks(rally: Rally, steps: list[Step]) -> tuple[set[str], bool]:
    """What keeps a unit from rallying (4.1a) and its Attacked Marker, after the
    constable's and the banner's exceptions (PERSONALITIES), each noted in ``steps``."""
    unit, facts = rally.unit, rally.facts
    acted = {"shot", "moved", "fought"} & facts
    if unit["personality"] == "constable" and acted == {"moved"}:
        steps.append(Step("Constable: may rally although it moved", "PERSONALITIES"))
        acted = set()
    attacked = "attacked" in facts
    if attacked and unit["banner"]:
        steps.append(Step("Banner: rallies despite its Attacked Marker", "PERSONALITIES"))
        attacked = False
    return acted, attacked


def _removal_rule(phase: str) -> str:
    return {"shoot": "1) SHOOT", "move": "1) SHOOT"}.get(phase, "3) MÊLÉE")


def _schiltrons(target: Unit, target_list: Mapping[str, Any] | None) -> bool:
    return bool(target_list and target_list.get("schiltrons")) and target["type"] == "serjeants"


def _can_enter_woods(unit: Unit) -> bool:
    return unit["type"] in WOODS_TYPES or unit["advantage"] == "woods"


def shooting_modifiers(target: Unit, schiltrons: bool) -> tuple[Modifier, ...]:
    found = []
    if _can_enter_woods(target):
        found.append(Modifier("woods", "Defending woods", SHOOT_RULE, "halve", group="terrain"))
    found.append(Modifier("camp_village_walls", "Defending a camp, village or walls",
                          SHOOT_RULE, "halve", group="terrain"))  # fmt: skip
    if target["type"] == "serjeants" and not schiltrons:
        found.append(Modifier("armoured", "Armoured serjeants", SHOOT_RULE, "halve",
                              automatic=True))  # fmt: skip
    found.append(Modifier("rear", "Shooting into the target's rear arc", SHOOT_RULE, "double"))
    return tuple(found)


def melee_modifiers(target: Unit) -> tuple[Modifier, ...]:
    found = [Modifier("uphill_or_obstacle", "Uphill, or defending a ditch, riverbank, wall, "
                      "camp or village", MELEE_RULE, "halve", group="terrain")]  # fmt: skip
    if _can_enter_woods(target):
        found.append(Modifier("woods_charged", "Defending woods, on the turn it is charged",
                              MELEE_RULE, "halve", group="terrain"))  # fmt: skip
    if target["type"] == "serjeants":
        found.append(Modifier("armoured", "Armoured serjeants", MELEE_RULE, "halve",
                              automatic=True))  # fmt: skip
    found.append(Modifier("flank", "Contacting the target's flank", MELEE_RULE, "double",
                          group="facing"))  # fmt: skip
    found.append(Modifier("rear", "Contacting the target's rear", MELEE_RULE, "double",
                          group="facing"))  # fmt: skip
    return tuple(found)


def _die(unit: Unit, options: Mapping[str, Any]) -> tuple[tuple[int, ...], str]:
    """0.2: one die for the game; Trained Units: untrained units roll a d6."""
    die = options.get("dice", "d6")
    if options.get("trained_units") and not unit["trained"]:
        die = "d6"
    return (D5, "D5") if die == "d5" else (D6, "D6")


def _modifier(combat: Combat) -> tuple[int, list[tuple[str, int]]]:
    """The attacker's modifier on the die and its parts, in words."""
    unit = combat.attacker
    name = TYPE_NAME[unit["type"]].lower()
    if combat.phase == "melee":
        parts = [(name, melee_modifier(unit))]
        if unit["personality"] == "knight_errant":
            parts.append(("knight errant (Ruling C3)", 1))
    else:
        parts = [(f"{name} shooting", shooting_modifier(unit) or 0)]
    if combat.options.get("tired_units") and combat.number("attacker_hits") > 10:
        parts.append(("tired (Tired Units)", -1))
    return sum(amount for _, amount in parts), parts


def _attack_dice(modifier: int) -> tuple[int, int]:
    """6-hit variant: (attack dice, hit on) for Dx+modifier; a bit inferior hits on 4+."""
    if modifier >= 1:
        return 3, 3 if modifier >= 2 else 4
    if modifier >= -1:
        return 2, 3 if modifier == 0 else 4
    return 1, 3 if modifier == -2 else 4


def _six_hit_rally(rally: Rally, acted: bool, attacked: bool, steps: list[Step]) -> Result:
    """4.1 as the variant changes it: roll 1Dx, rally a hit on 3+, none with an Attacked
    Marker; more than 2 hits never rally below 2."""
    off = 0
    if acted or attacked:
        why = "it shot, moved or fought" if acted else "it has an Attacked Marker"
        steps.append(Step(f"No rally: {why}", SIX_HIT_RULE))
    elif rally.die is None:
        raise MalformedDocument("die", "die: the 6-hit variant's rally rolls 1Dx; give the die")
    elif rally.die not in _die(rally.unit, rally.options)[0]:
        name = _die(rally.unit, rally.options)[1]
        raise MalformedDocument("die", f"die: {rally.die} is not a face of the {name}")
    else:
        off = 1 if rally.die >= 3 else 0
        steps.append(Step(f"Rolled {rally.die}: {'rallies 1 hit on 3+' if off else 'no rally'}",
                          SIX_HIT_RULE))  # fmt: skip
    return _floor_rally(rally.hits, off, (3, 2), steps, SIX_HIT_RULE, "more than 2 hits")


def _floor_rally(
    hits: int, off: int, floor: tuple[int, int], steps: list[Step], rule: str, clause: str
) -> Result:
    """``off`` hits rallied, but a unit with ``floor[0]`` or more hits never goes below
    ``floor[1]``."""
    at_least, floor_hits = floor
    after = max(0, hits - off)
    if hits >= at_least and after < floor_hits:
        after = floor_hits
        steps.append(Step(f"{counted(hits, 'hits')}: never below {floor_hits} ({clause})", rule))
    rallied = hits - after
    steps.append(Step(f"Rallies {rallied}: {counted(after, 'hits')}", rule))
    return Result(rallied, "hits", tuple(steps), after)
