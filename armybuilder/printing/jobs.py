"""Asking for a PDF: find the stored render of exactly this sheet, or queue one.

The web process only validates the request (a bad document or paper is a 400 at once),
looks up the render by its key (document content, sheet, paper, share link, sections)
and, when there is none yet, queues ``printing.tasks.render_sheet`` on Django's tasks
framework. A ready render is served straight from the database.

A render whose worker died (its lease lapsed: ``printing.leases``), or whose queued task
the queue no longer has, is queued again: by every live worker on each heartbeat
(:func:`requeue_lost`) and whenever a player asks for it again.

A render the queue could not take (Redis away) stays queued, marked ``NOT_QUEUED``: an
outage is never its result, and the next ask (or a worker's heartbeat) queues it again.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any, Unpack

from django.db import IntegrityError
from django.tasks import TaskResultStatus
from django.utils import timezone

from armybuilder.printing import leases, services
from armybuilder.printing.models import Render
from armybuilder.printing.tasks import NOT_QUEUED, render_sheet
from armybuilder.taskresults import MISSING_RESULT

logger = logging.getLogger(__name__)


QUEUE_DOWN = "The print queue is not answering; please try again in a minute."
# what an earlier version stored as a failed render's result when the queue was away
_STORED_QUEUE_DOWN = "The print queue is not answering; please try again."


class QueueUnavailable(services.PrintError):
    status = 503


def army_render(
    raw: Any,
    sheet: str,
    paper: str = "a4",
    *,
    retry: bool = False,
    charge: Callable[[], None] | None = None,
    **options: Unpack[services.SheetOptions],
) -> Render:
    """The render of one sheet of an army document, queued if it is not stored yet
    (``charge``: what a render queued for a request costs, ``throttle.charge``)."""
    key, spec, filename = army_spec(raw, sheet, paper, **options)
    return _render_for(key, spec, filename, retry=retry, charge=charge)


def army_spec(
    raw: Any, sheet: str, paper: str = "a4", **options: Unpack[services.SheetOptions]
) -> tuple[str, dict[str, Any], str]:
    """The render key, the worker's spec and the file name of one sheet of an army
    (``services.PrintError`` or ``rules.MalformedDocument`` when it cannot be printed)."""
    job = services.army_job(raw, sheet=sheet, paper=paper, **options)
    saved = options.get("saved")
    spec = {
        "kind": "army",
        "document": job.document(),
        "sheet": job.sheet,
        "paper": job.paper,
        "share_url": job.share_url,
        "extras": list(job.extras),
        # the worker checks a saved army as the request did (its owner's lists, its pins)
        "saved": None if saved is None else {"owner_id": saved.owner_id},
    }
    return job.key(), spec, services.pdf_filename(job.army.name, sheet=job.sheet, paper=job.paper)


def ruleset_render(
    slug: str,
    paper: str = "a4",
    *,
    options: Mapping[str, Any] | None = None,
    extras: Iterable[str] = (),
    retry: bool = False,
    charge: Callable[[], None] | None = None,
) -> Render:
    """The rule set's own QRS, queued if it is not stored yet (``charge``: as above)."""
    key, spec = services.ruleset_qrs_key(slug, paper=paper, options=options, extras=extras)
    filename = services.pdf_filename(slug, sheet="qrs", paper=spec["paper"])
    return _render_for(key, {"kind": "ruleset", **spec}, filename, retry=retry, charge=charge)


def html_render(
    html: str,
    filename: str,
    *,
    limit: float | None = None,
    retry: bool = False,
    charge: Callable[[], None] | None = None,
) -> Render:
    """A sheet an app above printing drew itself (a game's summary), made into a PDF by
    the worker like every other sheet, queued if it is not stored yet: one render per
    distinct page, so the same page asked again is served from the store. The caller's
    view decides who may fetch it (the render is reached through its URL, never by id).
    ``limit``: the render's time limit in seconds (``pdf.render_pdf``'s default else)."""
    key = "html:" + hashlib.sha256(html.encode()).hexdigest()
    spec = {"kind": "html", "html": html, "limit": limit}
    return _render_for(key, spec, filename, retry=retry, charge=charge)


def is_lost(render: Render, now: datetime | None = None, live: set[str] | None = None) -> bool:
    """A pending render nobody will finish: rendering without a live worker holding its
    lease, or queued (for longer than a lease) with a task the queue has lost or ended."""
    now = now or timezone.now()
    grace = now - timedelta(seconds=leases.lease_seconds())
    if render.status == Render.QUEUED and render.task_id == NOT_QUEUED:
        return True  # the queue never took it
    if render.status == Render.RENDERING:
        if render.started is not None and render.started > grace:
            return False  # just claimed: its worker's first beat may not be written yet
        if live is None:
            live = leases.live_renders(now)
        return str(render.pk) not in live
    if render.status == Render.QUEUED and render.queued < grace:
        # no task id a lease after it was queued: the process queueing it died first
        return not render.task_id or _task_gone(render.task_id)
    return False


def _task_gone(task_id: str) -> bool:
    try:
        result = render_sheet.get_result(task_id)
    except MISSING_RESULT:
        return True  # e.g. Redis lost its data
    except Exception:  # the queue does not answer, or cannot tell: leave it be
        return False
    # RUNNING while the render is still queued: its worker died before marking it
    return result.status != TaskResultStatus.READY


def requeue_lost(now: datetime | None = None) -> int:
    """Queue again every pending render that lost its worker; how many were."""
    now = now or timezone.now()
    live = leases.live_renders(now)
    count = 0
    for render in Render.objects.filter(status__in=(Render.QUEUED, Render.RENDERING)).defer(
        "spec", "pdf"
    ):
        try:
            if is_lost(render, now, live) and _requeue(render, now):
                logger.warning("render %s lost its worker: queued again", render.pk)
                count += 1
        except QueueUnavailable:
            break  # the queue is away: the next beat tries again
    return count


class RenderGone(services.PrintError):
    """The render was deleted while the request that asked for it ran (pruned from the
    store, its army deleted): nothing to grant or show; asked again, it is made anew."""

    status = 503


def _reread(render: Render) -> None:
    """The render as stored now (a task run at once, or another request, moved it on)."""
    try:
        render.refresh_from_db()
    except Render.DoesNotExist:
        raise RenderGone("The print was cleared as it was being made; please try again.") from None


def _requeue(render: Render, now: datetime) -> bool:
    """Back to queued, if nobody else did it first (the update is conditional)."""
    moved = Render.objects.filter(
        pk=render.pk,
        status=render.status,
        queued=render.queued,
        started=render.started,
        task_id=render.task_id,
    ).update(status=Render.QUEUED, error="", queued=now, started=None, finished=None, task_id="")
    if moved:
        _reread(render)
        _enqueue(render)
    return bool(moved)


def _render_for(
    key: str,
    spec: dict[str, Any],
    filename: str,
    *,
    retry: bool,
    charge: Callable[[], None] | None = None,
) -> Render:
    if charge is not None and not Render.objects.filter(key=key).exists():
        # only a render to be made costs the asker: one stored (by Print or ahead of it) is
        # served free, however often it is fetched
        charge()
    now = timezone.now()
    try:
        render, created = Render.objects.get_or_create(
            key=key, defaults={"spec": spec, "filename": filename, "queued": now}
        )
    except IntegrityError:  # two requests raced to create it: the other one won
        render, created = Render.objects.get(key=key), False
    if created:
        return _enqueue(render)
    if render.pending and is_lost(render, now):
        _requeue(render, now)
        _reread(render)
        return render
    if (retry or render.error == _STORED_QUEUE_DOWN) and render.status == Render.FAILED:
        Render.objects.filter(pk=render.pk).update(
            status=Render.QUEUED, error="", queued=now, started=None, finished=None
        )
        _reread(render)
        return _enqueue(render)
    return render


def _enqueue(render: Render) -> Render:
    try:
        result = render_sheet.enqueue(str(render.pk))
    except Exception as exc:
        logger.warning("could not queue render %s: %s: %s", render.pk, type(exc).__name__, exc)
        # still queued, marked as not in the queue: the next ask queues it again
        Render.objects.filter(pk=render.pk, status=Render.QUEUED).update(task_id=NOT_QUEUED)
        raise QueueUnavailable(QUEUE_DOWN) from exc
    Render.objects.filter(pk=render.pk).update(task_id=str(result.id)[:64])
    _reread(render)
    render.queued_now = True  # made (or queued) for this request: not from the store
    return render


def elapsed_seconds(render: Render) -> int:
    """Seconds since this attempt was queued (until it finished)."""
    end = render.finished or timezone.now()
    return max(0, int((end - render.queued).total_seconds()))


def retry(render: Render) -> Render:
    """Queue a failed render once more (the player asked to try again); a pending one
    only when it lost its worker."""
    if render.pending and is_lost(render):
        _requeue(render, timezone.now())
        _reread(render)
        return render
    if render.status != Render.FAILED:
        return render
    Render.objects.filter(pk=render.pk, status=Render.FAILED).update(
        status=Render.QUEUED, error="", queued=timezone.now(), started=None, finished=None
    )
    _reread(render)
    return _enqueue(render)
