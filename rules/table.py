"""A game at the table, in plain Python: where it stands, and each action worked out (its
rallies and force morale in ``rules.table_rolls``).

The server's game services and the page's engine (``rules.page.game``, in the browser)
both call these, so a combat, rally, removal or force morale roll worked out on the phone
is the one the server records: the same dice from the same seed, the same hits, the same
words in the log. Nothing here reads a database: a game's units come in as the engine
read them (``Piece``), where the game stands as a ``Table``.

A refusal raises ``Refused`` with a sentence a player understands, citing the source's
section where the engine gives one.
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from rules.combat import Combat, CombatRules, Phase, Result, counted
from rules.errors import MalformedDocument
from rules.text import text_problem

MAX_NUMBER = 10_000
KEY = re.compile(r"[a-z0-9_]{1,60}")
SEED = re.compile(r"[0-9a-f]{1,64}")
BAD_SEED = "A seed is hex digits, as the page gives it; leave it out to roll anew."
COMBAT, RALLY, REMOVE, NEXT_PHASE, UNDO = "combat", "rally", "remove", "next_phase", "undo"
FORCE_MORALE, INITIATIVE, KEEP_OR_PASS = "force_morale", "initiative", "keep_or_pass"


class Refused(Exception):
    """An action the game does not take, in words; ``field``: the form's field at fault
    ("numbers"), "" when it is the action as a whole."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class Gone(Refused):
    """An action on a unit removed since it was made (the other phone's combat took it
    off, or a removal): what it was made on is no longer there."""


class Piece(Protocol):
    """A unit of a side as the engine read it: ``key`` ("<side>:<id>"), its side, its name
    and its document (every default filled in)."""

    @property
    def key(self) -> str: ...
    @property
    def side(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def unit(self) -> Mapping[str, Any]: ...


def said(exc: MalformedDocument) -> str:
    """The engine's message without the field path it starts with (``phase: ...``)."""
    message = exc.message
    if exc.path and message.startswith(exc.path + ":"):
        message = message[len(exc.path) + 1 :].strip()
    head, _, name = exc.path.partition(".")
    if head == "numbers" and name:  # a number the page asks for under "Other numbers"
        why = message.removeprefix("is required").lstrip(":, ")
        return f"Type {name}=<number> under Other numbers: {why}"
    return message[:1].upper() + message[1:]


def named(phases: Iterable[Phase], message: str) -> str:
    """The engine's message with each phase it quotes by key (``'shoot'``, as the API
    takes them) named as the page names it ("Phase 1: Shoot")."""
    for phase in phases:
        message = message.replace(f"phase '{phase.key}'", phase.name)
        message = message.replace(f"'{phase.key}'", phase.name)
    return message


def in_words(exc: MalformedDocument, engine: CombatRules, combat: Combat) -> str:
    """The engine's refusal, its modifiers named by their labels rather than their keys."""
    message = said(exc)
    if exc.path == "phase":
        message = named(engine.phases(combat.options), message)
    if exc.path == "modifiers":
        offered = engine.combat_modifiers(combat.attacker, combat.target, combat.phase,
                                          combat.options, combat.target_list)  # fmt: skip
        for m in sorted(offered, key=lambda m: -len(m.key)):
            message = re.sub(rf"\b{re.escape(m.key)}\b", f"“{m.label}”", message)
    return message


def roll(seed: str, faces: Iterable[int], count: int) -> tuple[int, ...]:
    """The dice a seed rolls, so anyone can check a roll from the log: Python's
    ``random.Random(seed)``, one ``choice`` of the die's faces per die, in order."""
    rng, faces = random.Random(seed), tuple(faces)
    return tuple(rng.choice(faces) for _ in range(count))


def checked_seed(seed: str) -> str:
    """The seed given, refused unless hex digits ("" stays "": roll anew)."""
    if seed and not SEED.fullmatch(seed):
        raise Refused(BAD_SEED)
    return seed


# -- where the game stands ---------------------------------------------------------------------


@dataclass
class UnitState:
    """What happened to a unit so far: its damage in the source's units ("hits",
    "casualties", "impacts"), and whether (and by which rule) it was removed."""

    damage: dict[str, int] = field(default_factory=dict)
    removed: bool = False
    removal: str = ""  # the verdict in words, with its section
    # removed later in the turn (the source's "at the end of Phase 1", "in Phase 5"): the
    # phase it goes in ("" for the end of the phase it was hit in); it fights on till then
    pending: str | None = None

    @property
    def lost(self) -> bool:
        return self.removed or self.pending is not None

    def damage_text(self) -> str:
        shown = [counted(n, unit) for unit, n in sorted(self.damage.items()) if n]
        return ", ".join(shown) or "no hits"

    def to_json(self) -> dict[str, Any]:
        return {"damage": dict(self.damage), "removed": self.removed, "removal": self.removal,
                "pending": self.pending}  # fmt: skip

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> UnitState:
        damage = {str(k): int(v) for k, v in (raw.get("damage") or {}).items()}
        pending = raw.get("pending")
        return cls(damage, bool(raw.get("removed")), str(raw.get("removal") or ""),
                   None if pending is None else str(pending))  # fmt: skip


@dataclass
class Table:
    """Where a game stands: the turn and phase, each unit's state, the routed sides (the
    verdict that routed each, in words, with its section), how many force morale rolls
    each side has made (a roll follows each unit destroyed), the side holding the
    Initiative (it goes first each Turn: ``rules.seats.Turn``), the last turn an
    Initiative roll was made in and the last turn anything was done to a unit or side;
    where its winner keeps or passes it (``Initiative.choose``), the last roll's winner, how
    many turns in a row it won, and the winner yet to choose ("": none) and the rule's section."""

    turn: int
    phase: str
    units: dict[str, UnitState]
    routed: dict[str, str] = field(default_factory=dict)
    rolls: dict[str, int] = field(default_factory=dict)
    holder: str = "a"
    rolled: int = 0
    acted: int = 0
    won: str = ""
    streak: int = 0
    choosing: str = ""
    choice_rule: str = ""

    def of(self, key: str) -> UnitState:
        return self.units.setdefault(key, UnitState())

    def record(self, kind: str, payload: Mapping[str, Any], phases: Iterable[Phase]) -> None:
        """One live action of the log replayed onto where the game stands."""
        if kind in (COMBAT, RALLY, FORCE_MORALE, REMOVE):
            self.acted = self.turn
        if kind == INITIATIVE:
            self.rolled = self.turn
            if "winner" in payload:  # the winner keeps or passes it (KEEP_OR_PASS)
                self.won, self.streak = payload["winner"], payload["streak"]
                self.choosing, self.choice_rule = payload["winner"], payload["section"]
            else:
                self.holder = payload["holder"]
        elif kind == KEEP_OR_PASS:
            self.holder, self.choosing = payload["holder"], ""
        elif kind == NEXT_PHASE:
            self.turn, self.phase = payload["to"]["turn"], payload["to"]["phase"]
            for unit in self.units.values():
                if unit.pending is not None and unit.pending in ("", self.phase):
                    unit.removed, unit.pending = True, None
        elif kind in (COMBAT, RALLY):
            result = payload["result"]
            unit = self.of(payload["target" if kind == COMBAT else "unit"])
            unit.damage[result["unit"]] = result["total"]
            verdict = result.get("verdict")
            if verdict and verdict["outcome"] == "removed":
                names = {p.name: p.key for p in phases}
                unit.removal = f"{verdict['text']} ({verdict['section']})"
                goes = names.get(verdict["when"], "") if verdict["when"] != "now" else None
                if goes is None or goes == self.phase:
                    unit.removed = True
                elif unit.pending is None:
                    unit.pending = goes
        elif kind == FORCE_MORALE:
            side = payload["side"]
            self.rolls[side] = self.rolls.get(side, 0) + 1
            verdict = payload["verdict"]
            if verdict["outcome"] == "routs":
                self.routed[payload["side"]] = f"{verdict['text']} ({verdict['section']})"
        elif kind == REMOVE:
            unit = self.of(payload["unit"])
            unit.removed = True
            unit.removal = payload.get("why") or "Removed by the player"

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "phase": self.phase, "routed": dict(self.routed),
                "rolls": dict(self.rolls), "holder": self.holder, "rolled": self.rolled,
                "acted": self.acted, "won": self.won, "streak": self.streak,
                "choosing": self.choosing, "choice_rule": self.choice_rule,
                "units": {k: u.to_json() for k, u in sorted(self.units.items())}}  # fmt: skip

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Table:
        units = {str(k): UnitState.from_json(v) for k, v in (raw.get("units") or {}).items()}
        routed = {str(k): str(v) for k, v in (raw.get("routed") or {}).items()}
        rolls = {str(k): int(v) for k, v in (raw.get("rolls") or {}).items()}
        return cls(int(raw["turn"]), str(raw["phase"]), units, routed, rolls,
                   str(raw.get("holder") or "a"), int(raw.get("rolled") or 0),
                   int(raw.get("acted") or 0), str(raw.get("won") or ""),
                   int(raw.get("streak") or 0), str(raw.get("choosing") or ""),
                   str(raw.get("choice_rule") or ""))  # fmt: skip


def usable(card: Piece, table: Table) -> None:
    unit = table.of(card.key)
    if unit.removed:
        raise Gone(f"{card.name} was removed: {unit.removal}.")


def table_of(ruleset: str, options: Mapping[str, Any], sides: Mapping[str, Any]) -> dict[str, Any]:
    """The game's table as the page keeps it for its engine (``rules.page.game``): the
    rule set, the options and each side's name, army list and units (``sides``: {"a":
    (name, list, [(key, name, unit), ...])})."""
    return {
        "ruleset": ruleset,
        "options": dict(options),
        "sides": {
            side: {
                "name": name,
                "list": found,
                "units": [{"key": k, "name": n, "unit": dict(u)} for k, n, u in units],
            }
            for side, (name, found, units) in sides.items()
        },
    }


# -- the actions -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Worked:
    """One combat worked out: who, the phase, the modifiers ticked, the dice (and the seed
    that rolled them), the numbers the engine read, and its result."""

    attacker: Piece
    target: Piece
    turn: int
    phase: str
    modifiers: tuple[str, ...]
    dice: tuple[int, ...]
    seed: str
    numbers: Mapping[str, int]
    result: Result

    def payload(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker.key,
            "attacker_name": self.attacker.name,
            "target": self.target.key,
            "target_name": self.target.name,
            "turn": self.turn,
            "phase": self.phase,
            "modifiers": list(self.modifiers),
            "dice": list(self.dice),
            "seed": self.seed,
            "numbers": dict(self.numbers),
            "result": self.result.to_json(),
        }


def work_out(
    engine: CombatRules,
    options: Mapping[str, Any],
    table: Table,
    attacker: Piece,
    target: Piece,
    target_list: Mapping[str, Any] | None,
    modifiers: Iterable[str] = (),
    die: int | Iterable[int] | None = None,
    *,
    seed: str = "",
    numbers: Mapping[str, int] | None = None,
) -> Worked:
    """The combat worked out by the rule set's engine. ``die``: the die (or dice) the
    player rolled at the table; without it the dice are rolled from ``seed`` (a new seed
    when none is given)."""
    if attacker.side == target.side:
        raise Refused(f"{attacker.name} and {target.name} are on the same side.")
    modifiers = tuple(modifiers)
    if not all(KEY.fullmatch(m) for m in modifiers):  # never echo a made-up key's text back
        raise Refused("That is not a modifier of this rule set; tick one the page offers.")
    checked_seed(seed)
    usable(attacker, table)
    usable(target, table)
    told = {str(k): int(v) for k, v in (numbers or {}).items()}
    unasked(engine, told)
    if any(not 0 <= v <= MAX_NUMBER for v in told.values()):
        raise Refused(f"Numbers are whole numbers from 0 to {MAX_NUMBER}.", "numbers")
    read = {f"target_{k}": v for k, v in table.of(target.key).damage.items()}
    read |= {f"attacker_{k}": v for k, v in table.of(attacker.key).damage.items()}
    read |= told
    chosen = frozenset(modifiers)
    combat = Combat(attacker.unit, target.unit, table.phase, chosen, (), options, read,
                    target_list)  # fmt: skip
    try:
        if die is None:
            seed = seed or secrets.token_hex(8)
            engine.check_modifiers(combat)  # the dice rolled depend on them
            spec = engine.dice(combat)
            dice = roll(seed, spec.faces, spec.count)
        else:
            seed = ""
            dice = (die,) if isinstance(die, int) else tuple(die)
        combat = Combat(attacker.unit, target.unit, table.phase, chosen, dice, options, read,
                        target_list)  # fmt: skip
        result = engine.work_out_hits(combat)
    except MalformedDocument as exc:
        raise Refused(in_words(exc, engine, combat)) from None
    return Worked(attacker, target, table.turn, table.phase, tuple(sorted(chosen)), dice, seed,
                  read, result)  # fmt: skip


def unasked(engine: CombatRules, told: Mapping[str, int]) -> None:
    """Refuse a typed number the rule set's sums do not ask the player for: the hits,
    casualties and impacts the game counts itself (``target_hits``, ...) change only
    through the actions that change them, and a made-up name would be silently ignored."""
    names = [name for name, _ in engine.numbers_asked]
    wrong = sorted(set(told) - set(names))
    if not wrong:
        return
    counted = [w for w in wrong if w.startswith(("target_", "attacker_"))]
    if counted:
        why = (f"the game counts {', '.join(counted)} itself, from the combats, rallies and "
               "removals recorded")  # fmt: skip
    else:
        why = f"{', '.join(wrong)} {'is' if len(wrong) == 1 else 'are'} not asked by the rules"
    allowed = (f"the rules ask only for {', '.join(names)}" if names
               else "the rules ask for no other number in this game")  # fmt: skip
    raise Refused(f"Other numbers: {why}; {allowed}.", "numbers")


def removal(table: Table, card: Piece, why: str) -> dict[str, Any]:
    """A unit taken off the table by the player: the action's payload."""
    problem = text_problem(why)
    if problem:
        raise Refused(f"The reason contains {problem}.")
    usable(card, table)
    return {"unit": card.key, "unit_name": card.name, "turn": table.turn,
            "phase": table.phase, "why": why[:200] or "Removed by the player"}  # fmt: skip


def next_phase(phases: Sequence[Phase], table: Table) -> dict[str, Any]:
    """The turn's next phase in the source's order; after the last, the next turn's first."""
    if table.choosing:
        raise Refused(f"The winner of this turn's Initiative roll says first whether they "
                      f"keep the Initiative or pass it ({table.choice_rule}).")  # fmt: skip
    keys = [p.key for p in phases]
    at = keys.index(table.phase) if table.phase in keys else len(keys) - 1
    turn, phase = (table.turn, keys[at + 1]) if at + 1 < len(keys) else (table.turn + 1, keys[0])
    return {"from": {"turn": table.turn, "phase": table.phase},
            "to": {"turn": turn, "phase": phase}}  # fmt: skip
