"""One operation applied once: the per-operation transaction every subject runs its
changes in.

``apply_once`` locks the subject's row, checks the operation's key in the same query,
applies the change and records the key, all in one transaction: the key and the change
are committed together or not at all. A second arrival of the key waits for the lock and
then finds the key; should it get past the check anyway (a caller that holds no lock, a
database that ignores ``FOR UPDATE``), the ledger's unique key fails its insert, its
change rolls back with it, and it is answered "duplicate" all the same.

A refused change (the subject's change raises) writes nothing, its key either: the one
rule for a refused key, for every subject, is that it may be sent again, and is applied
then if it can be (the value was fixed, the turn came round).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from armybuilder.operations import ledger

T = TypeVar("T")


class Duplicate(Exception):
    """The key was applied to the subject before: nothing changed. ``version`` is the
    subject's version that change made (None: not known)."""

    def __init__(self, key: str, version: int | None) -> None:
        super().__init__(key)
        self.key = key
        self.version = version


def apply_once(
    subject: str,
    rows: QuerySet[Any],
    key: str,
    change: Callable[[Any], T],
    version_of: Callable[[T], int | None],
) -> T:
    """``change(row)`` on the locked row of ``rows`` (the one subject), once for ``key``
    (no key: applied without one), answering what it answered. ``version_of(done)``: the
    subject's version it made, kept with the key for a duplicate's answer.

    Raises ``Duplicate`` for a key applied before; ``rows.model.DoesNotExist`` when the
    subject is gone; whatever ``change`` raises, with nothing written."""
    try:
        # inside a caller's transaction (a test's) this is a savepoint: a refused change
        # rolls back to it and the caller's transaction goes on
        with transaction.atomic():
            row = ledger.locked(rows, subject, key)
            if row is None:
                raise rows.model.DoesNotExist(f"no such {subject}")
            if key and row.key_applied:
                found = ledger.applied(subject, row.pk, [key])
                raise Duplicate(key, found.get(key))
            done = change(row)
            if key:
                ledger.record(subject, row.pk, key, version_of(done))
            return done
    except IntegrityError:
        if not key:
            raise
        found = _applied_to(subject, rows, key)
        if found is None:
            raise
        raise Duplicate(key, found[1]) from None


def _applied_to(subject: str, rows: QuerySet[Any], key: str) -> tuple[str, int | None] | None:
    pk = rows.values_list("pk", flat=True).first()
    if pk is None:
        return None
    done = ledger.applied(subject, pk, [key])
    return (key, done[key]) if key in done else None


class Refused(Exception):
    """A change refused with the outcome it is answered with (a conflict a subject words
    itself): raised from the change, so nothing it did is written, its key either."""

    def __init__(self, outcome: Any) -> None:
        super().__init__(outcome.status)
        self.outcome = outcome
