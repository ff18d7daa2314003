"""The one ledger of applied one-time keys (``models.AppliedKey``): look up, record, prune.

A subject is named by its kind (``"army"``, ``"list"``, ``"game"``) and its primary key.
Whether a key was applied is best read with the subject's row, in the query that locks it
(``locked``): the check then costs no statement of its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from armybuilder.operations.models import AppliedKey

KEY_DAYS = 30  # a page's queue holds an operation far less long than this


def applied(subject: str, subject_id: int, keys: Iterable[str]) -> dict[str, int | None]:
    """Which of ``keys`` were applied to the subject, each with the version it made."""
    wanted = sorted({k for k in keys if k})
    if not wanted:
        return {}
    found = AppliedKey.objects.filter(subject=subject, subject_id=subject_id, key__in=wanted)
    return dict(found.values_list("key", "version"))


def was_applied(subject: str, key: str) -> Exists:
    """An expression for a query of the subject's rows: whether ``key`` was applied to
    the row (``OuterRef("pk")``)."""
    return Exists(AppliedKey.objects.filter(subject=subject, subject_id=OuterRef("pk"), key=key))


def locked(rows: QuerySet[Any], subject: str, key: str) -> Any:
    """The one row of ``rows`` held for the caller's transaction (``SELECT ... FOR
    UPDATE``; on SQLite the transaction itself holds the database's write lock), with
    ``key_applied``: whether ``key`` was applied to it. None when there is no such row."""
    found = rows.select_for_update()
    if key:
        found = found.annotate(key_applied=was_applied(subject, key))
    return found.first()


def record(subject: str, subject_id: int, key: str, version: int | None) -> None:
    """Write ``key`` as applied, in the caller's transaction: a second arrival of it that
    got past the check (it cannot under the lock; a caller without one) fails on the
    ledger's unique key, and the caller's transaction rolls back with its change."""
    AppliedKey.objects.create(subject=subject, subject_id=subject_id, key=key, version=version)


def prune(now: datetime | None = None) -> int:
    """Forget keys older than ``KEY_DAYS``; how many went. For the worker's housekeeping."""
    cutoff = (now or timezone.now()) - timedelta(days=KEY_DAYS)
    count, _ = AppliedKey.objects.filter(created__lt=cutoff).delete()
    return count


def moved_in(apps: Any, subject: str, rows: Iterable[tuple[int, str, int | None, Any]]) -> None:
    """For a data migration moving a subject's old ledger into this one: each
    ``(subject_id, key, version, created)`` written as an applied key (``apps``: the
    migration's historical models; a key found twice is kept once)."""
    model = apps.get_model("operations", "AppliedKey")
    made = [
        model(subject=subject, subject_id=pk, key=key, version=version, created=created)
        for pk, key, version, created in rows
    ]
    model.objects.bulk_create(made, batch_size=500, ignore_conflicts=True)


def moved_out(apps: Any, subject: str) -> list[tuple[int, str, int | None, Any]]:
    """The reverse of ``moved_in``: the subject's keys, taken out of this ledger."""
    model = apps.get_model("operations", "AppliedKey")
    found = model.objects.filter(subject=subject)
    rows = list(found.values_list("subject_id", "key", "version", "created"))
    found.delete()
    return rows
