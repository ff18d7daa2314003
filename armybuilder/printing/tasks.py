"""The worker's side of printing: make one stored render's PDF under the time limit.

Runs in the task worker (``manage.py muster_worker``), never in a web process. The time
limit is enforced by ``pdf.render_pdf`` (a forked child of the worker, killed when
late), so a pathological sheet ends as a failed render with a message while the worker
goes on with the next task. While it renders, the worker's heartbeat holds the render's
lease (``printing.leases``); the render child dies with the worker.

A job begins and ends on fresh, checked database connections (a connection the database
dropped while the worker waited, e.g. a PostgreSQL restart, is replaced, never used), and
claiming or storing a render is tried again a few times when the database is away for a
moment. A render cut short by an outage of the database or of Redis, also one that reaches
the worker wrapped in another error (``armybuilder.outage.is_outage`` follows the causes),
goes back to the queue (``jobs.NOT_QUEUED``), for a worker's next heartbeat or the next ask
to queue again: an outage is never stored as the render's result, only the render's own
failure is.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.db import InterfaceError, OperationalError, close_old_connections, connection
from django.tasks import task
from django.utils import timezone

from armybuilder.outage import is_outage
from armybuilder.printing import jobstate, leases, services
from armybuilder.printing.models import Render
from armybuilder.printing.pdf import render_pdf

logger = logging.getLogger(__name__)
# The database is away for now (a restart, a dropped connection): not the render's fault.
DATABASE_OUTAGES = (OperationalError, InterfaceError)
ATTEMPTS = 4  # about 6 s of waiting (0.5, 1.5, 4): a restart's usual gap
NOT_QUEUED = "-"  # printing.jobs: a render the queue does not hold; the next ask queues it


class Interrupted(Exception):
    """The making of a render stopped because a service it uses went away (the outage is
    the cause): not the render's failure."""


def fresh_connections() -> None:
    """Drop a connection the database closed, or one past its age, before and after a job
    (what Django does around a request). Inside a transaction (a test's) it is left be."""
    if not connection.in_atomic_block:
        close_old_connections()


def with_retries[T](step: Callable[[], T]) -> T:
    """``step`` once more on a new connection while the database does not answer."""
    for attempt in range(ATTEMPTS):
        try:
            return step()
        except DATABASE_OUTAGES:
            if attempt == ATTEMPTS - 1 or connection.in_atomic_block:
                raise
            connection.close()  # the next query opens a new one
            time.sleep(0.5 * 3**attempt)
    raise AssertionError("unreachable")


def make_pdf(spec: dict[str, Any]) -> bytes:
    """The PDF a render's spec describes (see ``printing.jobs``)."""
    if spec["kind"] == "html":  # a page drawn by the app that asked (jobs.html_render)
        return render_pdf(spec["html"], limit=spec.get("limit"))
    if spec["kind"] == "army":
        return services.army_sheet_pdf(
            spec["document"],
            sheet=spec["sheet"],
            paper=spec["paper"],
            share_url=spec.get("share_url"),
            extras=spec.get("extras", ()),
            saved=services.SavedArmy(**spec["saved"]) if spec.get("saved") else None,
        ).pdf
    return services.ruleset_qrs_pdf(
        spec["ruleset"],
        paper=spec["paper"],
        options=spec.get("options") or {},
        extras=spec.get("extras", ()),
    ).pdf


@task
def render_sheet(render_id: str) -> str:
    """Render a queued sheet: queued -> rendering -> ready, or failed with the reason."""
    fresh_connections()
    try:
        return render_claimed(render_id)
    finally:
        fresh_connections()


def render_claimed(render_id: str) -> str:
    """Claim a queued render and make its PDF here, in this worker (see ``render_sheet``)."""
    row = Render.objects.filter(pk=render_id)
    if not with_retries(lambda: jobstate.claim(row, started=timezone.now())):
        return "skipped"  # already rendered by an earlier attempt, or removed
    render = with_retries(lambda: Render.objects.get(pk=render_id))

    def make() -> dict[str, Any]:
        with leases.working_on(render_id):  # the lease: a dead worker's render is re-queued
            try:
                return {"pdf": make_pdf(render.spec), "error": ""}
            except DATABASE_OUTAGES:
                raise
            except Exception as exc:
                if is_outage(exc):
                    raise Interrupted(f"{type(exc).__name__}: {exc}") from exc
                raise

    try:
        return jobstate.finish(
            row,
            make,
            what=f"render {render_id}",
            unexpected="The PDF renderer stopped unexpectedly; please try again.",
            not_failures=(*DATABASE_OUTAGES, Interrupted),
            store=with_retries,
        )
    except (*DATABASE_OUTAGES, Interrupted) as exc:
        logger.warning("render %s interrupted by an outage: %s", render_id, exc)
        _put_back(render_id)
        return "interrupted"


def _put_back(render_id: str) -> None:
    """Back to queued, for the next ask or a worker's heartbeat to queue again; when the
    database is still away, the render's lease lapses and a worker queues it instead."""
    try:
        with_retries(
            lambda: Render.objects.filter(pk=render_id, status=Render.RENDERING).update(
                status=Render.QUEUED, task_id=NOT_QUEUED, queued=timezone.now(), started=None
            )
        )
    except DATABASE_OUTAGES:
        logger.warning("render %s stays with its lease: the database is still away", render_id)
