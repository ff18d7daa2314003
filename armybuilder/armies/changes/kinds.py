"""The kinds of operation an army takes, one handler each in the operation kernel's table
(``armybuilder.operations.kinds``, subject ``"army"``): ``parse`` reads an operation
(``operations.Operation``, its envelope already read) into the command it is, a small
dataclass of ``commands`` or ``history.rewind``; ``apply`` runs that command through the
one pipeline (``pipeline.run``), with the operation's key kept on the revision. A new
kind is one parse function registered here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from armybuilder.armies.changes import commands, pipeline
from armybuilder.armies.changes.saving import SUBJECT
from armybuilder.armies.documents import Checked
from armybuilder.armies.history import rewind
from armybuilder.armies.models import Army
from armybuilder.jsonbody import BadOperation
from armybuilder.operations import kinds
from rules.document import ID_PATTERN


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
    kinds.register(SUBJECT, _kind, kinds.Handler(_parse, _apply))
