"""The one pipeline every builder change goes through:

    read the working copy -> run the command -> check -> save with its revision
    -> remember the check

``run`` runs it. The command (``armies.commands``, ``armies.rewind``) is called with the
army as the request read it and the unit of work it reads anything else through
(``store.ArmyStore``: the database unless the caller gives another); if another writer saved the army in between, the save
writes nothing and the same steps run once more on the latest row under the army's lock
(``saving.locked``), where no one else can get in first. So changes of different units
of one army all land, and only a command whose own field moved on since is refused
(``conflicts.FieldConflict``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import rules
from armybuilder.armies.changes import saving
from armybuilder.armies.changes.commands import Result
from armybuilder.armies.changes.store import DATABASE, ArmyStore
from armybuilder.armies.documents import Checked, check_army, check_state, remember_check
from armybuilder.armies.models import Army, Revision
from rules.document import with_ids

Command = Callable[[Army, ArmyStore], Result]


@dataclass(frozen=True)
class _Saved:
    army: Army
    result: Result
    state: rules.CheckState | None  # None: nothing to check, the army stays as it is
    revision: Revision | None


def run(army: Army, command: Command, key: str = "", store: ArmyStore = DATABASE) -> Checked:
    """Run ``command`` on ``army`` and save what it made (see the module's docstring),
    with ``key``, the one-time key of the operation it is, kept on the revision it makes
    (applying it once is the caller's: ``operations.apply_operations`` runs this in the
    operation kernel's transaction). The command reads anything else through ``store``
    (``store.ArmyStore``: the database by default).

    Raises what the command raises (StaleVersion, ItemGone, FieldConflict, ...) and
    ``rules.MalformedDocument`` when the result does not read: then nothing is saved.
    """
    done = _run(army, command, key, store)
    if done is None:  # another writer saved the army since it was read
        with saving.locked(army) as latest:
            done = _run(latest, command, key, store)
        assert done is not None, "nobody else writes the army while it is locked"
    if done.state is None:
        return replace(check_army(done.army), index=done.result.index)
    remember_check(done.army, done.army.document, done.state)
    parsed, report = done.state.army, done.state.report
    return Checked(
        done.army, parsed, report, adjusted=done.result.adjusted, index=done.result.index,
        revision=done.revision,
    )  # fmt: skip


def _run(army: Army, command: Command, key: str, store: ArmyStore) -> _Saved | None:
    result = command(army, store)  # the working copy, changed
    if result.document is None:
        return _Saved(army, result, None, None)
    # a new unit (or a document from before ids were kept) gets its id before it is stored
    raw = _with_ids(result.document)
    state = check_state(army, raw)  # from the army's last check
    document = _sharing(army.document, state.army.to_document())
    if document == army.document:  # normalised, it is what is stored: nothing to write
        return _Saved(army, result, state, None)
    revision = saving.save(army, document, result.note, key)
    return None if revision is None else _Saved(army, result, state, revision)


def _sharing(before: Any, document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with each unit and general that is equal to the one in its place
    before being that very object: what is compared after it (nothing to write? which
    cards changed? a field revision?) is then told at once for all but the changed one,
    so an edit of a large army does not compare every unit three times over."""
    if not isinstance(before, dict):
        return document
    for kind in ("units", "generals"):
        old, new = before.get(kind), document.get(kind)
        if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
            document[kind] = [o if o == n else n for o, n in zip(old, new, strict=True)]
    return document


def _with_ids(document: dict[str, Any]) -> dict[str, Any]:
    """``rules.document.with_ids(document)``: the document itself when every unit and
    general has its id (every edit but an add), told with a plain look at each item."""
    for kind in ("units", "generals"):
        items = document.get(kind)
        if isinstance(items, list) and not all(type(i) is dict and "id" in i for i in items):
            return with_ids(document)
    return document
