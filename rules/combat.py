"""Combat at the table: the one small interface every rule set's combat rules implement.

A rule set offers its combat and removal rules through ``RuleSet.combat()``: a
``CombatRules`` that knows the turn's phases, which modifiers the source allows for one
attacker, target and phase, how one combat's hits are worked out (step by step, each step
citing the section of the source it follows), when a unit is removed and how it rallies.
Arithmetic is exact (``Fraction``), rounded only where and how the source says.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from rules.base import Ruling, Unit
from rules.errors import MalformedDocument

Effect = Literal["add", "halve", "double", "note"]


@dataclass(frozen=True)
class Phase:
    """One phase of a player's turn, in the source's order."""

    key: str
    name: str
    section: str

    def to_json(self) -> dict[str, str]:
        return {"key": self.key, "name": self.name, "section": self.section}


@dataclass(frozen=True)
class Modifier:
    """A modifier the source lists for a combat. ``group``: at most one modifier of a group
    applies (e.g. one terrain, one facing). ``automatic``: it follows from the attacker and
    target themselves (armoured serjeants halve): it applies without being ticked."""

    key: str
    label: str
    section: str
    effect: Effect
    amount: int = 0
    group: str = ""
    automatic: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "section": self.section,
            "effect": self.effect,
            "amount": self.amount,
            "group": self.group,
            "automatic": self.automatic,
        }


@dataclass(frozen=True)
class DieSpec:
    """The dice one combat needs: how many, and the faces a die may show."""

    label: str
    faces: tuple[int, ...]
    count: int = 1
    what: str = ""  # what each die is for, in words ("the attacker's stand, then ...")


@dataclass(frozen=True)
class Initiative:
    """The source's Initiative roll-off: each side rolls ``die``, the side holding the
    Initiative adds ``bonus`` and keeps it unless the other side's roll beats its total
    (``ties``: the source's words for a tie, "the holder keeps it"); ``section`` is the
    rule's heading. ``penalty``: the source's optional -1 a unit lost, in its words ("":
    none), off the holder's roll only or off both sides' (``penalty_both``).

    When it is due: from the source's Turn ``first``, at the start of the turn before
    anything else is done in it (``phase`` ""), or in a phase of its own (``phase``, its
    key). ``choose``: the side that wins the roll keeps the Initiative or passes it to the
    other side, and a tie wins nothing (``ties`` says what then); ``streak``: last turn's
    winner has -1 for each consecutive turn it won the roll."""

    bonus: int
    die: DieSpec
    section: str
    ties: str
    penalty: str = ""
    penalty_both: bool = False
    phase: str = ""
    first: int = 2
    choose: bool = False
    streak: bool = False


@dataclass(frozen=True)
class Combat:
    """One combat: the attacker's and the target's units (documents of the rule set's
    vocabulary, every default filled in), the phase, the modifiers ticked, the dice
    rolled, the game's option values, and what else the source's sums read (``numbers``:
    e.g. figures fighting; the hits already on the units)."""

    attacker: Unit
    target: Unit
    phase: str
    modifiers: frozenset[str] = frozenset()
    dice: tuple[int, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    numbers: Mapping[str, int] = field(default_factory=dict)
    target_list: Mapping[str, Any] | None = None  # the army list the target is read under

    def number(self, key: str, default: int = 0) -> int:
        return int(self.numbers.get(key, default))


@dataclass(frozen=True)
class Step:
    """One line of the working: what was done and the section of the source it follows."""

    text: str
    section: str

    def to_json(self) -> dict[str, str]:
        return {"text": self.text, "section": self.section}


@dataclass(frozen=True)
class Verdict:
    """What becomes of a unit: ``outcome`` (e.g. "removed", "stays", "shaken"), when it
    happens ("now", "end of Phase 1", ...), in words, citing its section."""

    outcome: str
    when: str
    text: str
    section: str

    def to_json(self) -> dict[str, str]:
        return {"outcome": self.outcome, "when": self.when, "text": self.text,
                "section": self.section}  # fmt: skip


def counted(count: int, unit: str) -> str:
    """``count`` of the source's unit of damage, named in the plural (``hits``): ``1 hit``,
    ``0 hits``, ``4 hits``, ``1 casualty``."""
    if count == 1 and unit.endswith("ies"):
        return f"{count} {unit[:-3]}y"
    if count == 1 and unit.endswith("s"):
        return f"{count} {unit[:-1]}"
    return f"{count} {unit}"


@dataclass(frozen=True)
class Result:
    """The worked-out combat: ``hits`` inflicted (casualties, impacts: the source's unit of
    damage, named by ``unit``), each step citing its section, the target's total after it,
    what becomes of the target, and the rulings the working relied on (cited as
    "Ruling <code>" by its steps)."""

    hits: int
    unit: str
    steps: tuple[Step, ...]
    total: int
    verdict: Verdict | None = None
    rulings: tuple[Ruling, ...] = ()

    @property
    def said(self) -> str:
        """The hits in words: ``1 hit``, ``4 hits``."""
        return counted(self.hits, self.unit)

    def to_json(self) -> dict[str, Any]:
        return {
            "hits": self.hits,
            "unit": self.unit,
            "total": self.total,
            "steps": [s.to_json() for s in self.steps],
            "verdict": self.verdict.to_json() if self.verdict is not None else None,
            "rulings": [r.to_json() for r in self.rulings],
        }


@dataclass(frozen=True)
class Rally:
    """A rally: the unit, its hits now, what it did this turn (``facts``: e.g. "moved",
    "shot", "fought", "attacked", "in_melee"), a die when the rule rolls one."""

    unit: Unit
    hits: int
    facts: frozenset[str] = frozenset()
    die: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


class CombatRules:
    """What a rule set's combat rules offer; each package subclasses it."""

    rulings: tuple[Ruling, ...] = ()
    # what a player types under "Other numbers" for the sums (name, what it is); a game
    # counts every hit, casualty and impact itself
    numbers_asked: tuple[tuple[str, str], ...] = ()
    # (section, the source's words) where only the phasing side's units inflict hits in a
    # player turn (``rules.seats``); None: the source works combat out for both sides
    one_sided: tuple[str, str] | None = None
    # the section where only phasing units rally (None: either side's in the rally phase)
    rally_phasing: str | None = None

    def phases(self, options: Mapping[str, Any]) -> tuple[Phase, ...]:
        """The phases of one player's turn, in order."""
        raise NotImplementedError

    def combat_modifiers(
        self,
        attacker: Unit,
        target: Unit,
        phase: str,
        options: Mapping[str, Any],
        target_list: Mapping[str, Any] | None = None,
    ) -> tuple[Modifier, ...]:
        """Only the modifiers the source allows for this attacker, target and phase (the
        target read under ``target_list``, its army list); raises MalformedDocument (path
        ``phase``) when the attacker cannot attack in this phase."""
        raise NotImplementedError

    def dice(self, combat: Combat) -> DieSpec:
        """The dice ``combat`` needs."""
        raise NotImplementedError

    def work_out_hits(self, combat: Combat) -> Result:
        """The combat worked out step by step, after ``check`` (MalformedDocument for a
        modifier, phase or die the source does not allow here)."""
        raise NotImplementedError

    def removal(self, unit: Unit, total: int, options: Mapping[str, Any], phase: str) -> Verdict:
        """Whether ``unit``, with ``total`` hits after a combat in ``phase``, is removed."""
        raise NotImplementedError

    def rally(self, rally: Rally) -> Result:
        """The hits a unit rallies off (``total``: its hits after)."""
        raise NotImplementedError

    def rally_dice(self, rally: Rally) -> DieSpec | None:
        """The die ``rally`` rolls, read from its unit, facts and options (``die`` and
        ``hits`` aside): None when the source rolls none for it. The game rolls this one
        from a seed when the player leaves the die empty."""
        return None

    def rally_phase(self, options: Mapping[str, Any]) -> str | None:
        """The phase units rally in: the one keyed "rally" (None: the source has none)."""
        return next((p.key for p in self.phases(options) if p.key == "rally"), None)

    def rally_facts(self, options: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
        """What ``rally`` reads of what the unit did (``Rally.facts``): (key, label), in
        the order a player is asked."""
        return ()

    def force_morale(
        self, lost: int, rolls: tuple[int, ...], *, units: int = 6, bonus: int = 0
    ) -> Verdict | None:
        """The army's morale roll after a unit is destroyed (an optional rule where the
        source has one): ``outcome`` "fights on" or "routs"; None when the source has none.
        ``rolls`` are the dice as rolled, ``units`` the army's size, ``bonus`` what the
        source's +1s add."""
        return None

    def force_morale_dice(self, options: Mapping[str, Any]) -> DieSpec | None:
        """The die ``force_morale`` reads, ``count`` the most the source lets a force roll
        at once (TWO dice, either keeping it fighting): the player rolls one up to that
        many. None when the source has no force morale."""
        return None

    def force_morale_bonuses(self, options: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
        """The +1s the source allows on a force morale roll, (key, the source's words), for
        the player to tick; each ticked adds 1 to ``force_morale``'s ``bonus``."""
        return ()

    def initiative(self, options: Mapping[str, Any]) -> Initiative | None:
        """The source's Initiative roll, which may hand the first player turn (or the
        first move) to the other side; None: the side that goes first never changes."""
        return None

    def phase(self, key: str, options: Mapping[str, Any]) -> Phase:
        for phase in self.phases(options):
            if phase.key == key:
                return phase
        allowed = ", ".join(p.key for p in self.phases(options))
        raise MalformedDocument("phase", f"phase: {key!r} is not a phase of this rule set; "
                                         f"allowed: {allowed}")  # fmt: skip

    def not_offered(self, key: str, combat: Combat) -> str:
        """Why the source gives no modifier ``key`` to this combat, in its words with its
        section ("" when no rule of it says why: the modifier is simply not one of it)."""
        return ""

    def check(self, combat: Combat) -> tuple[Modifier, ...]:
        """The modifiers that apply to ``combat``: those ticked and the automatic ones,
        after refusing a modifier not offered, two of one group, or dice that do not fit."""
        chosen = self.check_modifiers(combat)
        spec = self.dice(combat)
        if len(combat.dice) != spec.count:
            what = f" ({spec.what})" if spec.what else ""
            raise MalformedDocument(
                "dice", f"dice: this combat rolls {spec.count} {spec.label}{what}; got "
                        f"{len(combat.dice)}")  # fmt: skip
        for i, value in enumerate(combat.dice):
            if value not in spec.faces:
                faces = ", ".join(str(f) for f in sorted(set(spec.faces)))
                where = "die" if spec.count == 1 else f"dice[{i}]"
                raise MalformedDocument(
                    where, f"{where}: {value} is not a face of the {spec.label}; "
                           f"allowed: {faces}")  # fmt: skip
        return chosen

    def check_modifiers(self, combat: Combat) -> tuple[Modifier, ...]:
        """The modifiers that apply to ``combat`` (ticked and automatic), after refusing a
        modifier not offered or two of one group: what the dice to roll depend on."""
        self.phase(combat.phase, combat.options)
        offered = self.combat_modifiers(combat.attacker, combat.target, combat.phase,
                                        combat.options, combat.target_list)  # fmt: skip
        by_key = {m.key: m for m in offered}
        unknown = sorted(combat.modifiers - set(by_key))
        if unknown:
            allowed = ", ".join(m.key for m in offered if not m.automatic) or "none"
            why = "; ".join(w for key in unknown if (w := self.not_offered(key, combat)))
            raise MalformedDocument(
                "modifiers",
                f"modifiers: {', '.join(unknown)} not allowed for this attacker, target and "
                f"phase{': ' + why if why else ''}; allowed: {allowed}",
            )
        chosen = [m for m in offered if m.automatic or m.key in combat.modifiers]
        groups: dict[str, list[str]] = {}
        for m in chosen:
            if m.group:
                groups.setdefault(m.group, []).append(m.key)
        for group, keys in groups.items():
            if len(keys) > 1:
                raise MalformedDocument(
                    "modifiers", f"modifiers: only one {group} modifier applies; got "
                                 f"{' and '.join(keys)}")  # fmt: skip
        return tuple(chosen)


# -- exact arithmetic -------------------------------------------------------------------------


def round_up(value: Fraction) -> int:
    """The source's "round all fractions up"."""
    return math.ceil(value)


def fraction_text(value: Fraction) -> str:
    """3, 3/4, 2 1/2: a Fraction as a player writes it."""
    if value.denominator == 1:
        return str(value.numerator)
    whole, part = divmod(value.numerator, value.denominator)
    return f"{whole} {part}/{value.denominator}" if whole else f"{part}/{value.denominator}"


def modifier_sum(base: int, parts: list[tuple[str, int]]) -> tuple[int, str]:
    """The die with its modifiers added, and the sum in words (``4 +2 knights = 6``)."""
    total = base + sum(amount for _, amount in parts)
    shown = "".join(f" {amount:+d} {label}" for label, amount in parts if amount)
    return total, f"{base}{shown} = {total}" if shown else str(base)


def force_morale(
    lost: int,
    rolls: tuple[int, ...],
    *,
    units: int,
    bonus: int,
    beats: Callable[[int, int], bool],
    rule: str,
    words: str,
    small: Callable[[int, int], int] | None = None,
) -> Verdict:
    """The shape the sources' force morale rules share: each roll (for an army of three or
    four units halved, rounded up, or ``small``'s reading of it) plus ``bonus`` against the
    units lost; the force fights on if any roll ``beats`` it."""
    if not rolls:
        raise MalformedDocument("dice", "dice: force morale rolls one die (or two)")
    read = []
    for roll in rolls:
        value = roll
        if units <= 4:
            value = small(roll, units) if small else round_up(Fraction(roll, 2))
        read.append(value + bonus)
    keeps = any(beats(value, lost) for value in read)
    outcome = "fights on" if keeps else "routs"
    shown = ", ".join(str(v) for v in read)
    return Verdict(outcome, "now", f"{shown} against {lost} units lost ({words}): the force "
                   f"{outcome}", rule)  # fmt: skip
