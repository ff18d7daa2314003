"""The link to play held by the device that first takes its seat.

On two phones the first device to take side B's seat on the link to play claims it (its
page's button, a POST, or the first action it posts; opening the link, a GET, never does,
as a chat app's link preview opens it before the opponent does): a signed,
HttpOnly cookie scoped to the link's path carries an unguessable token (``secrets``), of
which the game keeps only the SHA-256, and the account signed in then, if any, so any
device of that account plays too. Anyone else opening the link sees the game as the link
to watch shows it. The owner releases the seat (or renews or switches off the link), and
the next device to take it claims it; nothing of the game is lost. A solo game, and
the owner's own page, hold no claim.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone

from armybuilder.games.models import Game

COOKIE = "muster_seat"
# a claim's cookie lasts as long as a long game may (a weekend), and is signed per game
MAX_AGE = 60 * 60 * 24 * 14
CLAIMED = "muster_claimed"  # the request attribute of a claim made while answering it
HELD = "This seat is held by another phone. Ask the game's owner to release it."


def _salt(game: Game) -> str:
    return f"games.claims.{game.pk}"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def applies(game: Game, *, request: HttpRequest) -> bool:
    """Whether the link to play is held by one device: on two phones only, and never for
    the owner, who plays from their own page and may open the link to check it."""
    user = getattr(request, "user", None)
    owner = bool(getattr(user, "is_authenticated", False)) and user.pk == game.owner_id
    return game.seated and not owner


def _cookie_token(game: Game, *, request: HttpRequest) -> str:
    """The claim token this device's cookie carries, or "" (none, forged or garbled)."""
    try:
        value = request.get_signed_cookie(COOKIE, default="", salt=_salt(game), max_age=MAX_AGE)
    except (ValueError, TypeError):  # anything unreadable is no claim, never an error
        return ""
    return value if isinstance(value, str) and 0 < len(value) <= 100 else ""


def holds(game: Game, *, request: HttpRequest) -> bool:
    """Whether this request's device (or account) holds the link to play's seat."""
    if not game.play_claim:
        return False
    user = getattr(request, "user", None)
    signed_in = bool(getattr(user, "is_authenticated", False))
    if game.play_claim_user_id and signed_in and user.pk == game.play_claim_user_id:
        return True
    token = getattr(request, CLAIMED, "") or _cookie_token(game, request=request)
    return bool(token) and secrets.compare_digest(_digest(token), game.play_claim)


def claim(game: Game, *, request: HttpRequest) -> str:
    """Claim the link to play's seat for this device if nobody holds it: answers the new
    token for the device's cookie, or "" when another device claimed it first (one
    conditional update, so two first openers at once never both hold it)."""
    token = secrets.token_urlsafe(32)
    user = getattr(request, "user", None)
    now = timezone.now()
    claimed = Game.objects.filter(pk=game.pk, play_token=game.play_token, play_claim="").update(
        play_claim=_digest(token),
        play_claim_user=user if getattr(user, "is_authenticated", False) else None,
        play_claimed_at=now,
    )
    game.refresh_from_db(fields=["play_claim", "play_claim_user", "play_claimed_at"])
    if not claimed:
        return ""
    setattr(request, CLAIMED, token)  # this very request holds it, before its cookie is set
    return token


def remember(response: HttpResponse, *, game: Game, token: str) -> HttpResponse:
    """The claim's cookie set on the answer: signed, HttpOnly, SameSite=Lax, Secure where
    the session's cookie is, and sent back only to this link's pages."""
    if token and game.play_token:
        response.set_signed_cookie(
            COOKIE,
            token,
            salt=_salt(game),
            max_age=MAX_AGE,
            path=reverse("games:shared", args=[game.play_token]),
            httponly=True,
            secure=settings.SESSION_COOKIE_SECURE,
            samesite="Lax",
        )
    return response


def release(game: Game) -> None:
    """Nobody holds the link to play's seat: the next device to take it claims it. The
    game, its log and the seat's actions stay as they are."""
    game.play_claim, game.play_claim_user, game.play_claimed_at = "", None, None
    game.save(update_fields=["play_claim", "play_claim_user", "play_claimed_at"])


@dataclass(frozen=True)
class Holder:
    """Who holds the link to play's seat, as the owner's links panel says it."""

    since: datetime
    username: str  # "" for a device without an account


def holder(game: Game) -> Holder | None:
    if not game.play_claim or game.play_claimed_at is None:
        return None
    user: Any = game.play_claim_user
    return Holder(since=game.play_claimed_at, username=user.get_username() if user else "")
