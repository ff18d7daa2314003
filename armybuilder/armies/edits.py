"""What each builder change does to a document, written as a step of one pipeline.

A change here is an ``Edit``: given the army as it is (the latest row when writers
raced), it answers the ``Change`` to save (the new document, the revision note and what
the builder set along with it), or raises ``StaleVersion`` (the page is too old for a
whole-form change), ``ItemNotFound`` or ``rules.MalformedDocument``. It reads no more
than it needs and writes nothing: ``armies.editing.apply_edit`` runs it, checks the
result, saves it with its revision and remembers the check.
"""

from __future__ import annotations

import copy
import json
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.http import QueryDict

import rules
from armybuilder.armies.controls import values_from_post
from armybuilder.armies.documents import (
    ItemNotFound,
    StaleVersion,
    item_fields,
    item_name,
    items_of,
    ruleset_of,
    working_copy,
)
from armybuilder.armies.models import Army
from armybuilder.armies.revisions import ItemGone, RevisionNote, index_of
from armybuilder.catalog.selectors import army_lookup, get_list
from rules.base import EntryStatus, RuleSet
from rules.errors import MalformedDocument
from rules.fields import Field


@dataclass(frozen=True)
class Change:
    """A change ready to check and save. ``document`` None: the army stays as it is."""

    document: dict[str, Any] | None
    note: RevisionNote
    adjusted: tuple[str, ...] = ()
    index: int | None = None  # a change to one item: its index now


Edit = Callable[[Army], Change]


def known_version(army: Army, version: int | None) -> None:
    """A change that adds or replaces (never edits an item by index) only needs a page
    version the army has had; it applies to the army as it is now."""
    if version is None or not 1 <= version <= army.version:
        raise StaleVersion(army)


def require_version(army: Army, version: int | None) -> None:
    """A whole-form change (every control of a card, or the settings form) is only
    applied to the version it was drawn from: it would otherwise put back stale values."""
    if version is None or army.version != version:
        raise StaleVersion(army)


def follow(army: Army, kind: str, item_id: str) -> int:
    """The index now of the item with ``item_id``, wherever other tabs moved it;
    StaleVersion (409, the army as it is now) when another tab deleted it."""
    try:
        return index_of(army.document, kind, item_id)
    except ItemGone:
        raise StaleVersion(army) from None


# Where a digest says "the builder sets it for the user": when an edit turns ``field`` to
# ``value``, the builder also sets the values that must go with it. The check still fires
# if the player changes them back afterwards (or imports a document that breaks it).
def follow_ups(ruleset: RuleSet, before: Mapping[str, Any], after: dict[str, Any]) -> list[str]:
    adjusted: list[str] = []
    for field, value, then in ruleset.follow_ups:
        if after.get(field) == value and before.get(field) != value:
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


def edit_item(
    kind: str, item_id: str, data: QueryDict | Mapping[str, Any], version: int | None
) -> Edit:
    """Every posted control of one unit (or general): the card's form without JavaScript."""

    def apply(army: Army) -> Change:
        require_version(army, version)
        ruleset = ruleset_of(army)
        fields = item_fields(ruleset, kind)
        document = working_copy(army)
        items = items_of(document, kind)
        index = located(army, kind, item_id)
        current = items[index] if isinstance(items[index], dict) else {}
        items[index] = values_from_post(fields, data, current, f"{kind}[{index}]")
        items[index] = {"id": item_id, **items[index]}  # the form never changes the id
        adjusted: list[str] = []
        if kind == "units":
            adjusted = follow_ups(ruleset, current, items[index])
        if kind == "generals":
            follow_renamed_general(document, current.get("name"), items[index].get("name"))
        changed = [k for k in items[index] if items[index].get(k) != current.get(k)]
        one = changed[0] if len(changed) == 1 else ""
        note = RevisionNote(
            f"Edited {item_name(items[index])}" + (f": {one}" if one else ""),
            op="edit",
            target=kind,
            index=index,
            item_id=item_id,
            field=one,  # one field: a small revision
        )
        return Change(document, note, tuple(adjusted), index)

    return apply


@dataclass(frozen=True)
class Preset:
    """A way to add a unit: blank, one of the rule set's unit types, or a list entry."""

    key: str
    label: str
    group: str
    values: Mapping[str, Any]


def presets(ruleset: RuleSet, list_data: Mapping[str, Any] | None) -> list[Preset]:
    """What the "Add unit" menu offers, built from the vocabulary and the army list."""
    found = [Preset("blank", "Blank unit (rule set defaults)", "", {})]
    fields = _unit_fields(ruleset)
    kind_field = next(
        (fields[n] for n in ("type", "arm", "class") if n in fields and fields[n].choices), None
    )
    if kind_field is not None:
        for choice in kind_field.choices:
            if choice.value is None:
                continue
            found.append(
                Preset(
                    f"type:{as_key(choice.value)}",
                    choice.label,
                    f"{kind_field.label}s of {ruleset.title}",
                    {kind_field.name: choice.value, "name": choice.label},
                )
            )
    list_entries = getattr(ruleset, "list_entries", None)
    if list_entries is not None:  # rules' list-aware interface: stable entry keys
        for entry in list_entries(list_data, None):
            found.append(
                Preset(
                    f"entry:{entry.key}",
                    entry.label,
                    entry.group or "From the army list",
                    _known(entry.values, fields),
                )
            )
        return found
    for i, (label, values) in enumerate(ruleset.unit_presets(list_data)):
        found.append(Preset(f"entry:{i}", label, "From the army list", _known(values, fields)))
    return found


def _known(values: Mapping[str, Any], fields: Mapping[str, Field]) -> dict[str, Any]:
    """A preset's values for the unit's own fields only (the parser refuses any other key)."""
    return {k: v for k, v in values.items() if k in fields}


def as_key(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else value


def _list_data(army: Army, slug: Any) -> Mapping[str, Any] | None:
    if not slug:
        return None
    found = get_list(army.ruleset, slug)
    return found.data if found else None


def add_item(kind: str, version: int | None, preset_key: str = "blank") -> Edit:
    """Add a unit from a preset (or a general with the rule set's defaults), at the end."""

    def apply(army: Army) -> Change:
        known_version(army, version)
        ruleset = ruleset_of(army)
        item_fields(ruleset, kind)
        document = working_copy(army)
        items = items_of(document, kind)
        if kind == "units":
            list_data = _list_data(army, document.get("army_list"))
            if preset_key.startswith("entry:"):
                parsed = _parsed(army)
                entry = _list_entry(ruleset, list_data, parsed, preset_key)
                if entry.replaces and parsed is not None:
                    return _replaced(document, items, entry, _unit_fields(ruleset))
                item = _known(entry.values, _unit_fields(ruleset))
            else:
                chosen = {p.key: p for p in presets(ruleset, list_data)}.get(preset_key)
                if chosen is None:
                    raise ItemNotFound(f"no preset {preset_key!r}")
                item = dict(chosen.values)
            item.setdefault("name", f"Unit {len(items) + 1}")
        else:
            item = {"name": f"General {len(items) + 1}"}
        position = len(items)
        items.insert(position, item)
        what = "unit" if kind == "units" else "general"
        summary = f"Added {what} {item.get('name')}"
        return Change(document, RevisionNote(summary, op="add", target=kind, index=position))

    return apply


def _unit_fields(ruleset: RuleSet) -> dict[str, Field]:
    return {f.name: f for f in ruleset.unit_fields}


def _parsed(army: Army) -> rules.Army | None:
    """The army as the engine reads it (None if it does not read: no army-aware entries)."""
    try:
        return rules.parse_document(army.document, army_lookup(army))
    except rules.MalformedDocument:
        return None


def _list_entry(
    ruleset: RuleSet,
    list_data: Mapping[str, Any] | None,
    parsed: rules.Army | None,
    preset_key: str,
) -> EntryStatus:
    """The list entry ``preset_key`` (``entry:<key>``) names, read with the army as it
    stands: allies from the other lists, a stand-in and the unit it would replace."""
    for entry in ruleset.list_entries(list_data, parsed):
        if f"entry:{entry.key}" == preset_key:
            return entry
    raise ItemNotFound(f"no preset {preset_key!r}")


def _replaced(
    document: dict[str, Any], items: list[Any], entry: EntryStatus, fields: Mapping[str, Field]
) -> Change:
    """One unit of the type ``entry`` stands in for becomes that entry's unit, in its place:
    one revision, which undo takes back."""
    at = entry.replace_index
    if at is None or not 0 <= at < len(items):
        raise MalformedDocument(
            "units",
            f"{entry.label}: the army has no {entry.replaces} to replace; add "
            f"{entry.replaces} first, or add the unit on its own.",
        )
    old = item_name(items[at])
    items[at] = dict(_known(entry.values, fields))
    summary = f"Replaced {old} with {entry.values.get('name') or entry.label}"
    return Change(document, RevisionNote(summary, target="units", index=at), index=at)


def located(army: Army, kind: str, item_id: str) -> int:
    """The index of the item ``item_id`` in the army (ItemNotFound: 404, no such item)."""
    try:
        return index_of(army.document, kind, item_id)
    except ItemGone:
        raise ItemNotFound(f"no {kind[:-1]} {item_id!r}") from None


def duplicate_item(kind: str, item_id: str, version: int | None = None) -> Edit:
    """A copy of the item after it. ``version``, when the page sends one, must be one the
    army has had (a page from nowhere is stale)."""

    def apply(army: Army) -> Change:
        if version is not None:
            known_version(army, version)
        now = follow(army, kind, item_id)
        document = working_copy(army)
        items = items_of(document, kind)
        # the copy is a unit of its own: it gets an id of its own when it is stored
        copied = copy.deepcopy(items[now])
        if isinstance(copied, dict):
            copied.pop("id", None)
        items.insert(now + 1, copied)
        summary = f"Duplicated {item_name(items[now])}"
        return Change(document, RevisionNote(summary, op="add", target=kind, index=now + 1))

    return apply


def move_item(kind: str, item_id: str, delta: int, version: int | None = None) -> Edit:
    """Move an item up (delta -1) or down (+1); at either end it stays put."""

    def apply(army: Army) -> Change:
        if version is not None:
            known_version(army, version)
        now = follow(army, kind, item_id)
        document = working_copy(army)
        items = items_of(document, kind)
        target = min(max(now + delta, 0), len(items) - 1)
        items.insert(target, items.pop(now))
        note = RevisionNote(
            f"Moved {item_name(items[target])} {'up' if delta < 0 else 'down'}",
            op="move",
            target=kind,
            index=now,
            op_to=target,
        )
        return Change(document, note)

    return apply


def delete_item(kind: str, item_id: str, version: int | None = None) -> Edit:
    def apply(army: Army) -> Change:
        if version is not None:
            known_version(army, version)
        now = follow(army, kind, item_id)
        document = working_copy(army)
        items = items_of(document, kind)
        gone = items.pop(now)
        summary = f"Deleted {item_name(gone)}"
        return Change(document, RevisionNote(summary, op="delete", target=kind, index=now))

    return apply


def update_settings(data: QueryDict | Mapping[str, Any], version: int | None) -> Edit:
    """Name, army list, points limit, options and notes from the settings form."""

    def apply(army: Army) -> Change:
        require_version(army, version)
        return Change(settings_document(army, data), RevisionNote("Changed the army settings"))

    return apply


def settings_document(army: Army, data: QueryDict | Mapping[str, Any]) -> dict[str, Any]:
    """The document with the posted settings applied (MalformedDocument if unreadable)."""
    ruleset = ruleset_of(army)
    document = working_copy(army)
    if "name" in data:
        document["name"] = str(data["name"])
    if "army_list" in data:
        document["army_list"] = str(data["army_list"]) or None
    if "points_limit" in data:
        text = str(data["points_limit"]).strip()
        if not ruleset.uses_points or text == "":
            document["points_limit"] = None
        else:
            try:
                document["points_limit"] = int(text)
            except ValueError:
                raise MalformedDocument(
                    "points_limit", f"points_limit: {text!r} is not a whole number"
                ) from None
    if "notes" in data:
        document["notes"] = str(data["notes"]).replace("\r\n", "\n")
    options = dict(document["options"]) if isinstance(document.get("options"), dict) else {}
    document["options"] = values_from_post(ruleset.options, data, options, "options")
    return document


def roll_force(version: int | None, seed: int | None = None) -> Edit:
    """Replace the units with a force rolled on the rule set's force matrix."""
    chosen_seed = secrets.randbelow(2**31) if seed is None else seed

    def apply(army: Army) -> Change:
        known_version(army, version)
        ruleset = ruleset_of(army)
        if not ruleset.can_roll:
            raise ItemNotFound(f"{ruleset.title} has no force matrix")
        list_slug = army.document.get("army_list")
        rolled = ruleset.roll_force(list_slug, _list_data(army, list_slug), chosen_seed)
        document = working_copy(army)
        for key in ("army_list", "options", "generals", "units"):
            if key in rolled:
                document[key] = rolled[key]
        if not str(document.get("notes") or "").strip() and rolled.get("notes"):
            document["notes"] = rolled["notes"]
        summary = f"Rolled a force ({len(document.get('units') or [])} units)"
        return Change(document, RevisionNote(summary, op="replace"))

    return apply


def replace_document(raw: Any, version: int | None, note: RevisionNote | None = None) -> Edit:
    """The whole document, only onto the version it was made from."""

    def apply(army: Army) -> Change:
        require_version(army, version)
        whole = note if note is not None else RevisionNote("Changed the army", op="replace")
        return Change(raw, whole)

    return apply
