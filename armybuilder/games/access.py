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

from armybuilder.games import claims, selectors
from armybuilder.games.models import Game


@dataclass(frozen=True)
class Seat:
    """Who is at a game's page: its owner (the URL names the game) or whoever holds one of
    the opponent's links (the URL carries the token, so every form's does too)."""

    game: Game
    token: str = ""
    acts: bool = True  # False: the link to watch, which changes nothing
    held: bool = False  # the link to play, its seat held by another device: read-only
    free: bool = False  # the link to play, its seat held by nobody: read-only until taken

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


def by_link(
    view: Callable[..., HttpResponse], *, taking: bool = False
) -> Callable[..., HttpResponse]:
    """An action through an opponent's link: a link that cannot act (the link to watch, one
    switched off or renewed, one made up) is 404 before anything else, as the docs say, so
    a post to it is never answered with the CSRF check's 403; a link to play is then
    CSRF-checked as every post is. An action posted by a device while nobody holds the
    seat claims it for that device (a post is deliberate; a GET never claims). ``taking``:
    the view that takes the seat, which answers a seat held by another device itself."""
    checked = csrf_protect(view)

    @csrf_exempt
    @wraps(view)
    def through_link(request: HttpRequest, token: str, **named: str) -> HttpResponse:
        if taking:
            seat = seat_of(request, None, token, acting=False)
            if not (seat.acts or seat.held or seat.free):  # the link to watch
                raise Http404("no such game")
            return checked(request, token=token, **named)
        seat = seat_of(request, None, token, acting=True)
        made = claim_if_free(seat, request)
        return claims.remember(checked(request, token=token, **named), game=seat.game, token=made)

    through_link.csrf_checked_inside = True  # type: ignore[attr-defined]  # for the route tests
    return through_link


def seat_of(request: HttpRequest, game: int | None, token: str, *, acting: bool) -> Seat:
    """The owner's seat (``game``), or a link's (``token``); acting on a game through the
    link to watch is 404, as for a link that does not exist."""
    if game is not None:
        return Seat(selectors.game_or_404(request, game))
    found, plays = selectors.game_by_link_or_404(token)
    held = (
        plays
        and bool(found.play_claim)
        and claims.applies(found, request=request)
        and not claims.holds(found, request=request)
    )
    if acting and (held or not plays):  # another device's seat: as the link to watch
        raise Http404("no such game")
    free = not acting and plays and not found.play_claim and claims.applies(found, request=request)
    if free:  # opened, not taken: a link preview's GET must not take the seat
        return Seat(found, token, False, False, True)
    return Seat(found, token, plays and not held, held)


def claim_if_free(seat: Seat, request: HttpRequest) -> str:
    """The link to play's seat claimed for this device when nobody holds it (the token for
    its cookie, else ""); a claim lost to another device at that very moment leaves the
    request read-only, as ``seat_of`` then says."""
    game = seat.game
    if not seat.token or not seat.acts or game.play_claim:
        return ""
    if not claims.applies(game, request=request):
        return ""
    return claims.claim(game, request=request)
