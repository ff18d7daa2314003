"""Changing a game: starting one, working a combat out with the rules engine, applying it,
a rally, removing a unit, the next phase and Undo. Every change is one action of the log,
recorded under the game's row lock at the version the player's page was drawn at.

A refusal raises ``Refused`` with a sentence a player understands, citing the source's
section where the engine gives one.
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max

import rules
from armybuilder.armies.models import Army, new_share_token
from armybuilder.games import selectors
from armybuilder.games.models import Game, GameAction
from rules.combat import Combat, Rally, Result
from rules.text import text_problem

MAX_NUMBER = 10_000
KEY = re.compile(r"[a-z0-9_]{1,60}")
SEED = re.compile(r"[0-9a-f]{1,64}")


class Refused(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def said(exc: rules.MalformedDocument) -> str:
    """The engine's message without the field path it starts with (``phase: ...``)."""
    message = exc.message
    if exc.path and message.startswith(exc.path + ":"):
        message = message[len(exc.path) + 1 :].strip()
    head, _, name = exc.path.partition(".")
    if head == "numbers" and name:  # a number the page asks for under "Other numbers"
        why = message.removeprefix("is required").lstrip(":, ")
        return f"Type {name}=<number> under Other numbers: {why}"
    return message[:1].upper() + message[1:]


def roll(seed: str, faces: Iterable[int], count: int) -> tuple[int, ...]:
    """The dice a seed rolls, so anyone can check a roll from the log: Python's
    ``random.Random(seed)``, one ``choice`` of the die's faces per die, in order."""
    rng, faces = random.Random(seed), tuple(faces)
    return tuple(rng.choice(faces) for _ in range(count))


# -- starting ----------------------------------------------------------------------------------


def _frozen(army: Army) -> dict[str, Any]:
    return {"name": army.name, "document": army.document, "list_revisions": army.list_pins,
            "lists_of": army.owner_id}  # fmt: skip


def start_game(owner: AbstractBaseUser, army_a: Army, army_b: Army) -> Game:
    """A game of ``owner``'s between frozen copies of two armies of one rule set (one army
    twice for solo play)."""
    if army_a.ruleset != army_b.ruleset:
        raise Refused(f"Both armies must be of one rule set: {army_a.name} is "
                      f"{_title(army_a.ruleset)}, {army_b.name} is {_title(army_b.ruleset)}.")  # fmt: skip
    try:
        ruleset = rules.get_ruleset(army_a.ruleset)
    except KeyError:
        raise Refused(f"Muster does not know the rule set of {army_a.name}.") from None
    if ruleset.combat() is None:
        raise Refused(f"Muster does not work out combats of {ruleset.title} yet.")
    game = Game(owner=owner, ruleset=ruleset.slug, name=f"{army_a.name} v {army_b.name}"[:300],
                side_a=_frozen(army_a), side_b=_frozen(army_b))  # fmt: skip
    for key, army in (("a", army_a), ("b", army_b)):
        try:
            selectors.side_view(game, key)
        except rules.MalformedDocument as exc:
            raise Refused(f"{army.name} cannot be read: {said(exc)}") from None
    game.phase = selectors.phases(game)[0].key
    game.save()
    return game


def _title(slug: str) -> str:
    try:
        return rules.get_ruleset(slug).title
    except KeyError:
        return slug


# -- the opponent's links ---------------------------------------------------------------------


LINKS = ("view", "play")


def set_link(game: Game, which: str, on: bool) -> str | None:
    """The opponent's link to watch (``view``) or to play (``play``) made anew (the old one
    stops working) or switched off; answers the new token, None when off."""
    if which not in LINKS:
        raise Refused("There are two links: one to watch the game, one to play it.")
    token = new_share_token() if on else None
    setattr(game, f"{which}_token", token)
    game.save(update_fields=[f"{which}_token"])
    return token


# -- one combat --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Worked:
    """One combat worked out: who, the phase, the modifiers ticked, the dice (and the seed
    that rolled them), the numbers the engine read, and its result."""

    attacker: selectors.UnitCard
    target: selectors.UnitCard
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


def unit_card(game: Game, key: str) -> selectors.UnitCard:
    side, _, _ = key.partition(":")
    card = selectors.side_view(game, side).card(key) if side in ("a", "b") else None
    if card is None:
        raise Refused("No unit of this game has that name; choose one from the list.")
    return card


def _usable(card: selectors.UnitCard, state: selectors.GameState) -> None:
    unit = state.of(card.key)
    if unit.removed:
        raise Refused(f"{card.name} was removed: {unit.removal}.")


def work_out(
    game: Game,
    attacker_id: str,
    target_id: str,
    modifiers: Iterable[str] = (),
    die: int | Iterable[int] | None = None,
    *,
    seed: str = "",
    numbers: Mapping[str, int] | None = None,
    state: selectors.GameState | None = None,
) -> Worked:
    """The combat worked out by the rule set's engine, saving nothing. ``die``: the die (or
    dice) the player rolled at the table; without it the dice are rolled from ``seed``
    (a new seed when none is given)."""
    state = state if state is not None else selectors.state_of(game)
    attacker, target = unit_card(game, attacker_id), unit_card(game, target_id)
    if attacker.side == target.side:
        raise Refused(f"{attacker.name} and {target.name} are on the same side.")
    modifiers = tuple(modifiers)
    if not all(KEY.fullmatch(m) for m in modifiers):  # never echo a made-up key's text back
        raise Refused("That is not a modifier of this rule set; tick one the page offers.")
    if seed and not SEED.fullmatch(seed):
        raise Refused("A seed is hex digits, as the page gives it; leave it out to roll anew.")
    _usable(attacker, state)
    _usable(target, state)
    told = {str(k): int(v) for k, v in (numbers or {}).items()}
    if any(not 0 <= v <= MAX_NUMBER for v in told.values()):
        raise Refused(f"Numbers are whole numbers from 0 to {MAX_NUMBER}.")
    read = {f"target_{k}": v for k, v in state.of(target.key).damage.items()}
    read |= {f"attacker_{k}": v for k, v in state.of(attacker.key).damage.items()}
    read |= told
    target_side = selectors.side_view(game, target.side).army
    chosen = frozenset(modifiers)
    combat = Combat(attacker.unit, target.unit, state.phase, chosen, (), selectors.options(game),
                    read, target_side.list_data)  # fmt: skip
    engine = selectors.combat_rules(game)
    try:
        if die is None:
            seed = seed or secrets.token_hex(8)
            spec = engine.dice(combat)
            dice = roll(seed, spec.faces, spec.count)
        else:
            seed = ""
            dice = (die,) if isinstance(die, int) else tuple(die)
        combat = Combat(attacker.unit, target.unit, state.phase, chosen, dice,
                        selectors.options(game), read, target_side.list_data)  # fmt: skip
        result = engine.work_out_hits(combat)
    except rules.MalformedDocument as exc:
        raise Refused(_in_words(exc, engine, combat)) from None
    return Worked(attacker, target, state.turn, state.phase, tuple(sorted(chosen)), dice, seed,
                  read, result)  # fmt: skip


def phases_named(game: Game, message: str) -> str:
    """The engine's message with each phase it quotes by key (``'shoot'``, as the API
    takes them) named as the page names it ("Phase 1: Shoot")."""
    return _named(selectors.phases(game), message)


def _named(phases: Iterable[Any], message: str) -> str:
    for phase in phases:
        message = message.replace(f"phase '{phase.key}'", phase.name)
        message = message.replace(f"'{phase.key}'", phase.name)
    return message


def _in_words(exc: rules.MalformedDocument, engine: Any, combat: Combat) -> str:
    """The engine's refusal, its modifiers named by their labels rather than their keys."""
    message = said(exc)
    if exc.path == "phase":
        message = _named(engine.phases(combat.options), message)
    if exc.path == "modifiers":
        offered = engine.combat_modifiers(combat.attacker, combat.target, combat.phase,
                                          combat.options, combat.target_list)  # fmt: skip
        for m in sorted(offered, key=lambda m: -len(m.key)):
            message = re.sub(rf"\b{re.escape(m.key)}\b", f"“{m.label}”", message)
    return message


def offered_modifiers(game: Game, attacker_id: str, target_id: str) -> tuple[Any, ...]:
    """The modifiers the source allows for this attacker, target and the game's phase
    (automatic ones included, for the page to say they apply); Refused when the attacker
    cannot attack in this phase."""
    state = selectors.state_of(game)
    attacker, target = unit_card(game, attacker_id), unit_card(game, target_id)
    if attacker.side == target.side:
        raise Refused(f"{attacker.name} and {target.name} are on the same side.")
    target_list = selectors.side_view(game, target.side).army.list_data
    try:
        return selectors.combat_rules(game).combat_modifiers(
            attacker.unit, target.unit, state.phase, selectors.options(game), target_list
        )
    except rules.MalformedDocument as exc:
        raise Refused(phases_named(game, said(exc))) from None


# -- the log -----------------------------------------------------------------------------------


STALE = ("The game moved on since this page was drawn (another tab or device?): nothing was "
         "applied. Here it is as it stands now.")  # fmt: skip


class Duplicate(Exception):
    """An operation whose one-time key an action of this game already carries (or an undo
    of an action already taken back): nothing is applied again; ``action`` is that one."""

    def __init__(self, action: GameAction) -> None:
        super().__init__(action.number)
        self.action = action


class MovedOn(Refused):
    """An action made at another turn or phase than the game's now (the other phone acted
    first): never applied in the wrong phase. ``state`` is the game's as it stands."""

    def __init__(self, state: selectors.GameState) -> None:
        super().__init__("The game moved on since this action was made: nothing was applied.")
        self.state = state


@dataclass(frozen=True)
class Keyed:
    """What an operation of the page's script adds to an action: its one-time key, and
    the turn and phase the player made it in (None: no check, as for a form's)."""

    key: str
    turn: int | None = None
    phase: str | None = None


@transaction.atomic
def record_action(
    game: Game, version: int | None, kind: str, make: Any, keyed: Keyed | None = None
) -> GameAction:
    """One action added to the log under the game's lock: ``make(state)`` answers its
    payload (or raises Refused); the game's turn, phase and version follow. ``keyed``: an
    action whose key the log holds already raises Duplicate, and one made at another turn
    or phase raises MovedOn, both before anything is written."""
    locked = Game.objects.select_for_update().get(pk=game.pk)
    if version is not None and version != locked.version:
        raise Refused(STALE)
    actions = list(locked.actions.order_by("number"))
    state = selectors.state_of(locked, actions)
    if keyed is not None:
        done = next((a for a in actions if a.key == keyed.key), None)
        if done is not None:
            raise Duplicate(done)
        if keyed.turn is not None and (keyed.turn, keyed.phase) != (state.turn, state.phase):
            raise MovedOn(state)
    payload = make(locked, state, actions)
    number = (locked.actions.aggregate(n=Max("number"))["n"] or 0) + 1
    action = GameAction.objects.create(game=locked, number=number, kind=kind, payload=payload,
                                       key=keyed.key if keyed else None)  # fmt: skip
    after = selectors.state_of(locked, [*actions, action])
    Game.objects.filter(pk=locked.pk).update(turn=after.turn, phase=after.phase,
                                             version=locked.version + 1)  # fmt: skip
    game.refresh_from_db()
    return action


def apply_combat(
    game: Game,
    version: int | None,
    attacker_id: str,
    target_id: str,
    modifiers: Iterable[str] = (),
    die: int | Iterable[int] | None = None,
    *,
    seed: str = "",
    numbers: Mapping[str, int] | None = None,
    keyed: Keyed | None = None,
) -> GameAction:
    """The combat worked out again on the game as it stands and recorded: the engine's
    hits added to the target, and the target removed when the engine's removal rule says
    so. With a ``seed`` (and no die) the same dice are rolled as the page showed."""

    def make(locked: Game, state: selectors.GameState, actions: list[GameAction]) -> dict:
        worked = work_out(locked, attacker_id, target_id, modifiers, die, seed=seed,
                          numbers=numbers, state=state)  # fmt: skip
        return worked.payload()

    return record_action(game, version, GameAction.COMBAT, make, keyed)


def remove_unit(
    game: Game, version: int | None, unit_id: str, why: str = "", *, keyed: Keyed | None = None
) -> GameAction:
    """A unit taken off the table by the player (routed, fled, a rule Muster does not
    work out)."""

    problem = text_problem(why)
    if problem:
        raise Refused(f"The reason contains {problem}.")

    def make(locked: Game, state: selectors.GameState, actions: list[GameAction]) -> dict:
        card = unit_card(locked, unit_id)
        _usable(card, state)
        return {"unit": card.key, "unit_name": card.name, "turn": state.turn,
                "phase": state.phase, "why": why[:200] or "Removed by the player"}  # fmt: skip

    return record_action(game, version, GameAction.REMOVE, make, keyed)


def rally_phase(game: Game) -> str | None:
    """The phase the rule set's units rally in (None: it has no rallies)."""
    return selectors.combat_rules(game).rally_phase(selectors.options(game))


def rally(
    game: Game,
    version: int | None,
    unit_id: str,
    facts: Iterable[str] = (),
    die: int | None = None,
    *,
    seed: str = "",
    keyed: Keyed | None = None,
) -> GameAction:
    """A unit's rally as the rule set's engine works it out from what the unit did this
    turn (``facts``, of those the engine asks) and the die typed, recorded with its steps:
    its hits after are the engine's. Refused outside the source's rally phase. Where the
    rule rolls a die and none is typed, it is rolled from ``seed`` (a new one when none
    is given), so a resent rally rolls the same and anyone can check it."""
    facts = tuple(facts)
    if not all(KEY.fullmatch(f) for f in facts):  # never echo a made-up key's text back
        raise Refused("That is not something this rule set's rally asks; tick one offered.")
    if seed and not SEED.fullmatch(seed):
        raise Refused("A seed is hex digits, as the page gives it; leave it out to roll anew.")

    def make(locked: Game, state: selectors.GameState, actions: list[GameAction]) -> dict:
        engine, options = selectors.combat_rules(locked), selectors.options(locked)
        when = engine.rally_phase(options)
        if when is None:
            raise Refused("This rule set has no rallies.")
        if state.phase != when:
            names = {p.key: p for p in engine.phases(options)}
            at, now = names[when], names.get(state.phase)
            raise Refused(f"Units rally in {at.name} ({at.section}); the game is in "
                          f"{now.name if now else state.phase}.")  # fmt: skip
        asked = {key for key, _ in engine.rally_facts(options)}
        if not set(facts) <= asked:
            raise Refused("That is not something this rule set's rally asks; tick one offered.")
        card = unit_card(locked, unit_id)
        _usable(card, state)
        damage = state.of(card.key).damage
        spec = engine.rally_dice(Rally(card.unit, 0, frozenset(facts), None, options))
        rolled, used = die, ""
        if spec is not None and die is None:
            used = seed or secrets.token_hex(8)
            rolled = roll(used, spec.faces, 1)[0]
        elif spec is not None and die not in spec.faces:
            faces = ", ".join(str(f) for f in sorted(set(spec.faces)))
            raise Refused(f"{die} is not a face of the {spec.label}; allowed: {faces}.")

        def work(hits: int) -> Any:
            return engine.rally(Rally(card.unit, hits, frozenset(facts), rolled, options))

        try:  # the engine names its unit of damage ("hits", "casualties"): read that one
            result = work(damage.get(work(0).unit, 0))
        except rules.MalformedDocument as exc:
            raise Refused(said(exc)) from None
        return {"unit": card.key, "unit_name": card.name, "turn": state.turn,
                "phase": state.phase, "facts": sorted(facts), "die": rolled,
                "dice": [] if rolled is None else [rolled], "seed": used,
                "result": result.to_json()}  # fmt: skip

    return record_action(game, version, GameAction.RALLY, make, keyed)


def next_phase(game: Game, version: int | None, *, keyed: Keyed | None = None) -> GameAction:
    """The turn's next phase in the source's order; after the last, the next turn's first."""

    def make(locked: Game, state: selectors.GameState, actions: list[GameAction]) -> dict:
        keys = [p.key for p in selectors.phases(locked)]
        at = keys.index(state.phase) if state.phase in keys else len(keys) - 1
        turn, phase = (
            (state.turn, keys[at + 1]) if at + 1 < len(keys) else (state.turn + 1, keys[0])
        )
        return {"from": {"turn": state.turn, "phase": state.phase},
                "to": {"turn": turn, "phase": phase}}  # fmt: skip

    return record_action(game, version, GameAction.NEXT_PHASE, make, keyed)


def undo_last(game: Game, version: int | None, *, keyed: Keyed | None = None) -> GameAction:
    """The last action still standing taken back: marked undone, and an ``undo`` action
    logged; replaying the log then gives exactly the game as it was before it."""

    def make(locked: Game, state: selectors.GameState, actions: list[GameAction]) -> dict:
        if not state.actions:
            raise Refused("Nothing to undo: no action of this game stands.")
        return _take_back(state.actions[-1])

    return record_action(game, version, GameAction.UNDO, make, keyed)


NEVER_APPLIED = "Nothing to undo: that action was never applied."


def undo_keyed(game: Game, of: str | None, keyed: Keyed, *, number: int = 0) -> GameAction:
    """The action the page's script made under the one-time key ``of`` (or, made by a
    form, the log's action ``number``) taken back, wherever it stands in the log (the game
    is replayed without it). Taken back already: Duplicate, with the undo that did; no
    action has that key (it was refused): Refused."""

    def make(locked: Game, state: selectors.GameState, actions: list[GameAction]) -> dict:
        found = next((a for a in actions if (a.key == of if of else a.number == number)), None)
        if found is None:
            raise Refused(NEVER_APPLIED)
        if found.kind == GameAction.UNDO:
            raise Refused("An undo is not taken back: make the action again.")
        if found.undone:
            undo = next((a for a in actions if a.kind == GameAction.UNDO
                         and a.payload.get("of") == found.number), found)  # fmt: skip
            raise Duplicate(undo)
        return _take_back(found)

    return record_action(game, None, GameAction.UNDO, make, keyed)


def _take_back(action: GameAction) -> dict[str, Any]:
    action.undone = True
    action.save(update_fields=["undone"])  # the same row object the replay reads after
    return {"of": action.number, "of_kind": action.kind}
