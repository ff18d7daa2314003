"""Housekeeping the worker runs on a schedule (no cron line left to the deployer).

``ensure_scheduled`` queues the first run (``manage.py muster_worker`` calls it when a
worker starts); every run queues the next one ``MUSTER_MAINTENANCE_SECONDS`` later. The
``Scheduled`` row holds the queued task's id, so starting more workers adds no second chain.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.tasks import TaskResultStatus, task
from django.utils import timezone

from armybuilder.armies import services as armies_services
from armybuilder.armies.making.drafts import prune_abandoned
from armybuilder.catalog.list_lifecycle import purge_deleted_lists
from armybuilder.operations import kernel
from armybuilder.ops.models import Scheduled
from armybuilder.taskresults import MISSING_RESULT

logger = logging.getLogger(__name__)
NAME = "maintenance"


def interval() -> timedelta:
    return timedelta(seconds=int(getattr(settings, "MUSTER_MAINTENANCE_SECONDS", 3600)))


def prune_renders(now: datetime | None = None) -> int:
    """Stored PDFs older than ``MUSTER_RENDER_KEEP_DAYS`` (default 30): a later print
    of the same sheet simply renders again."""
    from armybuilder.printing.models import Render

    now = now or timezone.now()
    days = int(getattr(settings, "MUSTER_RENDER_KEEP_DAYS", 30))
    count, _ = Render.objects.filter(created__lt=now - timedelta(days=days)).delete()
    return count


def run_maintenance(now: datetime | None = None) -> str:
    """Every housekeeping job once; a summary line for the task result and the log."""
    done = [
        f"pruned {prune_abandoned(now)} abandoned drafts",
        f"{prune_renders(now)} old stored PDFs",
    ]
    # soft-deleted armies past their 30 days of undo
    done.append(f"purged {armies_services.purge_deleted_armies(now=now)} deleted armies")
    done.append(f"{purge_deleted_lists(now)} deleted army lists")  # likewise, lists
    # armies', lists' and games' alike: the operation kernel's one ledger
    done.append(f"{kernel.prune(now)} old one-time action keys")
    from armybuilder.ops.heartbeat import prune

    done.append(f"{prune(now)} old worker heartbeats")
    from armybuilder.ops import probe

    done.append(f"{probe.prune(now)} old worker test jobs")
    return "; ".join(done)


@task
def maintenance() -> str:
    """The scheduled housekeeping task: run, then queue the next run."""
    summary = run_maintenance()
    logger.info("maintenance: %s", summary)
    Scheduled.objects.filter(name=NAME).update(last_run=timezone.now(), last_result=summary)
    schedule_next(force=True)
    return summary


def _pending(task_id: str) -> bool:
    try:
        result = maintenance.get_result(task_id)
    except (*MISSING_RESULT, NotImplementedError):
        return False
    return result.status in (TaskResultStatus.READY, TaskResultStatus.RUNNING)


def schedule_next(*, force: bool = False, now: datetime | None = None) -> Scheduled:
    """Queue the next run unless one is already queued (``force``: from the running task)."""
    now = now or timezone.now()
    with transaction.atomic():
        row, created = Scheduled.objects.select_for_update().get_or_create(name=NAME)
        if not force and row.task_id and _pending(row.task_id):
            return row
        run_after = now + interval() if (force or not created) else None
        # the first run goes at once; later ones wait a whole interval
        queued = maintenance.using(run_after=run_after) if run_after else maintenance
        result = queued.enqueue()
        row.task_id = str(result.id)[:64]
        row.run_after = run_after
        row.save(update_fields=["task_id", "run_after"])
    return row


def ensure_scheduled() -> Scheduled:
    return schedule_next(force=False)
