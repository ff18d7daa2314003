"""A game in both players' history: the seat a signed-in opponent takes by opening one of
its links, what My games shows of those games, and taking one out of that history.

The link is the key: a seat shows its game only while the token it was opened with is
still the game's link of that kind (``GameSeat.live``). A renewed or switched-off link
leaves the seat with nothing of the game to show (``LostSeat`` carries no game at all), so
the owner ending a link ends it in every player's history at once, with no row to change.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import BooleanField, Case, Prefetch, Value, When
from django.urls import reverse
from django.utils import timezone

import rules
from armybuilder.games import presenters, selectors
from armybuilder.games.models import Game, GameAction, GameSeat


def take_seat(game: Game, user: Any, token: str, plays: bool) -> None:
    """Remember that ``user`` opened ``game`` by the link ``token``: one upsert (insert, or
    on the same game and player the link and the time updated), never for the owner or a
    visitor without an account, who have nothing to keep it in."""
    if not getattr(user, "is_authenticated", False) or game.owner_id == user.pk:
        return
    now = timezone.now()
    seat = GameSeat(game=game, user_id=user.pk, token=token, first_seen=now, last_seen=now,
                    kind=GameSeat.PLAY if plays else GameSeat.VIEW)  # fmt: skip
    GameSeat.objects.bulk_create(
        [seat],
        update_conflicts=True,
        unique_fields=["game", "user"],
        update_fields=["token", "kind", "last_seen"],  # first_seen stays the first
    )


def forget(user: Any, seat: int) -> bool:
    """Take one game out of ``user``'s history: their own seat only, the game untouched."""
    if not getattr(user, "is_authenticated", False):
        return False
    deleted, _ = GameSeat.objects.filter(pk=seat, user_id=user.pk).delete()
    return bool(deleted)


@dataclass(frozen=True)
class SeatGame:
    """A game played (or watched) by a link that still works, as My games shows it."""

    seat: GameSeat
    game: Game
    owner_name: str
    url: str  # the game's page by that link
    pdf_url: str
    phase: str  # in the source's words
    summary: selectors.Summary | None  # None: a game Muster can no longer read


@dataclass(frozen=True)
class LostSeat:
    """A seat whose link the owner renewed or switched off. Kept in the list, not dropped:
    a game gone from a player's history without a word reads as a fault, while a note
    says what happened and that the owner has the new link. It holds only the player's own
    record (whose link, when), nothing of the game, not even its name: the owner ended the
    link, so the game is no longer theirs to see."""

    pk: int
    owner_name: str
    plays: bool
    last_seen: datetime


@dataclass(frozen=True)
class Played:
    games: list[SeatGame]
    lost: list[LostSeat]


def _with_live(user: Any) -> Any:
    live = Case(When(GameSeat.live(), then=Value(True)), default=Value(False),
                output_field=BooleanField())  # fmt: skip
    return GameSeat.objects.filter(user_id=user.pk).annotate(live=live).order_by("-last_seen")


def played_by(user: Any) -> Played:
    """The games ``user`` opened by a link, newest first, with their summaries, in a
    bounded number of queries whatever their number: the live seats with their games and
    owners, their logs, the lost seats, then the lists of each owner and set of pins once
    (as an event's page reads its games)."""
    log = GameAction.objects.order_by("number")
    rows = (
        _with_live(user)
        .filter(live=True)
        .select_related("game", "game__owner")
        .prefetch_related(Prefetch("game__actions", queryset=log))
    )
    lookups: dict[Any, Any] = {}  # shared by every game's sides (selectors.read_side)
    found = []
    for seat in rows:
        game = seat.game
        game.__dict__["_lookups"] = lookups
        try:
            state = selectors.state_of(game, actions=game.actions.all())
            summary = selectors.summary(game, state=state)
            phase = presenters.phase_names(game).get(state.phase, state.phase)
        except (KeyError, rules.MalformedDocument):  # one unreadable game: not the page down
            summary, phase = None, game.phase
        found.append(SeatGame(seat, game, game.owner.get_username(),
                              reverse("games:shared", args=[seat.token]),
                              reverse("games:shared_summary_pdf", args=[seat.token]),
                              phase, summary))  # fmt: skip
    owner_name = f"game__owner__{get_user_model().USERNAME_FIELD}"
    lost = [
        LostSeat(row["pk"], row[owner_name], row["kind"] == GameSeat.PLAY, row["last_seen"])
        for row in _with_live(user).filter(live=False).values("pk", owner_name, "kind", "last_seen")
    ]
    return Played(found, lost)
