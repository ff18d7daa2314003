"""The worker's side of printing: make one stored render's PDF under the time limit.

Runs in the task worker (``manage.py muster_worker``), never in a web process. The time
limit is enforced by ``pdf.render_pdf`` (a forked child of the worker, killed when
late), so a pathological sheet ends as a failed render with a message while the worker
goes on with the next task. While it renders, the worker's heartbeat holds the render's
lease (``printing.leases``); the render child dies with the worker.
"""

from __future__ import annotations

import logging
from typing import Any

from django.tasks import task
from django.utils import timezone

import rules
from armybuilder.printing import leases, services
from armybuilder.printing.models import Render

logger = logging.getLogger(__name__)


def make_pdf(spec: dict[str, Any]) -> bytes:
    """The PDF a render's spec describes (see ``printing.jobs``)."""
    if spec["kind"] == "army":
        return services.army_sheet_pdf(
            spec["document"],
            spec["sheet"],
            spec["paper"],
            share_url=spec.get("share_url"),
            extras=spec.get("extras", ()),
            saved=services.SavedArmy(**spec["saved"]) if spec.get("saved") else None,
        ).pdf
    return services.ruleset_qrs_pdf(
        spec["ruleset"],
        spec["paper"],
        options=spec.get("options") or {},
        extras=spec.get("extras", ()),
    ).pdf


@task
def render_sheet(render_id: str) -> str:
    """Render a queued sheet: queued -> rendering -> ready, or failed with the reason."""
    return render_claimed(render_id)


def render_claimed(render_id: str) -> str:
    """Claim a queued render and make its PDF here, in this worker (see ``render_sheet``)."""
    claimed = Render.objects.filter(pk=render_id, status=Render.QUEUED).update(
        status=Render.RENDERING, started=timezone.now()
    )
    if not claimed:  # already rendered by an earlier attempt, or removed
        return "skipped"
    render = Render.objects.get(pk=render_id)
    try:
        with leases.working_on(render_id):  # the lease: a dead worker's render is re-queued
            pdf = make_pdf(render.spec)
    except (services.PrintError, rules.MalformedDocument) as exc:
        Render.objects.filter(pk=render_id).update(
            status=Render.FAILED, error=exc.message, finished=timezone.now()
        )
        return "failed"
    except Exception:
        logger.exception("render %s failed", render_id)
        Render.objects.filter(pk=render_id).update(
            status=Render.FAILED,
            error="The PDF renderer stopped unexpectedly; please try again.",
            finished=timezone.now(),
        )
        return "failed"
    Render.objects.filter(pk=render_id).update(
        status=Render.READY, pdf=pdf, error="", finished=timezone.now()
    )
    return "ready"
