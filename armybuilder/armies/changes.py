"""The builder's change protocol: one field at a time, never lost, never on the wrong unit.

A change names what it changes (an army setting, or unit/general N's field), the value it
was made from (``_from``, JSON) and the version of the page it was made on. The server
applies it to the army as it is now unless that same field changed since (its value is no
longer the one the change was made from): then ``FieldConflict`` carries both values and
the player chooses. Changes to different fields, from two tabs, both land. The unit is
followed across other tabs' adds, deletes and moves (``revisions.current_index``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.http import QueryDict

from armybuilder.armies import services
from armybuilder.armies.controls import PREFIX, as_text, values_from_post
from armybuilder.armies.models import Army, Revision
from armybuilder.armies.revisions import (
    RevisionNote,
    current_index,
    document_at,
    get_value,
    undo_document,
    undoable,
    with_value,
)
from armybuilder.armies.services import Checked, ItemNotFound, StaleVersion
from rules.errors import MalformedDocument

SETTINGS = {
    "name": "Army name",
    "army_list": "Army list",
    "points_limit": "Points limit",
    "notes": "Notes",
}
RETRIES = 3
UNSET = object()


@dataclass(frozen=True)
class FieldConflict(Exception):
    """The field changed since the change was made from it: both values, for a choice."""

    army: Army
    field: str
    label: str
    theirs: Any
    yours: Any

    @property
    def theirs_text(self) -> str:
        return shown(self.theirs)

    @property
    def yours_text(self) -> str:
        return shown(self.yours)

    @property
    def theirs_json(self) -> str:
        return json.dumps(self.theirs)


def shown(value: Any) -> str:
    """A value as a player reads it in a conflict message."""
    if value is None or value == "":
        return "(empty)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(as_text(v) for v in value) or "(none)"
    if isinstance(value, dict):
        return ", ".join(f"{k} {as_text(v)}" for k, v in value.items())
    return as_text(value)


def parse_from(text: str | None) -> Any:
    """The posted ``_from`` (JSON), or UNSET when the change was not made from a value."""
    if text is None:
        return UNSET
    try:
        return json.loads(text)
    except ValueError:
        raise MalformedDocument("_from", "_from: not a JSON value") from None


def _only(data: QueryDict | Mapping[str, Any], name: str) -> dict[str, list[str]]:
    """The posted values of one control (and its sub-controls), nothing else."""
    keep: dict[str, list[str]] = {}
    for key in data:
        if key == name or key.startswith(name + "."):
            values = data.getlist(key) if isinstance(data, QueryDict) else data[key]
            keep[key] = list(values) if isinstance(values, list | tuple) else [str(values)]
    return keep


def change_setting(
    army: Army, field: str, data: QueryDict | Mapping[str, Any], made_from: Any
) -> Checked:
    """Change one army setting (``name``, ``army_list``, ``points_limit``, ``notes`` or
    ``options.<name>``) on the army as it is now."""
    ruleset = services.ruleset_of(army)
    if field in SETTINGS:
        label, posted = SETTINGS[field], _only(data, field)
    elif field.startswith("options.") and field[8:] in {f.name for f in ruleset.options}:
        option = ruleset.option_field(field[8:])
        label, posted = f"Option {option.label}", _only(data, PREFIX + option.name)
    else:
        raise ItemNotFound(f"no setting {field!r}")
    if not posted:
        raise MalformedDocument(field, f"{field}: no value was sent")
    for _ in range(RETRIES):
        document = services.settings_document(army, _querydict(posted))
        old = get_value(army.document, "army", None, field)
        new = get_value(document, "army", None, field)
        _check_conflict(army, field, label, made_from, old, new)
        if old == new and document == army.document:
            return services.check_army(army)
        summary = f"{label}: {shown(old)} → {shown(new)}"
        note = RevisionNote(summary, field=field)
        try:
            return services.save_document(army, document, army.version, note)
        except StaleVersion as exc:  # another request landed in between: redo on it
            army = exc.army
    raise StaleVersion(army)


def change_item_field(
    army: Army,
    kind: str,
    index: int,
    field: str,
    data: QueryDict | Mapping[str, Any],
    made_from: Any,
    base_version: int | None,
) -> tuple[Checked, int]:
    """Change one field of unit/general ``index`` as it was on the page at ``base_version``.

    Returns the result and the item's index now. ``revisions.ItemGone`` when that item
    is no longer there.
    """
    ruleset = services.ruleset_of(army)
    fields = services._item_fields(ruleset, kind)
    chosen = next((f for f in fields if f.name == field), None)
    if chosen is None:
        raise ItemNotFound(f"no field {field!r}")
    posted = _only(data, PREFIX + field)
    if not posted:
        raise MalformedDocument(field, f"{field}: no value was sent")
    for _ in range(RETRIES):
        now = current_index(army, kind, index, base_version)
        document = services._working_copy(army)
        items = services._items(document, kind)
        services._index(items, now)
        current = items[now] if isinstance(items[now], dict) else {}
        path = f"{kind}[{now}]"
        items[now] = values_from_post((chosen,), _querydict(posted), current, path)
        old, new = current.get(field), items[now].get(field)
        label = f"{current.get('name') or kind[:-1]}: {chosen.label}"
        _check_conflict(army, field, label, made_from, old, new)
        if old == new:
            return services.check_army(army), now
        adjusted: list[str] = []
        if kind == "units":
            adjusted = services._follow_ups(ruleset, current, items[now])
        else:
            services._follow_renamed_general(document, old if field == "name" else None, new)
        summary = f"{label} {shown(old)} → {shown(new)}"
        note = RevisionNote(summary, target=kind, index=now, field=field)
        try:
            checked = services.save_document(army, document, army.version, note)
        except StaleVersion as exc:
            army = exc.army
            continue
        return (replace(checked, adjusted=tuple(adjusted)) if adjusted else checked), now
    raise StaleVersion(army)


def _check_conflict(army: Army, field: str, label: str, made_from: Any, old: Any, new: Any) -> None:
    """Same field changed since the change was made, to something else: the player chooses."""
    if made_from is UNSET or made_from == old or new == old:
        return
    raise FieldConflict(army, field, label, theirs=old, yours=new)


def _querydict(posted: Mapping[str, list[str]]) -> QueryDict:
    result = QueryDict(mutable=True)
    for key, values in posted.items():
        result.setlist(key, values if isinstance(values, list) else [values])
    return result


# -- undo and history ----------------------------------------------------------------------


class NothingToUndo(LookupError):
    """No change left to undo (or the one named is no longer the latest)."""


def undo(army: Army, revision_pk: int | None = None) -> tuple[Checked, Revision]:
    """Take back the newest change not yet undone (``revision_pk``: only if it is that one)."""
    for _ in range(RETRIES):
        revision = undoable(army, revision_pk)
        if revision is None:
            raise NothingToUndo("nothing to undo" if revision_pk is None else "not the latest")
        document, note = undo_document(army, revision)
        try:
            return services.save_document(army, document, army.version, note), revision
        except StaleVersion as exc:
            army = exc.army
    raise StaleVersion(army)


def restore(army: Army, version: int) -> Checked:
    """Make the army what it was at ``version`` (a new change: it can be undone too)."""
    document = document_at(army, version)
    note = RevisionNote(f"Restored version {version}", op="replace")
    return services.save_document(army, document, army.version, note)


__all__ = ["FieldConflict", "change_item_field", "change_setting", "parse_from", "with_value"]
