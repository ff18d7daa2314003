"""A render's lease: the worker rendering a sheet holds it while it works, and a pending
render no live worker holds has lost its worker (``printing.jobs.is_lost``).

Who holds what is known to the worker's heartbeat (``armybuilder/ops/heartbeat.py``), in
the ops app above printing: ops fills in the holder when its app is ready
(``ops.apps.OpsConfig.ready`` calls :func:`register`), so printing never imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from datetime import datetime

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

LiveRenders = Callable[[datetime], set[str]]
WorkingOn = Callable[[str], AbstractContextManager[None]]

_live_renders: LiveRenders | None = None
_working_on: WorkingOn | None = None


def lease_seconds() -> float:
    """How long a worker's beat holds its render (``MUSTER_RENDER_LEASE_SECONDS``, 15)."""
    return float(getattr(settings, "MUSTER_RENDER_LEASE_SECONDS", 15))


def register(*, live_renders: LiveRenders, working_on: WorkingOn) -> None:
    """The heartbeat's answers: the renders live workers hold at a moment, and holding
    one render's lease while a block runs."""
    global _live_renders, _working_on
    _live_renders, _working_on = live_renders, working_on


def live_renders(now: datetime) -> set[str]:
    """The ids of the renders a live worker holds now."""
    if _live_renders is None:  # without a heartbeat every rendering sheet would look lost
        raise ImproperlyConfigured(
            "No worker heartbeat registered render leases: is armybuilder.ops installed?"
        )
    return _live_renders(now)


def working_on(render_id: str) -> AbstractContextManager[None]:
    """Hold ``render_id``'s lease while the block runs (a no-op with no heartbeat)."""
    return nullcontext() if _working_on is None else _working_on(render_id)
