"""A worker's job row through its states: claimed (queued -> rendering), then ready with
what was made, or failed with the reason a player can read.

Shared by the renders (``printing.tasks``) and the event packs (``events.tasks``): both
rows have the four states and ``error`` and ``finished`` fields.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from armybuilder.printing.pdf import PrintError
from rules.errors import MalformedDocument

logger = logging.getLogger(__name__)
QUEUED, RENDERING, READY, FAILED = "queued", "rendering", "ready", "failed"


def claim(row: QuerySet[Any], **started: Any) -> bool:
    """Whether this worker took the queued job (``row``: the job's row by key): another
    worker's claim, or a job already done or removed, leaves it be."""
    return bool(row.filter(status=QUEUED).update(status=RENDERING, **started))


def finish(
    row: QuerySet[Any],
    make: Callable[[], dict[str, Any]],
    *,
    what: str,
    unexpected: str,
    not_failures: tuple[type[BaseException], ...] = (),
    store: Callable[[Callable[[], Any]], Any] = lambda step: step(),
) -> str:
    """Run the claimed job's ``make`` and keep its fields as ready ("ready"), or keep the
    reason it failed ("failed"): a document or print error says what is wrong, anything
    else is logged (as ``what`` failed) and ``unexpected`` is what the player reads. ``not_failures`` are
    raised to the caller (e.g. the database away: not the job's fault); ``store`` runs
    the final write (e.g. tried again while the database restarts)."""
    try:
        made = make()
    except not_failures:
        raise
    except (PrintError, MalformedDocument) as exc:
        row.update(status=FAILED, error=exc.message, finished=timezone.now())
        return FAILED
    except Exception:
        logger.exception("%s failed", what)
        row.update(status=FAILED, error=unexpected, finished=timezone.now())
        return FAILED
    store(lambda: row.update(status=READY, finished=timezone.now(), **made))
    return READY
