"""Claiming a visitor's drafts when they sign up or log in."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest

from armybuilder.armies import drafts
from armybuilder.armies.selectors import DRAFT_SESSION_KEY


def claim_on_login(
    sender: Any, request: HttpRequest | None, user: AbstractBaseUser, **kwargs: Any
) -> None:
    """``user_logged_in`` receiver: the draft key lives in the session's data, which
    survives the session key being cycled by ``login()``."""
    if request is None or not hasattr(request, "session"):
        return
    key = request.session.pop(DRAFT_SESSION_KEY, None)
    if not key:
        return
    claimed = drafts.claim_drafts(user, [str(key)])
    if claimed:
        what = "1 army" if claimed == 1 else f"{claimed} armies"
        verb = "is" if claimed == 1 else "are"
        messages.info(
            request,
            f"{what} you built before logging in {verb} now in your account.",
            fail_silently=True,  # a login without the messages middleware (e.g. scripts)
        )
