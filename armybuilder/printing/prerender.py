"""Printing ahead: a saved army's roster and QRS are rendered a few seconds after its edits
stop, so Print is instant for an army that has been still.

Every saved version of an army (a new army, or a revision recorded) queues
:func:`prerender_army` for that version once the transaction commits, deferred by
``MUSTER_PRERENDER_DELAY`` seconds and at the lowest priority where the backend has
priorities, so a player's own Print always goes first. The task is the debounce: when it
runs, an army edited since (a newer version) is left alone, as the newer version's task
will render it. One task renders both sheets, one after the other: at most one prerender
per army is in flight.

The sheets are those the print panel asks for by default (A4, no extras), with the share
link the roster prints taken from the site the change came through
(:class:`OriginMiddleware`). A backend that cannot defer (the immediate backend most
tests run with) prerenders nothing: it would render inside the request that saved.
"""

from __future__ import annotations

import contextvars
import logging
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.tasks import task, task_backends
from django.tasks.base import TASK_MIN_PRIORITY
from django.urls import reverse
from django.utils import timezone

import rules
from armybuilder.armies.making.files import exported
from armybuilder.armies.models import Army
from armybuilder.printing import jobs, services
from armybuilder.printing.models import Render
from armybuilder.printing.tasks import render_claimed

logger = logging.getLogger(__name__)

SHEETS = ("roster", "qrs")  # the roster first: what Print offers first
PAPER = "a4"
_origin: contextvars.ContextVar[str] = contextvars.ContextVar("muster_origin", default="")


class OriginMiddleware:
    """Remembers, for the length of a request, the site it came through (``https://host``):
    the origin of the share link a prerendered roster prints."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            origin = f"{request.scheme}://{request.get_host()}"
        except Exception:  # a host ALLOWED_HOSTS refuses: the request fails on its own
            origin = ""
        token = _origin.set(origin)
        try:
            return self.get_response(request)
        finally:
            _origin.reset(token)


def schedule(army_id: int, version: int) -> None:
    """Queue the prerender of this version once the current transaction commits."""
    delay = float(getattr(settings, "MUSTER_PRERENDER_DELAY", 3.0))
    if delay < 0:
        return  # switched off
    origin = _origin.get()
    transaction.on_commit(lambda: _enqueue(army_id, version, origin, delay))


# army pk -> (when the prerender this process queued for it comes due, its version, its
# origin)
_queued: dict[int, tuple[float, int, str]] = {}
_queued_lock = threading.Lock()
MARGIN = 0.5  # seconds: a task due sooner than this may be running already


def _enqueue(army_id: int, version: int, origin: str, delay: float) -> None:
    backend = task_backends[prerender_army.backend]
    if not backend.supports_defer:
        return
    now = time.monotonic()
    with _queued_lock:
        due, queued, queued_origin = _queued.get(army_id, (0.0, 0, ""))
        if due > now + MARGIN and queued < version and queued_origin == origin:
            return  # that task follows the army to this version (see the module)
        for pk in [pk for pk, (when, _, _) in _queued.items() if when <= now]:
            del _queued[pk]
        _queued[army_id] = (now + delay, version, origin)
    _queue(army_id, version, origin, timezone.now() + timedelta(seconds=delay))


def _queue(army_id: int, version: int, origin: str, run_after: Any) -> None:
    backend = task_backends[prerender_army.backend]
    if not backend.supports_defer:
        return
    options: dict[str, Any] = {"run_after": run_after}
    if backend.supports_priority:
        options["priority"] = TASK_MIN_PRIORITY
    try:
        prerender_army.using(**options).enqueue(army_id, version, origin)
    except Exception:  # the queue is away: Print still renders on demand
        logger.warning("could not queue the prerender of army %s", army_id, exc_info=True)


@task
def prerender_army(army_id: int, version: int, origin: str = "") -> str:
    """Render this version's roster and QRS; an army edited since is followed to its
    newest version (see the module)."""
    done = []
    for sheet in SHEETS:
        army = Army.objects.filter(pk=army_id, deleted_at__isnull=True, owner__isnull=False).first()
        if army is None:  # deleted, a draft
            return "gone"
        if army.version != version:  # edited since (perhaps between the two sheets)
            still = timezone.now() - army.updated
            delay = timedelta(seconds=float(getattr(settings, "MUSTER_PRERENDER_DELAY", 3.0)))
            if still < delay:
                _queue(army_id, army.version, origin, army.updated + delay)
                return f"moved on: queued for version {army.version}"
            version = army.version
        if army.share_token and not origin:
            return "no origin"  # the roster prints the share link: not known here
        share_url = (
            origin + reverse("armies:shared", args=[army.share_token]) if army.share_token else None
        )
        try:
            key, spec, filename = jobs.army_spec(
                exported(army),
                sheet,
                PAPER,
                share_url=share_url,
                saved=services.SavedArmy(army.owner_id),
            )
        except (services.PrintError, rules.MalformedDocument):
            return "unprintable"
        try:
            render, created = Render.objects.get_or_create(
                key=key, defaults={"spec": spec, "filename": filename, "queued": timezone.now()}
            )
        except IntegrityError:  # a player's Print made it a moment ago: theirs renders it
            continue
        if created:
            done.append(f"{sheet} {render_claimed(str(render.pk))}")
    return ", ".join(done) or "already rendered"
