"""Games attached to an event: which a player may attach, attaching and detaching them, and
what the event's page shows of them (the games' own summaries, never their pages).

A game stays private to its owner and their link holders: the event shows its name, both
armies' names, the turns played and what each side lost, nothing more. No pairing and no
scoring: those stay with the organiser's own tools.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Prefetch

import rules
from armybuilder.events import selectors
from armybuilder.events.models import Entrant, Event, EventGame
from armybuilder.games import selectors as games
from armybuilder.games.models import Game, GameAction


class Refused(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def may_attach(event: Event, user: Any) -> bool:
    """An entered entrant may attach their own games to the event."""
    entrant = selectors.entrant_of(event, user=user)
    return entrant is not None and entrant.state == Entrant.ENTERED


def attachable_games(event: Event, user: Any) -> list[Game]:
    """``user``'s games of the event's rule set attached to no event yet."""
    if not may_attach(event, user):
        return []
    mine = games.my_games(user).filter(ruleset=event.ruleset, event_link__isnull=True)
    return list(mine.only("pk", "name", "created", "updated"))


def attach(event: Event, game: Game, user: Any) -> EventGame:
    if game.owner_id != user.pk:
        raise Refused("Only the game's owner attaches it.")
    if game.ruleset != event.ruleset:
        raise Refused(f"{game.name} is not a game of this event's rule set.")
    try:
        with transaction.atomic():
            return EventGame.objects.create(event=event, game=game, attached_by=user)
    except IntegrityError:  # attached meanwhile (here or to another event): one event a game
        raise Refused(f"{game.name} is already attached to an event.") from None


def detach(event: Event, game: Game) -> bool:
    deleted, _ = EventGame.objects.filter(event=event, game=game).delete()
    return bool(deleted)


def sees_games(event: Event, user: Any) -> bool:
    """Who sees every game attached to the event: the organisers always; its entrants from
    the reveal (a game names the armies in it, which entrants may not see before then);
    nobody else, even on a public event. Before that a player sees only their own."""
    if selectors.runs(event, user=user):
        return True
    entrant = selectors.entrant_of(event, user=user)
    return entrant is not None and entrant.state == Entrant.ENTERED and selectors.revealed(event)


@dataclass(frozen=True)
class AttachedGame:
    game: Game
    summary: games.Summary
    mine: bool  # the viewer's own: they may detach it


def attached_games(event: Event, user: Any) -> list[AttachedGame]:
    """The event's games with their summaries, replayed from their logs as the game's own
    page does, in a bounded number of queries: the games and their logs in two, then the
    lists of each owner and set of pins once, however many games they are in."""
    rows = EventGame.objects.filter(event=event)
    if not sees_games(event, user):  # before the reveal an entrant sees only their own
        if not getattr(user, "is_authenticated", False):
            return []
        rows = rows.filter(game__owner_id=user.pk)
    log = GameAction.objects.order_by("number")
    rows = rows.select_related("game").prefetch_related(Prefetch("game__actions", queryset=log))
    lookups: dict[Any, Any] = {}  # shared by every game's sides (games.selectors.read_side)
    found = []
    for row in rows:
        game = row.game
        game.__dict__["_lookups"] = lookups
        try:
            summary = games.summary(game, state=games.state_of(game, actions=game.actions.all()))
        except (KeyError, rules.MalformedDocument):  # one unreadable game: not the page down
            continue
        found.append(AttachedGame(game, summary, game.owner_id == getattr(user, "pk", None)))
    return found
