"""Revisions of an army: every change is recorded, can be undone, and any can be restored.

A one-field change records only that value before and after (a few bytes per keystroke-
paced edit); every other change keeps the whole document from before it. Walking back
from the current document through the revisions gives the document at any kept version,
exactly: a field revision puts its ``before`` back, a snapshot revision is the document.
Every revision is kept for the army's life (a field revision is a few bytes; a snapshot is
one document), so any version can be restored; a named snapshot (``ArmySnapshot``) keeps
its own copy of the document besides.

Keystrokes of one field are one change: a field change typed right after the last change
(the same field of the same item, within ``TYPING_SECONDS``) extends that revision to the new
version instead of recording another, so History reads "Figures 12 → 240", not one row per
digit. Such a revision spans versions (``since`` to ``version``); the versions inside
it are not kept, and every other one still is.

Unit identity across tabs: a change names the unit by its stable id (its ``id`` in the
document), never by its place. ``index_of`` finds where that unit is now, or raises
``ItemGone`` when it is no longer in the army, so an edit never lands on the wrong unit:
a page however many versions old, or a change queued offline, still finds its unit
whatever other tabs added, deleted or moved.

A revision's note gives its values as a player reads them in History (``field_value``): a
choice by its label, a list by its name, never the code or slug the document stores
("Allied from list North Welsh (Gwynedd) → Picts", "Option Missile supply: Three shots →
Out on a natural 5").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.utils import timezone

from armybuilder.armies.field_values import shown
from armybuilder.armies.models import Army, Revision, army_saved
from armybuilder.catalog.selectors import PinnedArmy, army_lookup
from rules import edits
from rules.fields import Field

TYPING_SECONDS = 10  # a pause longer than this between keystrokes starts a new change


class ItemGone(LookupError):
    """The unit a change was made for is no longer there (deleted, or the army replaced)."""


class HistoryMissing(LookupError):
    """The revisions needed to rebuild that version are not there (never made)."""


@dataclass(frozen=True)
class RevisionNote:
    """What a change is, as the service making it describes it."""

    summary: str
    op: str = "edit"  # edit | add | delete | move | replace
    target: str = "army"  # army | units | generals
    index: int | None = None  # the item's index in the document this change made
    item_id: str = ""  # the item's stable id
    op_to: int | None = None
    field: str = ""  # one field: a field revision if nothing else changed
    undo_of: Revision | None = None
    # typed in the same field as the change before it: may extend that revision
    typing: bool = False
    # the summary of the whole typed change, told from the value before its first keystroke
    retell: Callable[[Any], str] | None = None


def get_value(document: dict[str, Any], target: str, index: int | None, field: str) -> Any:
    """The value at ``field`` of the army (dotted for options: ``options.x``) or an item."""
    return edits.army_value(document if target == "army" else document[target][index], field)


def with_value(
    document: dict[str, Any], target: str, index: int | None, field: str, value: Any
) -> dict[str, Any]:
    """A copy of ``document`` with one value set (copies along the path only)."""
    if target == "army":
        return edits.set_army_value(document, field, value)
    result = dict(document)
    items = list(result[target])
    result[target] = items
    items[index] = edits.set_army_value(items[index], field, value)  # type: ignore[index]
    return result


def record(
    army: Army, note: RevisionNote, before: dict[str, Any], after: dict[str, Any], key: str = ""
) -> Revision:
    """Record the change that turned ``before`` into ``after`` (the army is at its new
    version). A field note whose change touched nothing else is stored as a field
    revision, anything else as a snapshot of ``before``. ``key``, the one-time key of the
    operation that made it, is stored with it (a keystroke that extends the revision before
    it keeps none here: the operation kernel's ledger has every key)."""
    item_id = note.item_id
    if not item_id and note.target != "army":
        item_id = id_at(before if note.op == "delete" else after, note.target, note.index)
    fields: dict[str, Any] = {
        "army": army,
        "version": army.version,
        "summary": note.summary[:300],
        "target": note.target,
        "index": note.index,
        "item_id": item_id,
        "op": note.op,
        "op_to": note.op_to,
        "undo_of": note.undo_of,
    }
    kind = Revision.SNAPSHOT
    if note.field:
        old = get_value(before, note.target, note.index, note.field)
        new = get_value(after, note.target, note.index, note.field)
        fields.update(field=note.field, before=old, after=new)
        if with_value(before, note.target, note.index, note.field, new) == after:
            kind = Revision.FIELD
    if kind == Revision.SNAPSHOT:
        fields["document"] = before
    elif note.typing and note.undo_of is None:
        extended = _extended(army, note, fields["after"])
        if extended is not None:
            return extended
    revision = Revision.objects.create(kind=kind, key=key or None, **fields)
    if note.undo_of is not None:
        Revision.objects.filter(pk=note.undo_of.pk).update(undone=True)
    army_saved(army)
    return revision


def _extended(army: Army, note: RevisionNote, after: Any) -> Revision | None:
    """The revision just before this one, extended by this keystroke, if it is the same
    field typed a moment ago (see the module); None when this is a change of its own."""
    now = timezone.now()
    previous = Revision.objects.filter(
        army=army, version=army.version - 1, kind=Revision.FIELD, op="edit",
        target=note.target, item_id=note.item_id, field=note.field, undone=False,
        undo_of__isnull=True, created__gte=now - timedelta(seconds=TYPING_SECONDS),
    ).first()  # fmt: skip
    if previous is None:
        return None
    previous.since = previous.since or previous.version - 1
    previous.version, previous.after, previous.created = army.version, after, now
    if note.retell is not None:
        previous.summary = note.retell(previous.before)[:300]
    previous.save(update_fields=["since", "version", "after", "created", "summary"])
    return previous


def index_of(document: dict[str, Any], kind: str, item_id: str) -> int:
    """Where the unit (``kind`` "units") or general with ``item_id`` is in ``document``;
    ItemGone when no item there has that id."""
    items = document.get(kind) if item_id else None
    for i, item in enumerate(items if isinstance(items, list) else ()):
        if isinstance(item, dict) and item.get("id") == item_id:
            return i
    raise ItemGone(f"no {kind[:-1]} {item_id!r}")


def id_at(document: dict[str, Any], kind: str, index: int | None) -> str:
    """The id of ``kind[index]`` in ``document`` ("" when there is none)."""
    items = document.get(kind)
    if index is None or not isinstance(items, list) or not 0 <= index < len(items):
        return ""
    found = items[index].get("id") if isinstance(items[index], dict) else None
    return found if isinstance(found, str) else ""


def undoable(army: Army, pk: int | None = None) -> Revision | None:
    """The change ``pk`` if it can still be undone, else (no ``pk``) the newest one that
    can: not undone yet, not itself an undo, and still holding what taking it back needs."""
    found = Revision.objects.filter(army=army, undone=False, undo_of__isnull=True).exclude(
        kind=Revision.SNAPSHOT, document__isnull=True
    )
    if pk is not None:
        return found.filter(pk=pk).first()
    return found.order_by("-version").first()


def in_effect_since(army: Army, revision: Revision) -> bool:
    """Whether a change made after ``revision`` still counts: putting back the whole
    document from before ``revision`` would take it back too. Changes undone since, and
    the undos of them, do not count."""
    if revision.version == army.version:
        return False
    later = Revision.objects.filter(army=army, version__gt=revision.version, undone=False)
    return later.exclude(undo_of__version__gt=revision.version).exists()


def document_at(army: Army, version: int) -> dict[str, Any]:
    """The army's document as it was at ``version`` (HistoryMissing if not rebuildable)."""
    if version == army.version:
        return army.document
    if not 1 <= version < army.version:
        raise HistoryMissing(f"no version {version}")
    later = list(Revision.objects.filter(army=army, version__gt=version).order_by("-version"))
    reached = army.version
    for revision in later:  # each change must start where the one after it ended
        if revision.version != reached:
            break
        reached = revision.since if revision.since is not None else revision.version - 1
    if reached != version:
        raise HistoryMissing(f"version {version} is not kept (or the changes after it)")
    document = army.document
    for revision in later:
        if revision.kind == Revision.FIELD:
            document = with_value(
                document, revision.target, revision.index, revision.field, revision.before
            )
        elif revision.document is None:  # rows from before history was kept in full
            raise HistoryMissing(f"the changes after version {version} are not all kept")
        else:
            document = dict(revision.document)
    return document


# -- values in words, as History reads them ----------------------------------------------


def field_value(
    field: Field | None, value: Any, list_name: Callable[[str], str] | None = None
) -> str:
    """``value`` of ``field`` in words; ``list_name``: the field names an army list."""
    if value is None or value == "" or field is None:
        return shown(value)
    if list_name is not None:
        return list_name(str(value))
    if field.kind == "choice":
        return field.label_for(value)
    if field.kind == "multi" and isinstance(value, list):
        return ", ".join(field.label_for(v) for v in value) or shown(value)
    return shown(value)


def list_namer(army: PinnedArmy, ruleset: str) -> Callable[[str], str]:
    """The name of a list of ``ruleset`` as ``army`` reads it (its pinned revision's)."""
    names: dict[str, str] = {}

    def name(slug: str) -> str:
        if not names:
            names.update(getattr(army_lookup(army)(ruleset), "names", {}) or {})
        return names.get(slug) or "an army list no longer in Muster"

    return name
