"""Reading a game: its sides as the engine reads them, and where the game stands, replayed
from the log.

Nothing here writes. A unit is named by its side and its stable id in the army document
(``a:<id>``, ``b:<id>``), never by its place: both sides may be copies of one army (solo
play), so the side is part of the name.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest

import rules
from armybuilder.catalog import services as catalog
from armybuilder.catalog.selectors import pinned_lookup
from armybuilder.games.models import SIDES, Game, GameAction
from rules import seats, table
from rules.combat import CombatRules, Phase
from rules.presentation import called_units


@dataclass(frozen=True)
class UnitCard:
    """One unit of a side as the page shows it: its name, stat line and points."""

    key: str  # "<side>:<id>"
    side: str
    name: str
    unit: Mapping[str, Any]
    stats: Mapping[str, Any]
    points: int | None


@dataclass(frozen=True)
class SideView:
    key: str
    name: str
    army: rules.Army
    cards: tuple[UnitCard, ...]
    origin: str = ""  # where a side not of the players' own armies came from

    def card(self, key: str) -> UnitCard | None:
        return next((c for c in self.cards if c.key == key), None)


UnitState = table.UnitState


@dataclass
class GameState(table.Table):
    """Where the game stands, and the live actions it was replayed from (oldest first,
    neither undone nor an undo)."""

    actions: list[GameAction] = field(default_factory=list)


def my_games(user: Any) -> QuerySet[Game]:
    return Game.objects.filter(owner=user).order_by("-updated", "-pk")


def game_or_404(request: HttpRequest, pk: int) -> Game:
    """The game ``pk`` if the request's user owns it: anyone else, signed in or not, gets
    404, so a URL does not tell whether the game exists."""
    user = request.user
    game = Game.objects.filter(pk=pk, owner_id=user.pk).first() if user.is_authenticated else None
    if game is None:
        raise Http404("no such game")
    return game


def game_by_link_or_404(token: str) -> tuple[Game, bool]:
    """The game an opponent's link leads to, and whether it is the link to play (else to
    watch); a made-up, switched-off or renewed token is 404."""
    game = None
    if token and len(token) <= 64:
        game = Game.objects.filter(Q(view_token=token) | Q(play_token=token)).first()
    if game is None:
        raise Http404("no such game")
    return game, game.play_token == token


def combat_rules(game: Game) -> CombatRules:
    return rules.get_ruleset(game.ruleset).combat()


def options(game: Game) -> Mapping[str, Any]:
    """The game's options (the die, the optional rules): those of the first side's army,
    the player's own."""
    return side_view(game, key="a").army.options


def phases(game: Game) -> tuple[Phase, ...]:
    return combat_rules(game).phases(options(game))


def read_side(
    side: Mapping[str, Any], *, lookups: dict[Any, Any] | None = None
) -> tuple[rules.Army, rules.Report]:
    """A side's frozen document checked against the list revisions it was started with.

    ``lookups``, shared by many games read at once (an event's page), reads the lists of
    each owner and set of pins once however many games they are in, not once a side."""
    lists_of, pins = side.get("lists_of"), side.get("list_revisions") or {}
    if lookups is None:
        return catalog.check_document(
            side["document"], lookup=pinned_lookup(lists_of, list_pins=pins)
        )
    key = (lists_of, json.dumps(pins, sort_keys=True, default=str))
    if key not in lookups:
        lookups[key] = functools.cache(pinned_lookup(lists_of, list_pins=pins))
    return catalog.check_document(side["document"], lookup=lookups[key])


def side_view(game: Game, *, key: str) -> SideView:
    cache = game.__dict__.setdefault("_sides", {})  # one parse per side and request
    if key not in cache:
        side = game.side(key)
        army, report = read_side(side, lookups=game.__dict__.get("_lookups"))
        cards = []
        # units of one name are numbered in the game: cards, pickers, log and summary
        names = called_units(army.units)
        for i, unit in enumerate(army.units):
            ident = army.unit_ids[i] if i < len(army.unit_ids) else None
            if ident is None:
                continue  # every saved army's unit has an id (armies give them on save)
            item = report.units[i] if i < len(report.units) else None
            cards.append(UnitCard(f"{key}:{ident}", key, names[i], unit,
                                  dict(item.stats) if item else {},
                                  item.points if item else None))  # fmt: skip
        cache[key] = SideView(key, side.get("name") or army.name, army, tuple(cards),
                              str(side.get("from") or ""))  # fmt: skip
    return cache[key]


def sides(game: Game) -> dict[str, SideView]:
    return {key: side_view(game, key=key) for key in SIDES}


def side_names(game: Game) -> dict[str, str]:
    """Each side's army name, by its key."""
    return {key: view.name for key, view in sides(game).items()}


def turn_of(game: Game, *, number: int, state: table.Table | None = None) -> seats.Turn:
    """The game's turn ``number`` (the one it stands at) as ``rules.seats`` reads who may
    act in it: the side holding the Initiative (``state``'s, the log replayed when not
    given) goes first."""
    holder = (state if state is not None else state_of(game)).holder
    return seats.Turn(combat_rules(game), number, holder, side_names(game))


def live_actions(actions: Iterable[GameAction]) -> list[GameAction]:
    return [a for a in actions if not a.undone and a.kind != GameAction.UNDO]


def state_of(game: Game, *, actions: Iterable[GameAction] | None = None) -> GameState:
    """Where the game stands: every live action of the log replayed in order from the
    first turn's first phase, so taking one back (Undo) leaves exactly what was before."""
    if actions is None:
        actions = game.actions.order_by("number")
    live = live_actions(actions)
    at = phases(game)
    state = GameState(1, at[0].key, {}, holder=game.first, actions=live)
    for action in live:
        state.record(action.kind, action.payload, at)
    return state


@dataclass(frozen=True)
class SideSummary:
    name: str
    units: int
    lost: tuple[str, ...]  # the names of its units removed (or to be removed this turn)
    points_lost: int | None  # None: the rule set has no points
    routed: str = ""  # the section of the force morale roll that routed it ("": it did not)


@dataclass(frozen=True)
class Summary:
    turns: int
    sides: tuple[SideSummary, ...]


def summary(game: Game, *, state: GameState | None = None) -> Summary:
    """Units lost, points lost (rule sets with points: each unit's cost as the engine's
    check of its side's document gives it) and the turns played so far."""
    state = state if state is not None else state_of(game)
    points = rules.get_ruleset(game.ruleset).uses_points
    found = []
    for key, view in sides(game).items():
        lost = [c for c in view.cards if state.of(c.key).lost]
        spent = sum(c.points or 0 for c in lost) if points else None
        routed = _routed_by(state, key)
        found.append(SideSummary(view.name, len(view.cards), tuple(c.name for c in lost), spent,
                                 routed))  # fmt: skip
    return Summary(turns_played(game, state=state), tuple(found))


def turns_played(game: Game, *, state: GameState) -> int:
    """The turns finished, and the one under way once anything was done in it: a game just
    moved on to a turn's first phase, with nothing done in it yet, has played the turns
    before it (3 finished turns are 3, not the 4 the game now stands at)."""
    under_way = state.phase != phases(game)[0].key or any(
        a.kind != GameAction.NEXT_PHASE and a.payload.get("turn") == state.turn
        for a in state.actions
    )
    return state.turn - (0 if under_way else 1)


def _routed_by(state: GameState, side: str) -> str:
    """The section of the force morale roll that routed ``side`` ("" if none did)."""
    for action in reversed(state.actions):
        if action.kind == GameAction.FORCE_MORALE and action.payload["side"] == side:
            verdict = action.payload["verdict"]
            return verdict["section"] if verdict["outcome"] == "routs" else ""
    return ""
