"""Visitors' drafts: a per-session cap with no race, a global cap, and pruning.

A visitor without an account may keep ``MUSTER_MAX_DRAFTS`` drafts per session, and all
visitors together ``MUSTER_MAX_VISITOR_DRAFTS`` (dropping the session cookie starts a new
session, so the per-session cap alone does not bound storage). The count and the insert
run in one transaction that first takes a lock: an UPDATE of the single ``DraftGate`` row.
On PostgreSQL that is a row lock held to the commit; on SQLite any write takes the
database's write lock. Either way a second creator waits, then counts the first one's
draft: 40 parallel imports from one session leave exactly the cap, never more. Restoring
a deleted draft takes the same lock and counts the same way, so deleting and restoring
never beats the cap either.

Abandoned drafts (their session expired, untouched for a session's lifetime) are pruned by
``manage.py prune_drafts`` (run it daily from cron), and also here, every
``MUSTER_DRAFT_PRUNE_EVERY`` drafts and whenever the global cap is reached.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import F
from django.http import HttpRequest
from django.utils import timezone

from armybuilder.armies.documents import DraftLimitReached
from armybuilder.armies.models import Army, DraftGate
from armybuilder.armies.selectors import DRAFT_SESSION_KEY


def max_drafts() -> int:
    """How many drafts one visitor's session may keep before signing up."""
    return int(getattr(settings, "MUSTER_MAX_DRAFTS", 25))


def max_visitor_drafts() -> int:
    """How many drafts all visitors together may keep."""
    return int(getattr(settings, "MUSTER_MAX_VISITOR_DRAFTS", 5000))


def prune_every() -> int:
    return int(getattr(settings, "MUSTER_DRAFT_PRUNE_EVERY", 500))


def abandoned_drafts(now: datetime | None = None) -> Any:
    """Drafts nobody can reach: their session expired and a session's lifetime passed."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.SESSION_COOKIE_AGE)
    live = Session.objects.filter(expire_date__gt=now).values("session_key")
    return Army.objects.filter(owner__isnull=True, updated__lt=cutoff).exclude(session_key__in=live)


def prune_abandoned(now: datetime | None = None) -> int:
    count, _ = abandoned_drafts(now).delete()
    return count


def _lock() -> int:
    """Take the draft lock for this transaction; how many drafts were ever issued."""
    if not DraftGate.objects.filter(pk=1).update(issued=F("issued") + 1):
        DraftGate.objects.get_or_create(pk=1)
        DraftGate.objects.filter(pk=1).update(issued=F("issued") + 1)
    return DraftGate.objects.values_list("issued", flat=True).get(pk=1)


def _refuse_over_session_cap(session_key: str) -> None:
    mine = Army.objects.filter(
        owner__isnull=True, session_key=session_key, deleted_at=None
    ).count()  # an army deleted (undoably) no longer counts against its visitor
    if mine >= max_drafts():
        raise DraftLimitReached(
            f"You already have {max_drafts()} drafts. Sign up (it is free) to keep more "
            "armies, or delete a draft you no longer need."
        )


def create_draft(session_key: str, document: dict[str, Any], list_pins: dict[str, int]) -> Army:
    """A visitor's new draft, or DraftLimitReached when a cap is reached (nothing saved)."""
    with transaction.atomic():
        issued = _lock()
        if issued % prune_every() == 0:
            prune_abandoned()
        _refuse_over_session_cap(session_key)
        drafts = Army.objects.filter(owner__isnull=True)  # deleted ones too: they take room
        if drafts.count() >= max_visitor_drafts() and (
            not prune_abandoned() or drafts.count() >= max_visitor_drafts()
        ):
            raise DraftLimitReached(
                "Muster is holding as many visitors' drafts as it can right now. Sign up "
                "(it is free) to save armies in an account, or try again later."
            )
        return Army.objects.create(
            owner=None, session_key=session_key, document=document, list_pins=list_pins
        )


def restore_draft(army: Army) -> None:
    """Bring back a visitor's deleted draft, or DraftLimitReached when the session already
    keeps as many live drafts as it may (the draft stays deleted, still restorable)."""
    with transaction.atomic():
        _lock()
        _refuse_over_session_cap(army.session_key)
        Army.objects.filter(pk=army.pk).update(deleted_at=None)


def draft_key(request: HttpRequest) -> str:
    """This visitor's draft key, creating the session (and remembering the key) if needed.

    The key is kept inside the session's data as well, so it survives the session key
    being cycled at log-in, which is when the drafts are claimed.
    """
    session = request.session
    key = session.get(DRAFT_SESSION_KEY)
    if key:
        return str(key)
    if not session.session_key:
        session.save()
    key = session.session_key
    session[DRAFT_SESSION_KEY] = key
    return str(key)


def owner_kwargs(request: HttpRequest) -> dict[str, Any]:
    """Who a new army belongs to: the user, or this visitor's session."""
    if request.user.is_authenticated:
        return {"owner": request.user}
    return {"session_key": draft_key(request)}


@transaction.atomic
def claim_drafts(user: AbstractBaseUser, draft_keys: list[str]) -> int:
    """Give a visitor's drafts to the account they signed up or logged in with."""
    keys = [k for k in draft_keys if k]
    drafts = Army.objects.filter(owner__isnull=True, session_key__in=keys)
    return drafts.update(owner=user, session_key="", updated=timezone.now()) if keys else 0


def claim_on_login(request: HttpRequest, user: AbstractBaseUser) -> None:
    """After a visitor signs in or up (``accounts.views.SIGNED_IN``): the drafts of their
    session move into the account. The draft key lives in the session's data, which
    survives the session key being cycled by ``login()``."""
    if not hasattr(request, "session"):
        return
    key = request.session.pop(DRAFT_SESSION_KEY, None)
    if not key:
        return
    claimed = claim_drafts(user, [str(key)])
    if claimed:
        what = "1 army" if claimed == 1 else f"{claimed} armies"
        verb = "is" if claimed == 1 else "are"
        messages.info(
            request,
            f"{what} you built before logging in {verb} now in your account.",
            fail_silently=True,  # a request without the messages middleware
        )
