"""Who is at a game's page: its owner (the URL names the game) or whoever holds one of the
opponent's links (the URL carries the token), and the side that page plays on two phones.
A link that cannot act (the link to watch, one switched off or renewed, one made up) is
404 before anything else."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt, csrf_protect

from armybuilder.games import selectors
from armybuilder.games.models import Game


@dataclass(frozen=True)
class Seat:
    """Who is at a game's page: its owner (the URL names the game) or whoever holds one of
    the opponent's links (the URL carries the token, so every form's does too)."""

    game: Game
    token: str = ""
    acts: bool = True  # False: the link to watch, which changes nothing

    @property
    def side(self) -> str | None:
        """The side this page plays in a game on two phones: the owner's A, the link to
        play B (``rules.seats``); None in a solo game, where one phone plays both."""
        if not self.game.seated or not self.acts:
            return None
        return "b" if self.token else "a"

    def url(self, name: str, anchor: str = "", *, op: str = "") -> str:
        """The route ``name`` (``act``: the form of the kind of action ``op``) under the
        owner's URL or this seat's link."""
        named = [op] if op else []
        if self.token:
            route = "games:shared" if name == "game" else f"games:shared_{name}"
            found = reverse(route, args=[self.token, *named])
        else:
            found = reverse(f"games:{name}", args=[self.game.pk, *named])
        return found + (f"#{anchor}" if anchor else "")


def by_link(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """An action through an opponent's link: a link that cannot act (the link to watch, one
    switched off or renewed, one made up) is 404 before anything else, as the docs say, so
    a post to it is never answered with the CSRF check's 403; a link to play is then
    CSRF-checked as every post is."""
    checked = csrf_protect(view)

    @csrf_exempt
    @wraps(view)
    def through_link(request: HttpRequest, token: str, **named: str) -> HttpResponse:
        seat_of(request, None, token, acting=True)
        return checked(request, token=token, **named)

    through_link.csrf_checked_inside = True  # type: ignore[attr-defined]  # for the route tests
    return through_link


def seat_of(request: HttpRequest, game: int | None, token: str, *, acting: bool) -> Seat:
    """The owner's seat (``game``), or a link's (``token``); acting on a game through the
    link to watch is 404, as for a link that does not exist."""
    if game is not None:
        return Seat(selectors.game_or_404(request, game))
    found, plays = selectors.game_by_link_or_404(token)
    if acting and not plays:
        raise Http404("no such game")
    return Seat(found, token, plays)
