"""Commands that take the army back: undo one change, restore a version or a snapshot.

Undo names the revision it takes back and takes back only that: a one-value change is
set back on the army as it is now, on its unit wherever that unit went (a
``FieldConflict`` when that value moved on since), a whole-army change only while nothing
came after it (``NothingToUndo``). A restore is a new change of its own: it can be undone
too. Like every command (``armies.commands``), each is run by ``armies.pipeline.run``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from armybuilder.armies.changes.commands import Result
from armybuilder.armies.changes.conflicts import SETTINGS, UNSET, FieldConflict
from armybuilder.armies.changes.store import ArmyStore
from armybuilder.armies.documents import ItemNotFound, item_fields, ruleset_of
from armybuilder.armies.history.revisions import (
    ItemGone,
    RevisionNote,
    get_value,
    index_of,
    with_value,
)
from armybuilder.armies.models import Army, Revision

NOTHING = "Nothing to undo."
SINCE = "Other changes were made since: open History to restore an earlier version."


class NothingToUndo(LookupError):
    """No change left to undo, or the one named can no longer be taken back alone; the
    message says which, as the player reads it."""


@dataclass(frozen=True)
class Undo:
    """Take back the revision ``revision_pk`` (None: the newest one not yet undone);
    ``made_from``: the value the player was shown when choosing to undo anyway."""

    revision_pk: int | None = None
    made_from: Any = UNSET

    def __call__(self, army: Army, store: ArmyStore) -> Result:
        revision = store.undoable(army, self.revision_pk)
        if revision is None:
            raise NothingToUndo(NOTHING if self.revision_pk is None else SINCE)
        summary = f"Undid: {revision.summary}"
        if revision.kind != Revision.FIELD:
            if revision.document is None or store.in_effect_since(army, revision):
                raise NothingToUndo(SINCE)
            return Result(dict(revision.document), _inverse(revision, summary))
        target, field = revision.target, revision.field
        now = revision.index
        if target != "army":
            try:
                now = index_of(army.document, target, revision.item_id)
            except ItemGone:
                raise NothingToUndo(SINCE) from None
        value = get_value(army.document, target, now, field)
        expected = revision.after if self.made_from is UNSET else self.made_from
        if value != expected:
            label = _label(army, target, now, field)
            raise FieldConflict(army, field, label, theirs=value, yours=revision.before)
        document = with_value(army.document, target, now, field, revision.before)
        note = RevisionNote(
            summary, op="edit", target=target, index=now, item_id=revision.item_id,
            field=field, undo_of=revision,
        )  # fmt: skip
        return Result(document, note, index=now)


def _inverse(revision: Revision, summary: str) -> RevisionNote:
    """The note of taking back a whole-document change: the opposite move of the items,
    as History tells it."""
    op, target, index = revision.op, revision.target, revision.index
    if op in ("add", "delete", "edit"):
        back = {"add": "delete", "delete": "add", "edit": "edit"}[op]
        return RevisionNote(
            summary, op=back, target=target, index=index, item_id=revision.item_id,
            undo_of=revision,
        )  # fmt: skip
    if op == "move":
        return RevisionNote(
            summary, op="move", target=target, index=revision.op_to, op_to=index, undo_of=revision
        )
    return RevisionNote(summary, op="replace", undo_of=revision)


def _label(army: Army, target: str, index: int | None, field: str) -> str:
    """How a conflict names a value: "Army name", or "Knights: Figures"."""
    if target == "army":
        if field in SETTINGS:
            return SETTINGS[field]
        try:
            return f"Option {ruleset_of(army).option_field(field.removeprefix('options.')).label}"
        except LookupError:  # no such option (ItemNotFound: no such rule set)
            return field
    item = army.document[target][index]
    name = item.get("name") if isinstance(item, dict) else None
    try:
        fields = item_fields(ruleset_of(army), target)
    except ItemNotFound:
        fields = ()
    chosen = next((f.label for f in fields if f.name == field), field)
    return f"{name or target[:-1]}: {chosen}"


@dataclass(frozen=True)
class RestoreVersion:
    """Make the army what it was at ``version`` (HistoryMissing: not rebuildable)."""

    version: int

    def __call__(self, army: Army, store: ArmyStore) -> Result:
        note = RevisionNote(f"Restored version {self.version}", op="replace")
        return Result(store.document_at(army, self.version), note)


@dataclass(frozen=True)
class RestoreSnapshot:
    """Make the army the named snapshot's document."""

    name: str
    document: dict[str, Any]

    def __call__(self, army: Army, store: ArmyStore) -> Result:
        return Result(dict(self.document), RevisionNote(f"Restored “{self.name}”", op="replace"))
