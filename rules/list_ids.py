"""Stable ids of an army list's items: what the list editor's operations name an item by.

Every object kept in a list inside a list's data (an entry, a limit, a replacement, a
choice group and each of its options) carries an ``id``: short, random, unique in the
list, never changed once given and never shown to a player. An item's ``key`` is the
author's (armies name entries by it, and the author may rename it); its ``id`` is the
editor's, so an edit reaches its item whatever was renamed, added or removed meanwhile.

Ids are given when a list is saved (an import, a new item, Muster's loader) and by the
data migration that gave the lists of before theirs; reading a list never writes one.
A document's ids are kept on export and import (``docs/list-format-ids.md``).
"""

from __future__ import annotations

import copy
import re
import secrets
from collections.abc import Callable, Iterator, Mapping
from typing import Any

ID = "id"
_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"  # as army unit ids: no 0/o, 1/l
_FORM = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")


def new_id() -> str:
    """A fresh random id (40 bits: unique within one list by a wide margin)."""
    return "i" + "".join(secrets.choice(_ALPHABET) for _ in range(8))


def items_in(data: Any) -> Iterator[dict[str, Any]]:
    """Every item of the data: each object kept in a list, at any depth, outer first."""
    if isinstance(data, Mapping):
        for value in data.values():
            yield from items_in(value)
    elif isinstance(data, list):
        for value in data:
            if isinstance(value, dict):
                yield value
            yield from items_in(value)


def with_ids(data: Any, make: Callable[[], str] = new_id) -> Any:
    """A copy of ``data`` where every item without an id (or with a repeated one) has a
    fresh one; ids already there are kept."""
    data = copy.deepcopy(data)
    taken = {item.get(ID) for item in items_in(data) if isinstance(item.get(ID), str)}
    seen: set[str] = set()
    for item in items_in(data):
        given = item.get(ID)
        if isinstance(given, str) and _FORM.fullmatch(given) and given not in seen:
            seen.add(given)
            continue
        fresh = make()
        while fresh in taken or fresh in seen:
            fresh = make()
        item[ID] = fresh
        seen.add(fresh)
    return data


def carried(data: Any, earlier: Any) -> Any:
    """A copy of ``data`` whose items without an id take the id of the item in the same
    place of ``earlier`` (the same list of the same holder, with the same ``key``; by
    position for items without one): a list saved again from a file without ids (Muster's
    own lists, loaded again) keeps the ids its items already have."""
    data = copy.deepcopy(data)
    known = {slot: item[ID] for slot, item in _slots(earlier) if isinstance(item.get(ID), str)}
    used = {item.get(ID) for _, item in _slots(data)}
    for slot, item in _slots(data):
        found = known.get(slot)
        if ID not in item and found is not None and found not in used:
            item[ID] = found
            used.add(found)
    return data


def _slots(data: Any, where: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], dict]]:
    """(place, item) of every item: the keys leading to its list, its holders' keys, and
    its own key (else its position)."""
    if isinstance(data, Mapping):
        for name, value in data.items():
            yield from _slots(value, (*where, str(name)))
    elif isinstance(data, list):
        for n, value in enumerate(data):
            if isinstance(value, dict):
                key = value.get("key")
                own = (*where, f"key:{key}" if isinstance(key, str) else f"#{n}")
                yield own, value
                yield from _slots(value, own)


def id_problems(data: Any) -> list[str]:
    """What is wrong with the ids of a list's data (an id is optional in a document)."""
    problems = []
    seen: set[str] = set()
    for item in items_in(data):
        if ID not in item:
            continue
        given = item[ID]
        if not isinstance(given, str) or not _FORM.fullmatch(given):
            problems.append(
                f"id: {given!r} is not an item id: lower-case letters, digits, hyphens and "
                "underscores, at most 40 characters"
            )
        elif given in seen:
            problems.append(f"id: {given!r} is used by two items of the list")
        else:
            seen.add(given)
    return problems


def find(data: Any, item_id: str) -> tuple[list[Any], int] | None:
    """(the list holding the item, its place in it) of the item with this id, or None."""
    return _find(data, item_id) if item_id else None


def _find(data: Any, item_id: str) -> tuple[list[Any], int] | None:
    if isinstance(data, Mapping):
        for value in data.values():
            found = _find(value, item_id)
            if found is not None:
                return found
    elif isinstance(data, list):
        for n, value in enumerate(data):
            if isinstance(value, dict) and value.get(ID) == item_id:
                return data, n
            found = _find(value, item_id)
            if found is not None:
                return found
    return None
