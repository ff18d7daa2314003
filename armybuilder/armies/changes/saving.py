"""Writing a checked document with its revision, and the army's write lock.

A save names the version it was read at and is written with ``UPDATE ... WHERE version
= v``, together with its revision in one transaction, so two writers never both land on
the same version. The writer that finds the row moved on takes the army's lock
(``locked``) and makes its change again on the latest row: ``SELECT ... FOR UPDATE`` on
PostgreSQL; on SQLite the transaction itself is the lock, since the database opens every
transaction with ``BEGIN IMMEDIATE`` (settings: ``transaction_mode``) and a second writer
waits for the first one's commit instead of failing.

An operation's one-time key is the operation kernel's (``armybuilder.operations.kernel``):
the army's row is locked with whether the key was applied read in the same query, and the
key is recorded in the one ledger with the change. The revision a change makes keeps its
key as well (``Revision.key``): what tells the page's own changes from another writer's
(``operations._only_own_since``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import transaction
from django.utils import timezone

from armybuilder.armies.documents import ItemNotFound
from armybuilder.armies.history.revisions import RevisionNote, record
from armybuilder.armies.models import Army, Revision
from armybuilder.catalog import pins
from armybuilder.operations import kernel

SUBJECT = "army"  # the army's name in the ledger of applied keys


def save(
    army: Army, document: dict[str, Any], note: RevisionNote, key: str = ""
) -> Revision | None:
    """Store ``document`` as the army's next version with its revision, if the row is
    still at ``army.version``; None when another writer moved it (nothing written).
    ``army`` is then the saved row (document, version and ``updated`` as stored).
    ``key``, the operation's one-time key, is written with the revision; a key applied
    already raises IntegrityError and nothing is written."""
    now = timezone.now()
    version = army.version
    before = army.document
    changed = {"document": document, "version": version + 1, "updated": now}
    pins = _pins_after(army, before, document)
    if pins is not None:
        changed["list_pins"] = pins
    # savepoint=False: inside a caller's transaction this adds no statement of its own;
    # nothing in it raises but the database itself.
    with transaction.atomic(savepoint=False):
        written = Army.objects.filter(pk=army.pk, version=version).update(**changed)
        if not written:
            return None
        army.document, army.version, army.updated = document, version + 1, now
        if pins is not None:
            army.list_pins = pins
        return record(army, note, before, document, key)


def _pins_after(army: Army, before: Any, document: dict[str, Any]) -> dict[str, int] | None:
    """The army's pins once ``document`` is saved, or None when the lists it reads are the
    same (the common edit: no query). A list the army starts to read (its own list
    switched in the settings, a unit allied from another list) is pinned to its latest
    revision, so a later change of that list is shown as an upgrade, never applied
    silently."""
    if _same_lists(before, document):
        return None
    if "list_pins" not in army.__dict__:  # read without them
        army.refresh_from_db(fields=["list_pins"])
    return pins.pins_for(document, army.list_pins)


def _same_lists(before: Any, document: dict[str, Any]) -> bool:
    """Whether ``document`` reads the lists ``before`` read: when only some units were
    copied and changed (an edit copies only what it changes), only those are looked at,
    so an edit of a large army does not walk every unit."""
    units, old = document.get("units"), before.get("units") if isinstance(before, dict) else None
    if (
        not isinstance(units, list)
        or not isinstance(old, list)
        or len(units) != len(old)
        or before.get("army_list") != document.get("army_list")
    ):
        return pins.referenced_slugs(before) == pins.referenced_slugs(document)
    changed = [(a, b) for a, b in zip(old, units, strict=True) if a is not b]
    if not any(
        (a.get("ally") if isinstance(a, dict) else None)
        != (b.get("ally") if isinstance(b, dict) else None)
        for a, b in changed
    ):
        return True
    return pins.referenced_slugs(before) == pins.referenced_slugs(document)


@contextmanager
def locked(army: Army) -> Iterator[Army]:
    """The army's latest row, held for this block: no other writer saves it meanwhile."""
    with transaction.atomic():
        latest = Army.objects.select_for_update().filter(pk=army.pk).first()
        if latest is None:
            raise ItemNotFound("the army was deleted")
        yield latest


def applied_keys(army: Army, keys: Iterable[str]) -> set[str]:
    """Which of ``keys`` were applied to the army already (the one ledger's, one query)."""
    return set(kernel.applied(SUBJECT, army.pk, keys))
