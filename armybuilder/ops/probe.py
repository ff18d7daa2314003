"""The workers' test job: proof that the queue's workers can run jobs, not only that they live.

A worker's heartbeat proves its process runs; it does not prove that the worker can run what
the queue holds (a worker started with the wrong job class takes every job and fails it).
So on its beats a worker sends :func:`probe` through the queue, ahead of the renders (at the
highest priority on the database queue; on RQ, which has no priorities, in the ``probe``
queue the worker takes from first), about every
``MUSTER_WORKER_SILENT_SECONDS / 3`` seconds (one worker sends it for all: the ``Scheduled``
row named ``probe`` holds when it was sent, ``run_after``, and when one last ran,
``last_run``). ``/healthz/workers`` calls the queue unhealthy when workers have been beating for
longer than :func:`allowance` and no probe has run within it (:func:`failing_for`).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Min
from django.tasks import task, task_backends
from django.tasks.base import TASK_MAX_PRIORITY
from django.utils import timezone

from armybuilder.ops.heartbeat import silent_seconds
from armybuilder.ops.models import Scheduled, WorkerBeat

logger = logging.getLogger(__name__)
NAME = "probe"
QUEUE = "probe"  # RQ's queue of probes, listed first to the worker (muster_worker)


def interval() -> float:
    """Seconds between two probes once the last one ran."""
    return max(1.0, silent_seconds() / 3)


def allowance() -> float:
    """How long a probe may take to run: sent ahead of the renders, it waits at most for
    the render a worker is making (bounded by ``MUSTER_PDF_TIME_LIMIT``)."""
    return silent_seconds() + float(getattr(settings, "MUSTER_PDF_TIME_LIMIT", 60))


@task
def probe() -> str:
    """Run by a worker: the queue delivered a job and the worker ran it."""
    Scheduled.objects.filter(name=NAME).update(last_run=timezone.now(), last_result="ran")
    return "ran"


def send_if_due(now: datetime | None = None) -> bool:
    """Send a probe when the last one ran ``interval`` ago, or has been waiting for
    ``MUSTER_WORKER_SILENT_SECONDS`` (lost with Redis's data, behind a long render, or the
    workers cannot run it: well before ``/healthz/workers`` would give up on it, so a lost probe
    never makes the queue look broken); whether this call sent one."""
    now = now or timezone.now()
    row, _ = Scheduled.objects.get_or_create(name=NAME)
    sent = row.run_after
    if sent is not None:
        answered = row.last_run is not None and row.last_run >= sent
        waited = (now - sent).total_seconds()
        if waited < (interval() if answered else silent_seconds()):
            return False
    # conditional: when several workers beat at once, one of them sends it
    if not Scheduled.objects.filter(pk=row.pk, run_after=sent).update(run_after=now):
        return False
    backend = task_backends[probe.backend]
    if backend.supports_priority:
        queued = probe.using(priority=TASK_MAX_PRIORITY)
    elif QUEUE in backend.queues:
        queued = probe.using(queue_name=QUEUE)
    else:
        queued = probe
    result = queued.enqueue()
    Scheduled.objects.filter(pk=row.pk).update(task_id=str(result.id)[:64])
    return True


def failing_for(now: datetime | None = None) -> float | None:
    """Seconds since a probe last ran, when that is longer than ``allowance`` while workers
    have been beating all that time (the workers take no job); None when they run jobs."""
    now = now or timezone.now()
    limit = allowance()
    fresh = WorkerBeat.objects.filter(seen__gte=now - timedelta(seconds=silent_seconds()))
    first_started = fresh.aggregate(first=Min("started"))["first"]
    if first_started is None or (now - first_started).total_seconds() <= limit:
        return None  # no worker, or workers too new to tell
    last_run = Scheduled.objects.filter(name=NAME).values_list("last_run", flat=True).first()
    since = (now - (last_run or first_started)).total_seconds()
    return since if since > limit else None


NONE_PRUNED = 0


def prune(now: datetime | None = None) -> int:
    """Stored results of probes that ran (the database queue keeps every task's row)."""
    if settings.MUSTER_TASK_BACKEND != "database":
        return NONE_PRUNED  # RQ keeps no row per finished job to prune
    from django_tasks_db.models import DBTaskResult

    now = now or timezone.now()
    count, _ = DBTaskResult.objects.filter(
        task_path=probe.module_path, finished_at__lt=now - timedelta(hours=1)
    ).delete()
    return count
