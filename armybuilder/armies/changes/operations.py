"""One operation shape for every builder change, applied in order, once each.

Vocabulary: an *operation* is what the page sends (JSON, below); the server turns it
into a *command* (``armies.commands``: a small dataclass called with the army) and runs
it through the one pipeline (``armies.pipeline.run``); what is saved is a *revision*.

An operation is ``{key, army, base_version, op, target, field, value}`` (and optionally
``from``, the value a ``set`` was made from, for per-field conflicts):

- ``key``: the operation's one-time key (1-64 letters, digits, ``-``, ``_``), made by the
  page when the player makes the change; an operation whose key was applied to the army
  already is not applied again (the operation kernel, ``armybuilder.operations.kernel``), so
  a network retry, a queue replayed after a reload or a batch sent twice changes the army
  once.
- ``op``: ``set`` (one value: an army setting, or one field of a unit or general),
  ``add`` (``field`` "units" or "generals"; ``value`` ``{"id", "preset"}``: the page
  names the new unit's id, so changes it queues for that unit find it), ``delete``,
  ``move`` (``value`` "up" or "down"), ``duplicate`` (``value`` ``{"id"}``, the copy's),
  ``settings`` (the settings form's values, only onto ``base_version``), ``roll``,
  ``undo`` (``value`` ``{"revision"}``: the change to take back; ``from``: the value the
  player was shown when choosing to undo anyway).
- ``typing`` (optional, ``set`` only): a keystroke after others in the same field, sent
  at once: it extends their revision, so a word typed key by key is one undo.
- ``target``: ``"army"``, or the stable id of the unit or general the operation is made
  on, never its place: whatever other tabs added, deleted or moved, it lands on that
  unit, or is refused when the unit is gone.

Each kind is one handler in the operation kernel's table (subject ``"army"``, at the
foot of this module): its ``parse`` reads an operation into the command it is, a small
dataclass of ``commands`` or ``history.rewind``; its ``apply`` runs that command through
the one pipeline, with the operation's key kept on the revision. A new kind is one parse
function registered there.

``apply_operations`` runs a batch, each command with its key recorded in the same
transaction, and maps every refusal to the kernel's one ``Outcome`` (``outcome_of``): the
one error mapping of every view that changes an army.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from armybuilder.armies.changes import commands, pipeline
from armybuilder.armies.changes.conflicts import UNSET, FieldConflict
from armybuilder.armies.changes.saving import SUBJECT
from armybuilder.armies.documents import Checked, ItemNotFound, StaleVersion, friendly_message
from armybuilder.armies.history import rewind
from armybuilder.armies.history.revisions import HistoryMissing, ItemGone, get_value, index_of
from armybuilder.armies.history.rewind import NothingToUndo
from armybuilder.armies.models import Army, Revision
from armybuilder.jsonbody import BadOperation
from armybuilder.operations import kernel
from armybuilder.operations.kernel import (
    ABSENT,
    Duplicate,
    Outcome,
    apply_once,
    handler,
    is_once_key,
)
from armybuilder.operations.kernel import RULE as KEY_RULE
from rules.document import ID_PATTERN
from rules.errors import MalformedDocument

MAX_BATCH = 200
REFUSALS = (
    FieldConflict, ItemGone, StaleVersion, ItemNotFound, NothingToUndo, HistoryMissing,
    MalformedDocument,
)  # fmt: skip
GONE = "that unit was deleted elsewhere; nothing was changed"
STALE = "the army changed since this form was drawn"
# The page-wide words of the refusals a page redraws the whole builder for (the HTTP
# status of each outcome is the operation kernel's one table, ``outcome.HTTP_STATUS``).
STALE_NOTICE = (
    "This army was changed somewhere else (another tab or device) since this page "
    "was loaded. Your last change was not saved; here is the army as it is now."
)
GONE_NOTICE = (
    "That unit was deleted or moved away in another tab or device since this page was "
    "loaded; nothing was changed. Here is the army as it is now."
)


@dataclass(frozen=True)
class Operation:
    key: str
    op: str
    target: str = "army"
    field: str = ""
    value: Any = None
    base_version: int | None = None
    made_from: Any = UNSET
    typing: bool = False
    # a change no operation of the page names (a restore from History): its command
    command: Any = dataclasses.field(default=None, compare=False)


@dataclass(frozen=True)
class Applied:
    """One applied operation: its command and the army checked after it."""

    operation: Operation
    command: pipeline.Command
    checked: Checked


@dataclass
class Batch:
    """A batch's answer: the army after it (``checked``: its last check, None when
    nothing was applied), what became of each operation, and what was applied."""

    army: Army
    outcomes: list[Outcome]
    applied: list[Applied]
    before: dict[str, Any]  # the army's document before the batch
    # the army's version the batch was read at; None once another writer's save came in
    # between (the answer's fragments then do not say everything that changed since)
    follows: int | None = None
    # the one-time keys of operations the page that sent the batch made before (``own``)
    own: frozenset[str] = frozenset()

    @property
    def checked(self) -> Checked | None:
        return self.applied[-1].checked if self.applied else None


def parse_operations(raw: Any, army_pk: int) -> list[Operation]:
    """A batch as posted (``{"operations": [...]}`` or the list itself), read strictly."""
    if isinstance(raw, Mapping):
        raw = raw.get("operations")
    if not isinstance(raw, list) or not raw:
        raise BadOperation("operations: a non-empty list of operations")
    if len(raw) > MAX_BATCH:
        raise BadOperation(f"operations: at most {MAX_BATCH} in one batch")
    return [_operation(item, f"operations[{i}]", army_pk) for i, item in enumerate(raw)]


MAX_OWN = 100


def parse_own(raw: Any) -> frozenset[str]:
    """``own``: the keys of the operations the sending page made before this batch (its
    earlier batches, answered or not): a change of theirs is the player's own, never a
    conflict for this batch's operations."""
    found = raw.get("own", []) if isinstance(raw, Mapping) else []
    if not isinstance(found, list) or len(found) > MAX_OWN:
        raise BadOperation(f"own: a list of at most {MAX_OWN} operation keys")
    for i, key in enumerate(found):
        if not is_once_key(key):
            raise BadOperation(f"own[{i}]: {KEY_RULE}")
    return frozenset(found)


def _operation(raw: Any, path: str, army_pk: int) -> Operation:
    read = kernel.read_envelope(raw, SUBJECT, path, own=("army", "typing"))
    if read.rest.get("army", army_pk) != army_pk:
        raise BadOperation(f"{path}.army: this is army {army_pk}")
    target = "army" if read.target is ABSENT else read.target
    if not isinstance(target, str) or not (target == "army" or ID_PATTERN.fullmatch(target)):
        raise BadOperation(f"{path}.target: \"army\" or a unit's or general's id")
    name = "" if read.field is ABSENT else read.field
    if not isinstance(name, str) or len(name) > 80:
        raise BadOperation(f"{path}.field: a field name")
    typing = read.rest.get("typing", False)
    if type(typing) is not bool:
        raise BadOperation(f"{path}.typing: true or false")
    return Operation(
        key=read.key,
        op=read.op,
        target=target,
        field=name,
        value=None if read.value is ABSENT else read.value,
        base_version=read.base_version,
        made_from=UNSET if read.made_from is ABSENT else read.made_from,
        typing=typing,
    )


def command_of(operation: Operation) -> pipeline.Command:
    """The command an operation is: a small dataclass the pipeline calls with the army,
    read by its kind's handler (``kinds``)."""
    if operation.command is not None:
        return operation.command
    return handler(SUBJECT, operation.op).parse(operation, f"operation {operation.key}")


def outcome_of(army: Army, operation: Operation, exc: Exception) -> Outcome:
    """The one mapping from a refused change to what the page is told."""
    key = operation.key
    where = {"target": operation.target, "field": operation.field}
    if isinstance(exc, FieldConflict):
        message = f"{exc.label} was changed elsewhere"
        notice = _conflict_notice(exc, undoing=operation.op == "undo")
        return Outcome(
            key, "conflict", message, theirs=exc.theirs, refusal=exc, notice=notice, **where
        )
    if isinstance(exc, ItemGone):
        return Outcome(key, "gone", GONE, notice=GONE_NOTICE, **where)
    if isinstance(exc, StaleVersion):
        return Outcome(key, "stale", STALE, notice=STALE_NOTICE, **where)
    http = 0
    if isinstance(exc, NothingToUndo | HistoryMissing):  # the army's history moved on
        message, http = str(exc).strip("'\""), 409
    elif isinstance(exc, ItemNotFound):
        message = str(exc).strip("'\"")
    elif isinstance(exc, MalformedDocument):
        message = friendly_message(exc, army.document)
    elif isinstance(exc, BadOperation):
        message = exc.message
    else:
        raise exc
    notice = message if operation.op == "undo" else f"Not saved: {message}"
    return Outcome(key, "refused", message, notice=notice, http=http, **where)


def _conflict_notice(exc: FieldConflict, *, undoing: bool) -> str:
    if undoing:
        return (
            f"{exc.label} was changed somewhere else to {exc.theirs_text} since; undoing "
            f"would set it back to {exc.yours_text}. Nothing was undone."
        )
    return (
        f"{exc.label} was changed somewhere else to {exc.theirs_text} since this page was "
        f"loaded; yours ({exc.yours_text}) was not saved. Enter it again to keep it."
    )


def refused(army: Army, operation: Operation, exc: Exception) -> Batch:
    """A batch of one operation refused before it ran (a stale form), mapped as any."""
    return Batch(army, [outcome_of(army, operation, exc)], [], army.document, army.version)


def apply_operations(
    army: Army, operations: list[Operation], own: frozenset[str] = frozenset()
) -> Batch:
    """Apply ``operations`` in order, each once (``_once``: its key recorded with its
    change in one transaction); a refused one changes nothing and the next is applied all
    the same. An operation without a key (a no-JS form's) is applied without one."""
    batch = Batch(army, [], [], army.document, army.version, own=own)
    for operation in operations:
        read = army.version
        try:
            operation = _after_own(batch, operation)
            command = command_of(operation)
            checked = _once(army, operation, command)
        except Duplicate:
            army.refresh_from_db()  # the first arrival may have saved since
            if army.version != read:
                batch.follows = None
            batch.army = army
            batch.outcomes.append(Outcome(operation.key, "duplicate", version=army.version))
            continue
        except (*REFUSALS, BadOperation) as exc:
            batch.outcomes.append(outcome_of(army, operation, exc))
            continue
        army = batch.army = checked.army
        if army.version not in (read, read + 1):  # another writer saved in between
            batch.follows = None
        value = _value_now(army, operation) if operation.op == "set" else None
        where = {"target": operation.target, "field": operation.field}
        batch.outcomes.append(
            Outcome(operation.key, "applied", value=value, version=army.version, **where)
        )
        batch.applied.append(Applied(operation, command, checked))
    return batch


def _once(army: Army, operation: Operation, command: pipeline.Command) -> Checked:
    """``command`` applied by its kind's handler (a restore from History's straight
    through the pipeline) in the operation kernel's transaction: the army's row locked
    (only its version read; the army as the request read it is used unless another writer
    saved since), the operation's key checked and recorded with the change."""
    key = operation.key
    kind = None if operation.command is not None else handler(SUBJECT, operation.op)

    def change(locked: Army) -> Checked:
        if locked.version != army.version:
            army.refresh_from_db()
        if kind is None:
            return pipeline.run(army, command, key)
        return kind.apply(army, command, key)

    rows = Army.objects.filter(pk=army.pk).only("pk", "version")
    try:
        return apply_once(SUBJECT, rows, key, change, lambda done: done.army.version)
    except Army.DoesNotExist:
        raise ItemNotFound("the army was deleted") from None


def _after_own(batch: Batch, operation: Operation) -> Operation:
    """A value made from what the page showed before, on a field the player's own earlier
    operations changed since (a roll's notes, a setting an action moved): the page queued
    both, so the later one is the player's choice, not a conflict with another writer.
    It is applied as made from the value now. Own is an earlier operation of this batch,
    or, across batches, every change saved since the version the operation was made on
    carrying a key the page names as its own (``Batch.own``)."""
    if operation.op != "set" or operation.made_from is UNSET:
        return operation
    try:
        now = _value_now(batch.army, operation)
    except (ItemNotFound, ItemGone, KeyError, IndexError, TypeError):
        return operation
    if now == operation.made_from:
        return operation
    if batch.applied and batch.follows is not None:
        try:
            before = _value_in(batch.before, operation)
        except (ItemNotFound, ItemGone, KeyError, IndexError, TypeError):
            return operation
        if before != now and operation.made_from == before:
            return dataclasses.replace(operation, made_from=now)
    if _only_own_since(batch, operation):
        return dataclasses.replace(operation, made_from=now)
    return operation


def _only_own_since(batch: Batch, operation: Operation) -> bool:
    """Every change saved after the version ``operation`` was made on is one of the
    page's own operations (this batch's or ``batch.own``). One query, only on a value
    that moved since the page showed it."""
    if not batch.own or operation.base_version is None:
        return False
    mine = batch.own | {o.key for o in batch.outcomes if o.status == "applied"}
    since = Revision.objects.filter(army=batch.army, version__gt=operation.base_version)
    keys = list(since.values_list("key", flat=True))
    return bool(keys) and all(key in mine for key in keys)


def _value_in(document: Mapping[str, Any], operation: Operation) -> Any:
    if operation.target == "army":
        return get_value(document, "army", None, operation.field)
    for kind in ("units", "generals"):
        ids = [item.get("id") for item in document.get(kind) or []]
        if operation.target in ids:
            return get_value(document, kind, ids.index(operation.target), operation.field)
    raise ItemNotFound(operation.target)


def _value_now(army: Army, operation: Operation) -> Any:
    if operation.target == "army":
        return get_value(army.document, "army", None, operation.field)
    kind = commands.kind_of(army, operation.target)
    return get_value(
        army.document, kind, index_of(army.document, kind, operation.target), operation.field
    )


# -- the army's kinds in the operation kernel's table ----------------------------------


def _item_id(value: Any, path: str) -> str | None:
    found = value.get("id") if isinstance(value, Mapping) else None
    if found is None:
        return None
    if not isinstance(found, str) or not ID_PATTERN.fullmatch(found):
        raise BadOperation(f"{path}.value.id: 1 to 32 letters, digits, '-' or '_'")
    return found


def _on_an_item(operation: Any, path: str) -> str:
    if operation.target == "army":
        raise BadOperation(f"{path}: {operation.op} names the unit or general it is made on")
    return operation.target


def _set(operation: Any, path: str) -> pipeline.Command:
    return commands.SetValue(operation.target, operation.field, operation.value,
                             operation.made_from, operation.typing)  # fmt: skip


def _add(operation: Any, path: str) -> pipeline.Command:
    kind, value = operation.field or "units", operation.value
    if kind not in commands.KINDS:
        raise BadOperation(f"{path}.field: units or generals")
    preset = value.get("preset", "blank") if isinstance(value, Mapping) else "blank"
    if not isinstance(preset, str):
        raise BadOperation(f"{path}.value.preset: a preset key")
    return commands.Add(kind, preset, _item_id(value, path), operation.base_version)


def _delete(operation: Any, path: str) -> pipeline.Command:
    return commands.Delete(_on_an_item(operation, path), operation.base_version)


def _move(operation: Any, path: str) -> pipeline.Command:
    target = _on_an_item(operation, path)
    if operation.value not in ("up", "down"):
        raise BadOperation(f"{path}.value: up or down")
    return commands.Move(target, -1 if operation.value == "up" else 1, operation.base_version)


def _duplicate(operation: Any, path: str) -> pipeline.Command:
    target = _on_an_item(operation, path)
    return commands.Duplicate(target, _item_id(operation.value, path), operation.base_version)


def _settings(operation: Any, path: str) -> pipeline.Command:
    if not isinstance(operation.value, Mapping):
        raise BadOperation(f"{path}.value: the settings form's values")
    return commands.Settings(dict(operation.value), operation.base_version)


def _roll(operation: Any, path: str) -> pipeline.Command:
    return commands.Roll(operation.base_version)


def _undo(operation: Any, path: str) -> pipeline.Command:
    value = operation.value
    revision = value.get("revision") if isinstance(value, Mapping) else None
    if revision is not None and type(revision) is not int:
        raise BadOperation(f"{path}.value.revision: the number of the change to undo")
    return rewind.Undo(revision, operation.made_from)


def _apply(army: Army, command: pipeline.Command, key: str) -> Checked:
    """Every army kind's: its command through the one pipeline (looked up when called)."""
    return pipeline.run(army, command, key)


for _kind, _parse in (
    ("set", _set), ("add", _add), ("delete", _delete), ("move", _move),
    ("duplicate", _duplicate), ("settings", _settings), ("roll", _roll), ("undo", _undo),
):  # fmt: skip
    kernel.register(SUBJECT, _kind, kernel.Handler(_parse, _apply))
