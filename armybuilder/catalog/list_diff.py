"""What changed between two revisions of an army list, entry by entry, for any rule set.

Each rule set has its own list shape, so entries are found by shape rather than by name:
an object with a ``key`` inside a top-level list is an entry (``entries:huscarls``), and
so is an object with a ``key`` inside such an entry's own list (a choice group's options:
``choices:support/options:militia``); objects without a key are named by position, or by
``from``/``to`` when they have them (a force-matrix replacement); any other top-level value
is one entry of its own (``columns``, ``schiltrons``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class EntryChange:
    entry: str  # the entry's path-like id, e.g. "entries:huscarls"
    label: str  # what a player reads: the entry's name, else its id
    change: str  # "added" | "removed" | "changed"
    fields: Mapping[str, tuple[Any, Any]] = field(default_factory=dict)  # name -> (before, after)

    def to_json(self) -> dict[str, Any]:
        return {
            "entry": self.entry,
            "label": self.label,
            "change": self.change,
            "fields": {
                name: {"before": before, "after": after}
                for name, (before, after) in self.fields.items()
            },
        }


def _item_id(prefix: str, n: int, item: Mapping[str, Any]) -> str:
    if isinstance(item.get("key"), str):
        return f"{prefix}:{item['key']}"
    if isinstance(item.get("from"), str) and isinstance(item.get("to"), str):
        return f"{prefix}:{item['from']}->{item['to']}"
    return f"{prefix}[{n}]"


def _is_entry_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(i, Mapping) for i in value)


def entries(data: Any) -> dict[str, dict[str, Any]]:
    """``{entry id: its fields}`` of one list's data (nested entry lists pulled out)."""
    found: dict[str, dict[str, Any]] = {}
    if not isinstance(data, Mapping):
        return {"data": {"value": data}}
    for key, value in data.items():
        if _is_entry_list(value):
            _collect(found, str(key), value)
        else:
            found[str(key)] = {"value": value}
    return found


def _collect(found: dict[str, dict[str, Any]], prefix: str, items: list[Any]) -> None:
    for n, item in enumerate(items):
        ident = _item_id(prefix, n, item)
        own: dict[str, Any] = {}
        for name, value in item.items():
            if _is_entry_list(value) and any(isinstance(i.get("key"), str) for i in value):
                _collect(found, f"{ident}/{name}", value)
            else:
                own[str(name)] = value
        found[ident] = own


def _label(ident: str, fields: Mapping[str, Any]) -> str:
    name = fields.get("name")
    return name if isinstance(name, str) and name else ident


def diff_lists(before: Any, after: Any) -> list[EntryChange]:
    """Entry by entry: removed and changed entries in the old order, then the added ones."""
    old, new = entries(before), entries(after)
    changes = []
    for ident, fields in old.items():
        if ident not in new:
            changes.append(EntryChange(ident, _label(ident, fields), "removed"))
            continue
        other = new[ident]
        changed = {
            name: (fields.get(name), other.get(name))
            for name in (*fields, *(n for n in other if n not in fields))
            if fields.get(name) != other.get(name) or (name in fields) != (name in other)
        }
        if changed:
            changes.append(EntryChange(ident, _label(ident, other), "changed", changed))
    for ident, fields in new.items():
        if ident not in old:
            changes.append(EntryChange(ident, _label(ident, fields), "added"))
    return changes
