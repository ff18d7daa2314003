"""A builder edit is one straight pipeline, the same for every kind of change:

    read the working copy -> apply the change -> check -> save with its revision
    -> remember the check

``apply_edit`` runs it. The change (an ``edits.Edit``) is made on the army as the request
read it; if another writer saved the army in between, the save writes nothing and the
same steps run once more on the latest row under the army's lock (``saving.locked``),
where no one else can get in first. So edits of different units of one army all land,
and only a change whose own field moved on since is refused (``changes.FieldConflict``).
The functions below are the builder's changes, each an edit handed to the pipeline.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.http import QueryDict

import rules
from armybuilder.armies import changes, checking, edits, saving
from armybuilder.armies.documents import Checked, check_army
from armybuilder.armies.edits import Change, Edit
from armybuilder.armies.models import Army, Revision
from armybuilder.armies.revisions import RevisionNote
from rules.document import with_ids


@dataclass(frozen=True)
class _Saved:
    army: Army
    change: Change
    state: rules.CheckState | None  # None: nothing to check, the army stays as it is
    revision: Revision | None


def apply_edit(army: Army, edit: Edit) -> Checked:
    """Make ``edit`` on ``army`` and save it (see the module's docstring).

    Raises what the edit raises (StaleVersion, ItemNotFound, FieldConflict, ...) and
    ``rules.MalformedDocument`` when the result does not read: then nothing is saved.
    """
    done = _run(army, edit)
    if done is None:  # another writer saved the army since it was read
        with saving.locked(army) as latest:
            done = _run(latest, edit)
        assert done is not None, "nobody else writes the army while it is locked"
    if done.state is None:
        return replace(check_army(done.army), index=done.change.index)
    checking.remember(done.army, done.army.document, done.state)
    parsed, report = done.state.army, done.state.report
    return Checked(
        done.army, parsed, report, adjusted=done.change.adjusted, index=done.change.index,
        revision=done.revision,
    )  # fmt: skip


def _run(army: Army, edit: Edit) -> _Saved | None:
    change = edit(army)  # the working copy, changed
    if change.document is None:
        return _Saved(army, change, None, None)
    # a new unit (or a document from before ids were kept) gets its id before it is stored
    state = checking.check(
        army, with_ids(change.document)
    )  # from the army's last check when it can
    document = state.army.to_document()
    if document == army.document:  # normalised, it is what is stored: nothing to write
        return _Saved(army, change, state, None)
    revision = saving.save(army, document, change.note)
    return None if revision is None else _Saved(army, change, state, revision)


# -- the builder's changes --------------------------------------------------------------------


def save_document(
    army: Army, raw: Any, version: int | None, change: RevisionNote | None = None
) -> Checked:
    """Parse ``raw`` and store it if ``army`` is still at ``version`` (else StaleVersion).
    A document that normalises to the stored one writes nothing and keeps the version."""
    return apply_edit(army, edits.replace_document(raw, version, change))


def edit_item(
    army: Army, kind: str, item_id: str, data: QueryDict | Mapping[str, Any], version: int | None
) -> Checked:
    """Apply posted control values to one unit (or general); ``Checked.adjusted`` names
    the fields the builder set along with them (the page redraws the unit's controls)."""
    return apply_edit(army, edits.edit_item(kind, item_id, data, version))


def add_item(army: Army, kind: str, version: int | None, preset_key: str = "blank") -> Checked:
    return apply_edit(army, edits.add_item(kind, version, preset_key))


def duplicate_item(army: Army, kind: str, item_id: str, version: int | None = None) -> Checked:
    return apply_edit(army, edits.duplicate_item(kind, item_id, version))


def move_item(
    army: Army, kind: str, item_id: str, delta: int, version: int | None = None
) -> Checked:
    return apply_edit(army, edits.move_item(kind, item_id, delta, version))


def delete_item(army: Army, kind: str, item_id: str, version: int | None = None) -> Checked:
    return apply_edit(army, edits.delete_item(kind, item_id, version))


def update_settings(
    army: Army, data: QueryDict | Mapping[str, Any], version: int | None
) -> Checked:
    return apply_edit(army, edits.update_settings(data, version))


def roll_force(army: Army, version: int | None, seed: int | None = None) -> Checked:
    return apply_edit(army, edits.roll_force(version, seed))


def change_item_field(
    army: Army,
    kind: str,
    item_id: str,
    field: str,
    data: QueryDict | Mapping[str, Any],
    made_from: Any,
    *,
    typing: bool = False,
) -> Checked:
    """One field of the item ``item_id`` (its index now in ``Checked.index``); ``typing``:
    a keystroke after others in that field, kept with them as one revision when it
    follows them at once."""
    edit = changes.item_field(kind, item_id, field, data, made_from)
    return apply_edit(army, changes.typed(edit) if typing else edit)


def change_setting(
    army: Army,
    field: str,
    data: QueryDict | Mapping[str, Any],
    made_from: Any,
    *,
    typing: bool = False,
) -> Checked:
    edit = changes.setting(field, data, made_from)
    return apply_edit(army, changes.typed(edit) if typing else edit)


def undo(army: Army, revision_pk: int | None = None, made_from: Any = changes.UNSET) -> Checked:
    """Take back one change (``changes.undo``); ``Checked.revision.undo_of`` is that change."""
    return apply_edit(army, changes.undo(revision_pk, made_from))


def restore(army: Army, version: int) -> Checked:
    return apply_edit(army, changes.restore(version))


def restore_snapshot(army: Army, name: str, document: dict[str, Any]) -> Checked:
    return apply_edit(army, changes.restore_snapshot(name, document))
