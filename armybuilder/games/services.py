"""Changing a game: starting one, working a combat out with the rules engine, applying it,
a rally, removing a unit, the next phase and Undo. Every change is one action of the log,
recorded under the game's row lock at the version the player's page was drawn at.

A refusal raises ``Refused`` with a sentence a player understands, citing the source's
section where the engine gives one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max

import rules
from armybuilder.armies.models import Army, new_share_token
from armybuilder.games import claims, selectors
from armybuilder.games.models import Game, GameAction
from rules import seats, table, table_rolls
from rules.text import text_problem

# shared with the page's engine (``rules.page.game``): one copy of each piece
MAX_NUMBER, KEY, SEED = table.MAX_NUMBER, table.KEY, table.SEED
Refused, said, roll = table.Refused, table.said, table.roll


# -- starting ----------------------------------------------------------------------------------


def _frozen(army: Army) -> dict[str, Any]:
    frozen = {"name": army.name, "document": army.document, "list_revisions": army.list_pins,
              "lists_of": army.owner_id}  # fmt: skip
    origin = getattr(army, "origin", "")  # where a side not of the player's armies came from
    if origin:
        frozen["from"] = origin
    return frozen


def start_game(
    owner: AbstractBaseUser, *, army_a: Army, army_b: Army, seated: bool = False, first: str = "a"
) -> Game:
    """A game of ``owner``'s between frozen copies of two armies of one rule set (one army
    twice for solo play). ``seated``: played on two phones, the owner's holding side A's
    seat and the link to play side B's (``rules.seats``); else one phone plays both.
    ``first``: the side whose player turn comes first."""
    if first not in ("a", "b"):
        raise Refused('The side that goes first is "a" or "b".')
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
                side_a=_frozen(army_a), side_b=_frozen(army_b), seated=seated,
                first=first)  # fmt: skip
    for key, army in (("a", army_a), ("b", army_b)):
        try:
            selectors.side_view(game, key=key)
        except rules.MalformedDocument as exc:
            raise Refused(f"{army.name} cannot be read: {said(exc)}") from None
    game.phase = selectors.phases(game)[0].key
    game.save()
    return game


def choose_seats(game: Game, *, seated: bool, first: str) -> None:
    """How a game just started is played: on two phones (``seated``) or one, and the side
    whose player turn comes first. Refused once anything was done in it."""
    if first not in ("a", "b"):
        raise Refused('The side that goes first is "a" or "b".')
    changed = Game.objects.filter(pk=game.pk, version=1).update(seated=seated, first=first)
    if not changed:
        raise Refused("The game has begun: who plays which side was chosen at its start.")
    game.refresh_from_db()


def _title(slug: str) -> str:
    try:
        return rules.get_ruleset(slug).title
    except KeyError:
        return slug


# -- the opponent's links ---------------------------------------------------------------------


LINKS = ("view", "play")


def set_link(game: Game, *, which: str, on: bool) -> str | None:
    """The opponent's link to watch (``view``) or to play (``play``) made anew (the old one
    stops working) or switched off; answers the new token, None when off."""
    if which not in LINKS:
        raise Refused("There are two links: one to watch the game, one to play it.")
    token = new_share_token() if on else None
    setattr(game, f"{which}_token", token)
    game.save(update_fields=[f"{which}_token"])
    if which == "play":  # a new link, or none, is held by no device yet
        claims.release(game)
    return token


# -- one combat --------------------------------------------------------------------------------


Worked = table.Worked


def unit_card(game: Game, *, key: str) -> selectors.UnitCard:
    side, _, _ = key.partition(":")
    card = selectors.side_view(game, key=side).card(key) if side in ("a", "b") else None
    if card is None:
        raise Refused("No unit of this game has that name; choose one from the list.")
    return card


def work_out(
    game: Game,
    *,
    attacker_id: str,
    target_id: str,
    modifiers: Iterable[str] = (),
    die: int | Iterable[int] | None = None,
    seed: str = "",
    numbers: Mapping[str, int] | None = None,
    state: selectors.GameState | None = None,
    seat: str | None = None,
) -> Worked:
    """The combat worked out by the rule set's engine (``rules.table.work_out``), saving
    nothing. ``die``: the die (or dice) the player rolled at the table; without it the dice
    are rolled from ``seed`` (a new seed when none is given). ``seat``: refused unless that
    phone may record this attacker's combat now."""
    state = state if state is not None else selectors.state_of(game)
    attacker, target = unit_card(game, key=attacker_id), unit_card(game, key=target_id)
    seats.may_attack(selectors.turn_of(game, number=state.turn), seat, attacker.side)
    target_list = selectors.side_view(game, key=target.side).army.list_data
    return table.work_out(selectors.combat_rules(game), selectors.options(game), state,
                          attacker, target, target_list, modifiers, die, seed=seed,
                          numbers=numbers)  # fmt: skip


def phases_named(game: Game, *, message: str) -> str:
    """The engine's message with each phase it quotes by key (``'shoot'``, as the API
    takes them) named as the page names it ("Phase 1: Shoot")."""
    return _named(selectors.phases(game), message)


_named = table.named


def offered_modifiers(
    game: Game, *, attacker_id: str, target_id: str, seat: str | None = None
) -> tuple[Any, ...]:
    """The modifiers the source allows for this attacker, target and the game's phase
    (automatic ones included, for the page to say they apply); Refused when the attacker
    cannot attack in this phase."""
    state = selectors.state_of(game)
    attacker, target = unit_card(game, key=attacker_id), unit_card(game, key=target_id)
    if attacker.side == target.side:
        raise Refused(f"{attacker.name} and {target.name} are on the same side.")
    seats.may_attack(selectors.turn_of(game, number=state.turn), seat, attacker.side)
    target_list = selectors.side_view(game, key=target.side).army.list_data
    try:
        return selectors.combat_rules(game).combat_modifiers(
            attacker.unit, target.unit, state.phase, selectors.options(game), target_list
        )
    except rules.MalformedDocument as exc:
        raise Refused(phases_named(game, message=said(exc))) from None


# -- the log -----------------------------------------------------------------------------------


STALE = ("The game moved on since this page was drawn (another tab or device?): nothing was "
         "applied. Here it is as it stands now.")  # fmt: skip


class Duplicate(Exception):
    """An undo of an action already taken back: nothing is applied again; ``action`` is
    the undo that took it back. (A key applied before is the operation kernel's
    ``armybuilder.operations.kernel.Duplicate``.)"""

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
    game: Game,
    *,
    version: int | None,
    kind: str,
    make: Any,
    keyed: Keyed | None = None,
    seat: str | None = None,
) -> GameAction:
    """One action added to the log under the game's lock: ``make(state)`` answers its
    payload (or raises Refused); the game's turn, phase and version follow. ``keyed``: the
    action's key is kept with it (applying it once is the caller's, the operation kernel's),
    and one made at another turn or phase raises MovedOn before anything is written.
    ``seat``: the phone's ("a" or "b") that made it, recorded with it (None: a solo
    game's, no seat)."""
    locked = Game.objects.select_for_update().get(pk=game.pk)
    if version is not None and version != locked.version:
        raise Refused(STALE)
    actions = list(locked.actions.order_by("number"))
    state = selectors.state_of(locked, actions=actions)
    made_at = (keyed.turn, keyed.phase) if keyed is not None else (None, None)
    if made_at[0] is not None and made_at != (state.turn, state.phase):
        raise MovedOn(state)
    payload = make(locked, state, actions)
    number = (locked.actions.aggregate(n=Max("number"))["n"] or 0) + 1
    action = GameAction.objects.create(game=locked, number=number, kind=kind, payload=payload,
                                       key=keyed.key if keyed else None,
                                       seat=seat or "")  # fmt: skip
    after = selectors.state_of(locked, actions=[*actions, action])
    Game.objects.filter(pk=locked.pk).update(turn=after.turn, phase=after.phase,
                                             version=locked.version + 1)  # fmt: skip
    game.refresh_from_db()
    return action


def apply_combat(
    game: Game,
    *,
    version: int | None,
    attacker_id: str,
    target_id: str,
    modifiers: Iterable[str] = (),
    die: int | Iterable[int] | None = None,
    seed: str = "",
    numbers: Mapping[str, int] | None = None,
    keyed: Keyed | None = None,
    seat: str | None = None,
) -> GameAction:
    """The combat worked out again on the game as it stands and recorded: the engine's
    hits added to the target, and the target removed when the engine's removal rule says
    so. With a ``seed`` (and no die) the same dice are rolled as the page showed.
    ``seat``: refused unless that phone may record this attacker's combat now."""

    def make(locked: Game, state: selectors.GameState, actions: list[GameAction]) -> dict:
        attacker = unit_card(locked, key=attacker_id)
        seats.may_attack(selectors.turn_of(locked, number=state.turn), seat, attacker.side)
        worked = work_out(
            locked,
            attacker_id=attacker_id,
            target_id=target_id,
            modifiers=modifiers,
            die=die,
            seed=seed,
            numbers=numbers,
            state=state,
        )
        return worked.payload()

    return record_action(
        game, version=version, kind=GameAction.COMBAT, make=make, keyed=keyed, seat=seat
    )


def remove_unit(
    game: Game,
    *,
    version: int | None,
    unit_id: str,
    why: str = "",
    keyed: Keyed | None = None,
    seat: str | None = None,
) -> GameAction:
    """A unit taken off the table by the player (routed, fled, a rule Muster does not
    work out)."""

    problem = text_problem(why)
    if problem:
        raise Refused(f"The reason contains {problem}.")

    def make(locked: Game, state: selectors.GameState, actions: list[GameAction]) -> dict:
        card = unit_card(locked, key=unit_id)
        seats.own(seat, card.side, selectors.side_names(locked), "removals")
        return table.removal(state, card, why)

    return record_action(
        game, version=version, kind=GameAction.REMOVE, make=make, keyed=keyed, seat=seat
    )


def rally_phase(game: Game) -> str | None:
    """The phase the rule set's units rally in (None: it has no rallies)."""
    return selectors.combat_rules(game).rally_phase(selectors.options(game))


def rally(
    game: Game,
    *,
    version: int | None,
    unit_id: str,
    facts: Iterable[str] = (),
    die: int | None = None,
    seed: str = "",
    keyed: Keyed | None = None,
    seat: str | None = None,
) -> GameAction:
    """A unit's rally as the rule set's engine works it out from what the unit did this
    turn (``facts``, of those the engine asks) and the die typed, recorded with its steps:
    its hits after are the engine's. Refused outside the source's rally phase. Where the
    rule rolls a die and none is typed, it is rolled from ``seed`` (a new one when none
    is given), so a resent rally rolls the same and anyone can check it."""
    facts = table_rolls.check_facts(facts)
    table.checked_seed(seed)

    def make(locked: Game, state: selectors.GameState, actions: list[GameAction]) -> dict:
        engine, options = selectors.combat_rules(locked), selectors.options(locked)
        table_rolls.rally_allowed(engine, options, state, facts)  # before the unit is looked up
        card = unit_card(locked, key=unit_id)
        seats.may_rally(selectors.turn_of(locked, number=state.turn), seat, card.side)
        return table_rolls.rally(engine, options, state, card, facts, die, seed=seed)

    return record_action(
        game, version=version, kind=GameAction.RALLY, make=make, keyed=keyed, seat=seat
    )


def next_phase(
    game: Game, *, version: int | None, keyed: Keyed | None = None, seat: str | None = None
) -> GameAction:
    """The turn's next phase in the source's order; after the last, the next turn's first.
    ``seat``: where player turns are one-sided, only the phasing player moves it on."""

    def make(locked: Game, state: selectors.GameState, actions: list[GameAction]) -> dict:
        seats.may_end_phase(selectors.turn_of(locked, number=state.turn), seat)
        return table.next_phase(selectors.phases(locked), state)

    return record_action(
        game, version=version, kind=GameAction.NEXT_PHASE, make=make, keyed=keyed, seat=seat
    )


def undo_last(
    game: Game, *, version: int | None, keyed: Keyed | None = None, seat: str | None = None
) -> GameAction:
    """The last action still standing taken back: marked undone, and an ``undo`` action
    logged; replaying the log then gives exactly the game as it was before it. ``seat``:
    that phone's last action standing (one's own only)."""

    def make(locked: Game, state: selectors.GameState, actions: list[GameAction]) -> dict:
        mine = [a for a in state.actions if seat is None or a.seat in ("", seat)]
        if not mine:
            raise Refused("Nothing to undo: no action of this game stands."
                          if seat is None or not state.actions
                          else "Nothing to undo: no action of this phone's stands.")  # fmt: skip
        return _take_back(mine[-1])

    return record_action(
        game, version=version, kind=GameAction.UNDO, make=make, keyed=keyed, seat=seat
    )


NEVER_APPLIED = "Nothing to undo: that action was never applied."


def undo_keyed(
    game: Game, *, of: str | None, keyed: Keyed, number: int = 0, seat: str | None = None
) -> GameAction:
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
        seats.may_undo(seat, found.seat, selectors.side_names(locked))
        return _take_back(found)

    return record_action(
        game, version=None, kind=GameAction.UNDO, make=make, keyed=keyed, seat=seat
    )


def _take_back(action: GameAction) -> dict[str, Any]:
    action.undone = True
    action.save(update_fields=["undone"])  # the same row object the replay reads after
    return {"of": action.number, "of_kind": action.kind}
