"""Writing a checked document with its revision, and the army's write lock.

A save names the version it was read at and is written with ``UPDATE ... WHERE version
= v``, together with its revision in one transaction, so two writers never both land on
the same version. The writer that finds the row moved on takes the army's lock
(``locked``) and makes its change again on the latest row: ``SELECT ... FOR UPDATE`` on
PostgreSQL; on SQLite the transaction itself is the lock, since the database opens every
transaction with ``BEGIN IMMEDIATE`` (settings: ``transaction_mode``) and a second writer
waits for the first one's commit instead of failing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from armybuilder.armies.documents import ItemNotFound
from armybuilder.armies.models import AppliedAction, Army, Revision
from armybuilder.armies.revisions import RevisionNote, record
from armybuilder.catalog import pins


def save(army: Army, document: dict[str, Any], note: RevisionNote) -> Revision | None:
    """Store ``document`` as the army's next version with its revision, if the row is
    still at ``army.version``; None when another writer moved it (nothing written).
    ``army`` is then the saved row (document, version and ``updated`` as stored)."""
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
        return record(army, note, before, document)


def _pins_after(army: Army, before: Any, document: dict[str, Any]) -> dict[str, int] | None:
    """The army's pins once ``document`` is saved, or None when the lists it reads are the
    same (the common edit: no query). A list the army starts to read (its own list
    switched in the settings, a unit allied from another list) is pinned to its latest
    revision, so a later change of that list is shown as an upgrade, never applied
    silently."""
    if pins.referenced_slugs(before) == pins.referenced_slugs(document):
        return None
    if "list_pins" not in army.__dict__:  # read without them
        army.refresh_from_db(fields=["list_pins"])
    return pins.pins_for(document, army.list_pins)


@contextmanager
def locked(army: Army) -> Iterator[Army]:
    """The army's latest row, held for this block: no other writer saves it meanwhile."""
    with transaction.atomic():
        latest = Army.objects.select_for_update().filter(pk=army.pk).first()
        if latest is None:
            raise ItemNotFound("the army was deleted")
        yield latest


@contextmanager
def once(army: Army, key: str) -> Iterator[bool]:
    """One transaction for an action and its one-time ``key``: yields False when an
    action with that key was applied to the army already (the block then changes
    nothing), True otherwise. An exception out of the block rolls back the change and
    the key together, so an action that was refused may be sent again and applied. An
    empty key (a form posted without JavaScript) is not remembered."""
    if not key:
        yield True
        return
    with transaction.atomic():
        try:
            with transaction.atomic():  # a savepoint: the transaction outlives a duplicate
                AppliedAction.objects.create(army=army, key=key)
            fresh = True
        except IntegrityError:
            fresh = False
        yield fresh


ACTION_KEY_DAYS = 30  # a page's queue holds an action far less long than this


def prune_action_keys(now: datetime | None = None) -> int:
    """Forget one-time keys older than ``ACTION_KEY_DAYS``; how many went. For the
    worker's housekeeping."""
    cutoff = (now or timezone.now()) - timedelta(days=ACTION_KEY_DAYS)
    count, _ = AppliedAction.objects.filter(created__lt=cutoff).delete()
    return count
