"""One operation shape for every builder change, applied in order, once each.

An operation is ``{key, army, base_version, op, target, field, value}`` (and optionally
``from``, the value a ``set`` was made from, for per-field conflicts):

- ``key``: the operation's one-time key (1-64 letters, digits, ``-``, ``_``), made by the
  page when the player makes the change; an operation whose key was applied to the army
  already is not applied again (``saving.once``), so a network retry, a queue replayed
  after a reload or a batch sent twice changes the army once.
- ``op``: ``set`` (one value: an army setting, or one field of a unit or general),
  ``add`` (``field`` "units" or "generals"; ``value`` ``{"id", "preset"}``: the page
  names the new unit's id, so changes it queues for that unit find it), ``delete``,
  ``move`` (``value`` "up" or "down"), ``duplicate`` (``value`` ``{"id"}``, the copy's),
  ``settings`` (the settings form's values, only onto ``base_version``), ``roll``.
- ``target``: ``"army"``, or the stable id of the unit or general the operation is made
  on, never its place: whatever other tabs added, deleted or moved, it lands on that
  unit, or is refused when the unit is gone.

``apply_operations`` runs a batch through the one pipeline (``editing.apply_edit``: read
-> apply -> check -> save with its revision) with the key remembered in the same
transaction, and maps every refusal to one ``Outcome`` (``outcome_of``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from armybuilder.armies import changes, editing, edits, saving
from armybuilder.armies.builder_page import ONCE_KEY
from armybuilder.armies.changes import UNSET, FieldConflict, NothingToUndo
from armybuilder.armies.documents import (
    ItemNotFound,
    StaleVersion,
    friendly_message,
    item_fields,
    items_of,
    ruleset_of,
    working_copy,
)
from armybuilder.armies.edits import Change, Edit
from armybuilder.armies.models import Army
from armybuilder.armies.revisions import ItemGone, RevisionNote, get_value, index_of, with_value
from rules.document import ID_PATTERN
from rules.errors import MalformedDocument

OPS = ("set", "add", "delete", "move", "duplicate", "settings", "roll")
MAX_BATCH = 200


class BadOperation(ValueError):
    """An operation that is not one (a missing key, an unknown op...); ``message`` says
    which part of which operation."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Operation:
    key: str
    op: str
    target: str = "army"
    field: str = ""
    value: Any = None
    base_version: int | None = None
    made_from: Any = UNSET


@dataclass(frozen=True)
class Outcome:
    """What became of one operation: ``applied``, ``duplicate`` (its key was applied
    before: nothing changed), ``conflict`` (its field moved on: ``theirs`` holds the
    army's value), ``gone`` (its unit is no longer in the army), ``stale`` (a whole-form
    change made from an older version), ``refused`` (the value or the change does not
    read: ``message`` says why, field named)."""

    key: str
    status: str
    message: str = ""
    value: Any = None
    theirs: Any = None
    version: int | None = None

    def to_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {"key": self.key, "status": self.status}
        if self.message:
            found["message"] = self.message
        if self.status == "applied":
            found["value"] = self.value
        if self.status == "conflict":
            found["theirs"] = self.theirs
        if self.version is not None:
            found["version"] = self.version
        return found


def parse_operations(raw: Any, army_pk: int) -> list[Operation]:
    """A batch as posted (``{"operations": [...]}`` or the list itself), read strictly."""
    if isinstance(raw, Mapping):
        raw = raw.get("operations")
    if not isinstance(raw, list) or not raw:
        raise BadOperation("operations: a non-empty list of operations")
    if len(raw) > MAX_BATCH:
        raise BadOperation(f"operations: at most {MAX_BATCH} in one batch")
    return [_operation(item, f"operations[{i}]", army_pk) for i, item in enumerate(raw)]


def _operation(raw: Any, path: str, army_pk: int) -> Operation:
    if not isinstance(raw, Mapping):
        raise BadOperation(f"{path}: an operation is an object")
    allowed = {"key", "army", "base_version", "op", "target", "field", "value", "from"}
    unknown = sorted(str(k) for k in raw if k not in allowed)
    if unknown:
        raise BadOperation(f"{path}.{unknown[0]}: unknown key; allowed: {', '.join(allowed)}")
    key = raw.get("key")
    if not isinstance(key, str) or not ONCE_KEY.fullmatch(key):
        raise BadOperation(f"{path}.key: 1 to 64 letters, digits, '-' or '_'")
    if raw.get("army", army_pk) != army_pk:
        raise BadOperation(f"{path}.army: this is army {army_pk}")
    op = raw.get("op")
    if op not in OPS:
        raise BadOperation(f"{path}.op: one of {', '.join(OPS)}")
    target = raw.get("target", "army")
    if not isinstance(target, str) or not (target == "army" or ID_PATTERN.fullmatch(target)):
        raise BadOperation(f"{path}.target: \"army\" or a unit's or general's id")
    field = raw.get("field", "")
    if not isinstance(field, str) or len(field) > 80:
        raise BadOperation(f"{path}.field: a field name")
    version = raw.get("base_version")
    if version is not None and (type(version) is not int or version < 1):
        raise BadOperation(f"{path}.base_version: a version number of at least 1")
    return Operation(
        key=key,
        op=op,
        target=target,
        field=field,
        value=raw.get("value"),
        base_version=version,
        made_from=raw.get("from", UNSET),
    )


def _kind_of(army: Army, item_id: str) -> str:
    """Whether ``item_id`` names a unit or a general of the army (ItemGone: neither)."""
    for kind in ("units", "generals"):
        try:
            index_of(army.document, kind, item_id)
        except ItemGone:
            continue
        return kind
    raise ItemGone(f"no unit or general {item_id!r}")


@dataclass(frozen=True)
class SetValue:
    """``set``: one value of the army or of one unit or general, made from ``made_from``."""

    target: str
    field: str
    value: Any
    made_from: Any = UNSET

    def __call__(self, army: Army) -> Change:
        if self.target == "army":
            return self._setting(army)
        kind = _kind_of(army, self.target)
        ruleset = ruleset_of(army)
        chosen = next((f for f in item_fields(ruleset, kind) if f.name == self.field), None)
        if chosen is None:
            raise ItemNotFound(f"no field {self.field!r}")
        now = index_of(army.document, kind, self.target)
        document = working_copy(army)
        items = items_of(document, kind)
        current = items[now] if isinstance(items[now], dict) else {}
        old = current.get(self.field)
        label = f"{current.get('name') or kind[:-1]}: {chosen.label}"
        changes.check_conflict(army, self.field, label, self.made_from, old, self.value)
        items[now] = {**current, self.field: self.value}
        note = RevisionNote(
            f"{label} {changes.shown(old)} → {changes.shown(self.value)}",
            target=kind, index=now, item_id=self.target, field=self.field,
        )  # fmt: skip
        if old == self.value:
            return Change(None, note, index=now)
        adjusted: list[str] = []
        if kind == "units":
            adjusted = edits.follow_ups(ruleset, current, items[now])
        elif self.field == "name":
            edits.follow_renamed_general(document, old, self.value)
        return Change(document, note, tuple(adjusted), now)

    def _setting(self, army: Army) -> Change:
        ruleset = ruleset_of(army)
        if self.field in changes.SETTINGS:
            label = changes.SETTINGS[self.field]
        elif self.field.startswith("options.") and self.field[8:] in {
            f.name for f in ruleset.options
        }:
            label = f"Option {ruleset.option_field(self.field[8:]).label}"
        else:
            raise ItemNotFound(f"no setting {self.field!r}")
        old = get_value(army.document, "army", None, self.field)
        changes.check_conflict(army, self.field, label, self.made_from, old, self.value)
        note = RevisionNote(
            f"{label}: {changes.shown(old)} → {changes.shown(self.value)}", field=self.field
        )
        if old == self.value:
            return Change(None, note)
        return Change(with_value(working_copy(army), "army", None, self.field, self.value), note)


@dataclass(frozen=True)
class Remove:
    """``delete``: the unit or general ``target``."""

    target: str

    def __call__(self, army: Army) -> Change:
        return edits.delete_item(_kind_of(army, self.target), self.target)(army)


@dataclass(frozen=True)
class Move:
    """``move``: the unit or general ``target`` one place up (-1) or down (+1)."""

    target: str
    delta: int

    def __call__(self, army: Army) -> Change:
        return edits.move_item(_kind_of(army, self.target), self.target, self.delta)(army)


@dataclass(frozen=True)
class Copy:
    """``duplicate``: a copy of ``target`` after it, with the id ``new_id`` (or a new one)."""

    target: str
    new_id: str | None = None

    def __call__(self, army: Army) -> Change:
        change = edits.duplicate_item(_kind_of(army, self.target), self.target)(army)
        return _named(change, self.new_id)


@dataclass(frozen=True)
class Add:
    """``add``: a unit from ``preset`` (or a general) at the end, with the id ``new_id``."""

    kind: str
    preset: str = "blank"
    new_id: str | None = None
    base_version: int | None = None

    def __call__(self, army: Army) -> Change:
        # an add applies to the army as it is: any version the army had will do
        change = edits.add_item(self.kind, self.base_version or army.version, self.preset)(army)
        return _named(change, self.new_id)


def _named(change: Change, new_id: str | None) -> Change:
    """The change with the item it added given the id the page chose for it (the parser
    refuses it, naming the path, if another item of the army has it)."""
    note = change.note
    if new_id is None or change.document is None or note.op != "add" or note.index is None:
        return change
    items = change.document[note.target]
    added = items[note.index]
    items[note.index] = {"id": new_id, **{k: v for k, v in added.items() if k != "id"}}
    return change


def _item_id(value: Any, path: str) -> str | None:
    found = value.get("id") if isinstance(value, Mapping) else None
    if found is None:
        return None
    if not isinstance(found, str) or not ID_PATTERN.fullmatch(found):
        raise BadOperation(f"{path}.value.id: 1 to 32 letters, digits, '-' or '_'")
    return found


def edit_of(operation: Operation) -> Edit:
    """The command an operation is: a small dataclass the pipeline calls with the army."""
    op, target, value = operation.op, operation.target, operation.value
    path = f"operation {operation.key}"
    if op in ("delete", "move", "duplicate") and target == "army":
        raise BadOperation(f"{path}: {op} names the unit or general it is made on")
    if op == "set":
        return SetValue(target, operation.field, value, operation.made_from)
    if op == "delete":
        return Remove(target)
    if op == "move":
        if value not in ("up", "down"):
            raise BadOperation(f"{path}.value: up or down")
        return Move(target, -1 if value == "up" else 1)
    if op == "duplicate":
        return Copy(target, _item_id(value, path))
    if op == "add":
        kind = operation.field or "units"
        if kind not in ("units", "generals"):
            raise BadOperation(f"{path}.field: units or generals")
        preset = value.get("preset", "blank") if isinstance(value, Mapping) else "blank"
        if not isinstance(preset, str):
            raise BadOperation(f"{path}.value.preset: a preset key")
        return Add(kind, preset, _item_id(value, path), operation.base_version)
    if op == "settings":
        if not isinstance(value, Mapping):
            raise BadOperation(f"{path}.value: the settings form's values")
        return edits.update_settings(dict(value), operation.base_version)
    return Roll(operation.base_version)


@dataclass(frozen=True)
class Roll:
    """``roll``: the units replaced with a force rolled on the rule set's matrix."""

    base_version: int | None = None

    def __call__(self, army: Army) -> Change:
        return edits.roll_force(self.base_version or army.version)(army)


def outcome_of(army: Army, key: str, exc: Exception) -> Outcome:
    """The one mapping from a refused change to what the page is told."""
    if isinstance(exc, FieldConflict):
        return Outcome(key, "conflict", f"{exc.label} was changed elsewhere", theirs=exc.theirs)
    if isinstance(exc, ItemGone):
        return Outcome(key, "gone", "that unit was deleted elsewhere; nothing was changed")
    if isinstance(exc, StaleVersion):
        return Outcome(key, "stale", "the army changed since this form was drawn")
    if isinstance(exc, ItemNotFound | NothingToUndo):
        return Outcome(key, "refused", str(exc))
    if isinstance(exc, MalformedDocument):
        return Outcome(key, "refused", friendly_message(exc, army.document))
    if isinstance(exc, BadOperation):
        return Outcome(key, "refused", exc.message)
    raise exc


def apply_operations(army: Army, operations: list[Operation]) -> tuple[Army, list[Outcome]]:
    """Apply ``operations`` in order, each once (its key remembered with its change in one
    transaction); a refused one changes nothing and the next is applied all the same."""
    outcomes = []
    for operation in operations:
        try:
            edit = edit_of(operation)
            with saving.once(army, operation.key) as fresh:
                if not fresh:
                    outcomes.append(Outcome(operation.key, "duplicate", version=army.version))
                    continue
                checked = editing.apply_edit(army, edit)
        except (FieldConflict, ItemGone, StaleVersion, ItemNotFound, NothingToUndo,
                MalformedDocument, BadOperation) as exc:  # fmt: skip
            outcomes.append(outcome_of(army, operation.key, exc))
            continue
        army = checked.army
        value = None
        if operation.op == "set":
            value = _value_now(army, operation)
        outcomes.append(Outcome(operation.key, "applied", value=value, version=army.version))
    return army, outcomes


def _value_now(army: Army, operation: Operation) -> Any:
    if operation.target == "army":
        return get_value(army.document, "army", None, operation.field)
    kind = _kind_of(army, operation.target)
    return get_value(
        army.document, kind, index_of(army.document, kind, operation.target), operation.field
    )
