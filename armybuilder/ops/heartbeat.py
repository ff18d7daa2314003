"""The worker's heartbeat: a ``WorkerBeat`` row written every few seconds by a thread.

``/healthz/workers`` answers 503 when no worker has beaten for ``MUSTER_WORKER_SILENT_SECONDS``
(30). While a worker renders, its beat names the render (:func:`working_on`): that is the
render's lease. A render whose lease lapsed (``MUSTER_RENDER_LEASE_SECONDS``, 15), or whose
worker's process is gone from this machine, lost its worker and is queued again
(``printing.jobs.requeue_lost``, run by every live worker on each beat).
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from armybuilder.ops.models import WorkerBeat
from armybuilder.printing import leases

logger = logging.getLogger(__name__)
HOST = socket.gethostname()[:100]


def beat_seconds() -> float:
    return float(getattr(settings, "MUSTER_WORKER_BEAT_SECONDS", 5))


def silent_seconds() -> float:
    return float(getattr(settings, "MUSTER_WORKER_SILENT_SECONDS", 30))


def process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def live_beats(now: datetime | None = None) -> list[WorkerBeat]:
    """The workers holding a lease now: beaten within the lease, and (on this machine)
    their process still running, so a worker killed here frees its render at once."""
    now = now or timezone.now()
    fresh = WorkerBeat.objects.filter(seen__gte=now - timedelta(seconds=leases.lease_seconds()))
    return [b for b in fresh if b.host != HOST or process_alive(b.pid)]


def live_renders(now: datetime | None = None) -> set[str]:
    """The ids of the renders the live workers hold now (``printing.leases``)."""
    return {b.render for b in live_beats(now) if b.render}


class Heartbeat:
    """One worker process's beat; ``start`` runs it in a daemon thread."""

    def __init__(self, on_beat: Iterable[Callable[[], object]] = ()) -> None:
        self.worker = f"{HOST}:{os.getpid()}:{secrets.token_hex(4)}"[:100]
        self.started = timezone.now()
        self.render = ""
        self.waiting = ""  # why the worker's loop waits (the queue or database is away)
        self.on_beat = list(on_beat)
        self._failing: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def beat(self) -> None:
        """Write this worker's row now (the thread calls it; so does ``working_on``)."""
        now = timezone.now()
        updated = WorkerBeat.objects.filter(worker=self.worker).update(
            seen=now, render=self.render, waiting=self.waiting[:200]
        )
        if not updated:
            WorkerBeat.objects.create(
                worker=self.worker,
                host=HOST,
                pid=os.getpid(),
                started=self.started,
                seen=now,
                render=self.render,
                waiting=self.waiting[:200],
            )

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                close_old_connections()
                self.beat()
                for hook in self.on_beat:
                    hook()
            except Exception as exc:  # an outage: the worker's own loop backs off; keep beating
                if self._failing is None:  # one line per outage, not one per beat
                    logger.warning("worker heartbeat failed: %s: %s", type(exc).__name__, exc)
                self._failing = type(exc).__name__
                connection.close()
            else:
                if self._failing is not None:
                    logger.warning("worker heartbeat written again")
                self._failing = None
            self._stop.wait(beat_seconds())
        connection.close()

    def start(self) -> Heartbeat:
        global _current
        _current = self
        self._thread = threading.Thread(target=self._run, name="muster-heartbeat", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        global _current
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        if _current is self:
            _current = None


_current: Heartbeat | None = None  # this process's heartbeat, when it is a worker


@contextmanager
def working_on(render_id: str) -> Iterator[None]:
    """Hold ``render_id``'s lease while the block runs (in a worker; a no-op elsewhere)."""
    beat = _current
    if beat is None:
        yield
        return
    beat.render = render_id
    _beat_quietly(beat)
    try:
        yield
    finally:
        beat.render = ""
        _beat_quietly(beat)


def _beat_quietly(beat: Heartbeat) -> None:
    try:
        beat.beat()
    except Exception:
        logger.warning("worker heartbeat failed", exc_info=True)


def prune(now: datetime | None = None) -> int:
    """Beats of workers gone for a day: the table keeps only recent history."""
    now = now or timezone.now()
    count, _ = WorkerBeat.objects.filter(seen__lt=now - timedelta(days=1)).delete()
    return count
