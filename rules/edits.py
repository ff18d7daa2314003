"""The builder's changes to an army document, as plain functions of the document.

One copy for both: the server's commands (``armies.changes.commands``) make each saved
change with these, and the page's engine (``rules.page.builder``) applies the changes the
page has not had answered yet with the same functions, so the army the page checks is the
army the server will save. Nothing here reads a database or checks anything: each
function answers a new document (the top level and the changed list copied, the other
items shared, never edited in place) for the parser and the check to judge.

A unit or general is named by its stable id (``find``), never its place.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from rules.base import RuleSet

KINDS = ("units", "generals")


class NoSuchItem(LookupError):
    """No unit or general with that id in the document (or no such kind)."""


def working_copy(document: Mapping[str, Any]) -> dict[str, Any]:
    """A copy to change: the top level and both item lists are new, the items shared (a
    change replaces an item, never edits it). Much cheaper than a deep copy."""
    found = dict(document)
    for kind in KINDS:
        if isinstance(found.get(kind), list):
            found[kind] = list(found[kind])
    return found


def items_in(document: dict[str, Any], kind: str) -> list[Any]:
    """The document's list of ``kind`` (made when missing); NoSuchItem: not a list."""
    if kind not in KINDS:
        raise NoSuchItem(kind)
    items = document.setdefault(kind, [])
    if not isinstance(items, list):
        raise NoSuchItem(kind)
    return items


def find(document: Mapping[str, Any], item_id: str) -> tuple[str, int]:
    """The kind and place of the unit or general with ``item_id`` (NoSuchItem: neither)."""
    for kind in KINDS:
        items = document.get(kind) if item_id else None
        for i, item in enumerate(items if isinstance(items, list) else ()):
            if isinstance(item, dict) and item.get("id") == item_id:
                return kind, i
    raise NoSuchItem(f"no unit or general {item_id!r}")


def follow_ups(ruleset: RuleSet, before: Mapping[str, Any], after: dict[str, Any]) -> list[str]:
    """Where a digest says "the builder sets it for the user": when a change turns a field
    to a value, the builder also sets the values that must go with it (the check still
    fires if the player changes them back afterwards)."""
    adjusted: list[str] = []
    for name, value, then in ruleset.follow_ups:
        if after.get(name) == value and before.get(name) != value:
            for key, wanted in then.items():
                if after.get(key) != wanted:
                    after[key] = wanted
                    adjusted.append(key)
    return adjusted


def follow_renamed_general(document: dict[str, Any], old: Any, new: Any) -> None:
    """Units in a renamed general's division follow the new name (the division is a name)."""
    if not isinstance(old, str) or not isinstance(new, str) or old.strip() == new.strip():
        return
    if not new.strip():
        return
    units = document.get("units", [])
    for i, unit in enumerate(units):
        if isinstance(unit, dict) and unit.get("division") == old:
            units[i] = {**unit, "division": new.strip()}


def set_item_value(
    ruleset: RuleSet, document: Mapping[str, Any], kind: str, index: int, field: str, value: Any
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """``document`` with one field of ``kind[index]`` set, and the fields the builder set
    along with it (``follow_ups``); a renamed general's division follows it."""
    changed = working_copy(document)
    items = items_in(changed, kind)
    current = items[index] if isinstance(items[index], dict) else {}
    old = current.get(field)
    items[index] = {**current, field: value}
    adjusted: list[str] = []
    if kind == "units":
        adjusted = follow_ups(ruleset, current, items[index])
    elif field == "name":
        follow_renamed_general(changed, old, value)
    return changed, tuple(adjusted)


def army_value(document: Mapping[str, Any], field: str) -> Any:
    """An army setting's value (``options.<name>`` for an option), or an item's field's:
    the value at a dotted path of any mapping."""
    holder: Any = document
    for part in field.split("."):
        holder = holder.get(part) if isinstance(holder, Mapping) else None
    return holder


def set_army_value(document: Mapping[str, Any], field: str, value: Any) -> dict[str, Any]:
    """``document`` with one army setting set (dotted for an option: ``options.x``), or an
    item with one field set: copied along the path only."""
    changed = dict(document)
    holder = changed
    parts = field.split(".")
    for part in parts[:-1]:
        inner = holder.get(part)
        holder[part] = dict(inner) if isinstance(inner, dict) else {}
        holder = holder[part]
    holder[parts[-1]] = value
    return changed


def add_item(
    document: Mapping[str, Any], kind: str, item: Mapping[str, Any], new_id: str | None
) -> tuple[dict[str, Any], int]:
    """``document`` with ``item`` at the end of ``kind`` (with the id ``new_id`` the page
    chose, when it chose one), and its place."""
    changed = working_copy(document)
    items = items_in(changed, kind)
    made = dict(item)
    if new_id is not None:  # the parser refuses it, naming the path, if taken
        made = {"id": new_id, **made}
    items.append(made)
    return changed, len(items) - 1


def new_general(document: Mapping[str, Any]) -> dict[str, Any]:
    """A general as "Add a general" makes it: the rule set's defaults, named by its place."""
    items = document.get("generals")
    return {"name": f"General {len(items) + 1 if isinstance(items, list) else 1}"}


def replace_item(
    document: Mapping[str, Any], kind: str, index: int, item: Mapping[str, Any]
) -> dict[str, Any]:
    """``document`` with ``kind[index]`` replaced by ``item`` (a stand-in's unit)."""
    changed = working_copy(document)
    items_in(changed, kind)[index] = dict(item)
    return changed


def duplicate_item(
    document: Mapping[str, Any], kind: str, index: int, new_id: str | None
) -> tuple[dict[str, Any], int]:
    """``document`` with a copy of ``kind[index]`` right after it, with an id of its own
    (``new_id``), and the copy's place."""
    changed = working_copy(document)
    items = items_in(changed, kind)
    copied = copy.deepcopy(items[index])
    if isinstance(copied, dict):
        copied.pop("id", None)
        if new_id is not None:
            copied = {"id": new_id, **copied}
    items.insert(index + 1, copied)
    return changed, index + 1


def move_item(
    document: Mapping[str, Any], kind: str, index: int, delta: int
) -> tuple[dict[str, Any], int]:
    """``document`` with ``kind[index]`` ``delta`` places on (at an end it stays), and its
    place now."""
    changed = working_copy(document)
    items = items_in(changed, kind)
    to = min(max(index + delta, 0), len(items) - 1)
    items.insert(to, items.pop(index))
    return changed, to


def delete_item(document: Mapping[str, Any], kind: str, index: int) -> tuple[dict[str, Any], Any]:
    """``document`` without ``kind[index]``, and the item taken out."""
    changed = working_copy(document)
    gone = items_in(changed, kind).pop(index)
    return changed, gone
