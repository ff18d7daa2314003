"""``python manage.py muster_worker``: the background worker for the configured task backend.

Queues the scheduled housekeeping if it is not queued yet, then runs the worker of
``MUSTER_TASK_BACKEND``: django-tasks-db's ``db_worker`` (database) or django-rq's
``rqworker --with-scheduler`` with RQ's non-forking worker (rq), so a render runs in this
process, under its heartbeat. On RQ the worker uses django-tasks-rq's job class, which
runs a Django task (RQ's own calls the job's function, and a ``Task`` is not callable:
every job would fail), and takes the workers' test jobs (``ops.probe``) first. One worker
renders one PDF at a time, so the number of workers caps concurrent renders; the web
server never waits on them.

The worker runs at a lower CPU priority (``MUSTER_WORKER_NICE``, 10) so pages come first,
beats a heartbeat (``ops.heartbeat``) that also re-queues renders whose worker died and
sends the test job that tells ``/healthz`` the workers can run jobs (``ops.probe``), and
rides out a database or Redis outage: it waits (1, 2, 4 ... 30 s) and starts again instead
of exiting.
"""

from __future__ import annotations

import logging
import signal
import time
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import DatabaseError, InterfaceError, OperationalError, connections

from armybuilder.ops import heartbeat, probe
from armybuilder.ops.maintenance import ensure_scheduled
from armybuilder.printing import jobs
from armybuilder.printing.lifetime import lower_priority

logger = logging.getLogger("armybuilder.worker")
MAX_BACKOFF = 30.0
BATCH_ATTEMPTS = 5  # e.g. SQLite busy for a moment while the web processes write
# RQ's worker without a fork per job (renders run under the heartbeat), stopped in a second
RQ_WORKER_CLASS = "armybuilder.ops.rqworker.Worker"
# runs Django tasks (RQ's own Job cannot), each on fresh database connections
RQ_JOB_CLASS = "armybuilder.ops.rqjob.Job"
RQ_QUEUES = (probe.QUEUE, "default")  # in the order the worker takes from them


def outages() -> tuple[type[BaseException], ...]:
    """Errors that mean the database or Redis is away for now, not a bug."""
    found: list[type[BaseException]] = [OperationalError, InterfaceError, DatabaseError]
    found.append(OSError)  # ConnectionRefusedError and friends
    try:
        import redis.exceptions
    except ImportError:
        pass
    else:
        found.append(redis.exceptions.RedisError)
    return tuple(found)


class Command(BaseCommand):
    help = "Run the background worker (PDF renders, scheduled housekeeping)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--batch", action="store_true", help="Work until the queue is empty, then stop."
        )

    def handle(self, *args: Any, batch: bool = False, **options: Any) -> None:
        nice = lower_priority(int(getattr(settings, "MUSTER_WORKER_NICE", 10)))
        logger.info("worker starting at CPU niceness %d", nice)
        beat = heartbeat.Heartbeat(on_beat=[jobs.requeue_lost, probe.send_if_due]).start()
        try:
            self.beat = beat
            self.work(batch)
        finally:
            beat.stop()

    beat: heartbeat.Heartbeat | None = None

    def work(self, batch: bool) -> None:
        beat = self.beat
        delay = 1.0
        failures = 0
        while True:
            began = time.monotonic()
            try:
                ensure_scheduled()
                jobs.requeue_lost()  # renders left behind by a worker that died
                if beat is not None:
                    beat.waiting = ""
                self.run_backend(batch)
                return  # the backend stopped by itself: SIGTERM, or --batch is done
            except outages() as exc:
                failures += 1
                if batch and failures >= BATCH_ATTEMPTS:
                    raise  # a one-off run gives up; the long-running worker never does
                if time.monotonic() - began > 2 * MAX_BACKOFF:
                    delay = 1.0  # it ran well for a while: this is a new outage
                why = f"{type(exc).__name__}: {exc}"[:150]
                logger.warning("worker: %s; starting again in %g s", why, delay)
                if beat is not None:  # /healthz/workers says why it waits
                    beat.waiting = f"{why}; trying again in {delay:g} s"
                connections.close_all()
                # the backend's own handlers would swallow a stop request while we wait
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                signal.signal(signal.SIGINT, signal.default_int_handler)
                time.sleep(delay)
                delay = min(delay * 2, MAX_BACKOFF)

    def run_backend(self, batch: bool) -> None:
        if settings.MUSTER_TASK_BACKEND == "rq":
            extra = ["--burst"] if batch else []
            try:
                call_command(
                    "rqworker",
                    *RQ_QUEUES,
                    "--with-scheduler",
                    "--worker-class",
                    RQ_WORKER_CLASS,
                    "--job-class",
                    RQ_JOB_CLASS,
                    *extra,
                )
            except SystemExit as exc:  # django-rq exits 1 when Redis does not answer
                if exc.code:
                    raise ConnectionError(f"the RQ worker stopped ({exc.code})") from exc
                raise
        else:
            extra = ["--batch"] if batch else []
            call_command("db_worker", "--queue-name", "default", "--interval", "0.5", *extra)
