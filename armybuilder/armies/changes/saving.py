"""Writing a checked document with its revision, and the army's write lock.

A save names the version it was read at and is written with ``UPDATE ... WHERE version
= v``, together with its revision in one transaction, so two writers never both land on
the same version. The writer that finds the row moved on takes the army's lock
(``locked``) and makes its change again on the latest row: ``SELECT ... FOR UPDATE`` on
PostgreSQL; on SQLite the transaction itself is the lock, since the database opens every
transaction with ``BEGIN IMMEDIATE`` (settings: ``transaction_mode``) and a second writer
waits for the first one's commit instead of failing.

An operation's one-time key costs no statement of its own: whether it was applied is read
with the army's row (``selectors.army_to_change``), and it is written in the revision the
change makes (``Revision.key``, unique per army), so a second arrival racing the first
fails on the key and changes nothing. A change that makes no revision of its own (it
changed nothing, or extended the revision of the keystrokes before it) keeps its key as
an ``AppliedAction``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from armybuilder.armies.documents import ItemNotFound
from armybuilder.armies.history.revisions import RevisionNote, record
from armybuilder.armies.models import AppliedAction, Army, Revision
from armybuilder.catalog import pins


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


class Duplicate(Exception):
    """The operation's one-time key was applied to the army already: nothing changed."""


def applied_keys(army: Army, keys: Iterable[str]) -> set[str]:
    """Which of ``keys`` were applied to the army already (two queries, none for no key:
    a single edit reads its key with the army's row, ``selectors.army_to_change``)."""
    wanted = sorted({k for k in keys if k})
    if not wanted:
        return set()
    made = Revision.objects.filter(army=army, key__in=wanted).values_list("key", flat=True)
    kept = AppliedAction.objects.filter(army=army, key__in=wanted).values_list("key", flat=True)
    return {*made, *kept}


def keep_key(army: Army, key: str) -> None:
    """Remember ``key`` for a change that made no revision of its own (in the caller's
    transaction): a second arrival of the key is then a ``Duplicate``."""
    if not key:
        return
    with transaction.atomic(savepoint=False):
        if Revision.objects.filter(army=army, key=key).exists():
            raise Duplicate(key)
        AppliedAction.objects.create(army=army, key=key)


ACTION_KEY_DAYS = 30  # a page's queue holds an action far less long than this


def prune_action_keys(now: datetime | None = None) -> int:
    """Forget one-time keys older than ``ACTION_KEY_DAYS`` (the revisions stay); how many
    went. For the worker's housekeeping."""
    cutoff = (now or timezone.now()) - timedelta(days=ACTION_KEY_DAYS)
    count, _ = AppliedAction.objects.filter(created__lt=cutoff).delete()
    old = Revision.objects.filter(created__lt=cutoff, key__isnull=False)
    return count + old.update(key=None)
