"""The builder's commands: each change a player can make, as a small frozen dataclass.

A command is called with the army as it is (the latest row when writers raced) and
answers the ``Result`` to check and save: the new document, the revision note, what the
builder set along with it. It reads no more than it needs and writes nothing;
``armies.pipeline.run`` runs it, checks the result, saves it with its revision and
remembers the check. A command refuses with ``StaleVersion`` (a whole-form change made
from an older version), ``ItemGone`` (its unit is no longer in the army),
``ItemNotFound`` (no such field, preset or setting), ``conflicts.FieldConflict`` (its
field moved on since it was made: ``check_conflict``) or ``rules.MalformedDocument``.

A unit or general is named by its stable id, never its place: whatever other tabs added,
deleted or moved, a command lands on that unit. Undo and restores are in
``armies.rewind``.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from armybuilder.armies import presets
from armybuilder.armies.changes.conflicts import SETTINGS, UNSET, FieldConflict
from armybuilder.armies.changes.store import ArmyStore
from armybuilder.armies.documents import (
    ItemNotFound,
    StaleVersion,
    item_fields,
    item_name,
    items_of,
    ruleset_of,
    working_copy,
)
from armybuilder.armies.field_values import values_from_post
from armybuilder.armies.history.revisions import (
    ItemGone,
    RevisionNote,
    field_value,
    get_value,
    index_of,
)
from armybuilder.armies.models import Army
from rules import edits, unit_presets
from rules.base import EntryStatus, RuleSet
from rules.errors import MalformedDocument
from rules.fields import Field

KINDS = ("units", "generals")


@dataclass(frozen=True)
class Result:
    """What a command made: a document ready to check and save (None: the army stays as
    it is), its revision note, the fields the builder set along with it, and the index
    now of the one item it changed."""

    document: dict[str, Any] | None
    note: RevisionNote
    adjusted: tuple[str, ...] = ()
    index: int | None = None


def known_version(army: Army, version: int | None) -> None:
    """A change that adds or replaces only needs a page version the army has had; it
    applies to the army as it is now."""
    if version is None or not 1 <= version <= army.version:
        raise StaleVersion(army)


def _known(army: Army, version: int | None) -> None:
    """A page's version, when it sends one, must be one the army has had: a page from
    nowhere is stale."""
    if version is not None:
        known_version(army, version)


def require_version(army: Army, version: int | None) -> None:
    """A whole-form change (the settings form, a whole document) is only applied to the
    version it was drawn from: it would otherwise put back stale values."""
    if version is None or army.version != version:
        raise StaleVersion(army)


def kind_of(army: Army, item_id: str) -> str:
    """Whether ``item_id`` names a unit or a general of the army (ItemGone: neither)."""
    for kind in KINDS:
        try:
            index_of(army.document, kind, item_id)
        except ItemGone:
            continue
        return kind
    raise ItemGone(f"no unit or general {item_id!r}")


def setting_field(ruleset: RuleSet, name: str) -> tuple[str, Field | None]:
    """An army setting's label and (for an option) its field; ItemNotFound: no such one."""
    if name in SETTINGS:
        return SETTINGS[name], None
    if name.startswith("options.") and name[8:] in {f.name for f in ruleset.options}:
        option = ruleset.option_field(name[8:])
        return f"Option {option.label}", option
    raise ItemNotFound(f"no setting {name!r}")


def check_conflict(army: Army, field: str, label: str, made_from: Any, old: Any, new: Any) -> None:
    """Same field changed since the command was made, to something else: the player
    chooses (FieldConflict). Nothing to choose when the army already holds ``new``."""
    if made_from is UNSET or made_from == old or new == old:
        return
    raise FieldConflict(army, field, label, theirs=old, yours=new)


@dataclass(frozen=True)
class SetValue:
    """``set``: one value of the army (``target`` "army": a setting or ``options.<name>``)
    or of one unit or general (``target`` its id), made from ``made_from``."""

    target: str
    field: str
    value: Any
    made_from: Any = UNSET
    # a keystroke after others in this field, sent at once: it may extend their revision
    # (``revisions.record``), so a word typed key by key is one change and one undo
    typing: bool = False

    def __call__(self, army: Army, store: ArmyStore) -> Result:
        if self.target == "army":
            return self._setting(army, store)
        kind = kind_of(army, self.target)
        ruleset = ruleset_of(army)
        chosen = next((f for f in item_fields(ruleset, kind) if f.name == self.field), None)
        if chosen is None:
            raise ItemNotFound(f"no field {self.field!r}")
        now = index_of(army.document, kind, self.target)
        item = army.document[kind][now]
        old = item.get(self.field) if isinstance(item, dict) else None
        label_of = item if isinstance(item, dict) else {}
        label = f"{label_of.get('name') or kind[:-1]}: {chosen.label}"
        check_conflict(army, self.field, label, self.made_from, old, self.value)
        namer = store.list_namer(army, ruleset.slug) if self.field in ruleset.list_fields else None

        def said(value: Any) -> str:
            return field_value(chosen, value, namer)

        note = RevisionNote(
            f"{label} {said(old)} → {said(self.value)}",
            target=kind, index=now, item_id=self.target, field=self.field,
            typing=self.typing,
            retell=lambda first: f"{label} {said(first)} → {said(self.value)}",
        )  # fmt: skip
        if old == self.value:
            return Result(None, note, index=now)
        document, adjusted = edits.set_item_value(
            ruleset, army.document, kind, now, self.field, self.value
        )
        return Result(document, note, adjusted, now)

    def _setting(self, army: Army, store: ArmyStore) -> Result:
        ruleset = ruleset_of(army)
        label, option = setting_field(ruleset, self.field)
        old = get_value(army.document, "army", None, self.field)
        check_conflict(army, self.field, label, self.made_from, old, self.value)
        if self.field == "army_list":
            namer = store.list_namer(army, ruleset.slug)
            said = [field_value(None, v) if not v else namer(v) for v in (old, self.value)]
        else:
            said = [field_value(option, v) for v in (old, self.value)]
        note = RevisionNote(f"{label}: {said[0]} → {said[1]}", field=self.field, typing=self.typing)
        if old == self.value:
            return Result(None, note)
        return Result(edits.set_army_value(army.document, self.field, self.value), note)


@dataclass(frozen=True)
class Add:
    """``add``: a unit from ``preset`` (or a general with the rule set's defaults) at the
    end, with the id ``new_id`` the page chose (or a new one when it is stored)."""

    kind: str = "units"
    preset: str = "blank"
    new_id: str | None = None
    base_version: int | None = None

    def __call__(self, army: Army, store: ArmyStore) -> Result:
        _known(army, self.base_version)  # any version the army has had will do
        ruleset = ruleset_of(army)
        item_fields(ruleset, self.kind)
        document = army.document
        items_of(working_copy(army), self.kind)  # ItemNotFound: no such kind
        if self.kind == "generals":
            item: dict[str, Any] = edits.new_general(document)
        else:
            list_data = store.list_data(army, document.get("army_list"))
            fields = presets.unit_fields(ruleset)
            if self.preset.startswith("entry:"):
                parsed = store.parsed(army)
                entry = presets.list_entry(ruleset, list_data, parsed, self.preset)
                if entry.replaces and parsed is not None:
                    return _replaced(document, entry, fields)
                item = presets.known(entry.values, fields)
            else:
                found = unit_presets.preset_unit(ruleset, list_data, self.preset)
                if found is None:
                    raise ItemNotFound(f"no preset {self.preset!r}")
                item = found
            item.setdefault("name", f"Unit {len(document.get('units') or []) + 1}")
        document, at = edits.add_item(document, self.kind, item, self.new_id)
        what = "unit" if self.kind == "units" else "general"
        note = RevisionNote(
            f"Added {what} {item.get('name')}", op="add", target=self.kind, index=at
        )
        return Result(document, note, index=at)


def _replaced(document: dict[str, Any], entry: EntryStatus, fields: Mapping[str, Field]) -> Result:
    """One unit of the type ``entry`` stands in for becomes that entry's unit, in its
    place: one revision, which undo takes back."""
    at = entry.replace_index
    items = document.get("units") or []
    if at is None or not 0 <= at < len(items):
        raise MalformedDocument("units", unit_presets.nothing_to_replace(entry))
    old = item_name(items[at])
    document = edits.replace_item(document, "units", at, presets.known(entry.values, fields))
    summary = f"Replaced {old} with {entry.values.get('name') or entry.label}"
    return Result(document, RevisionNote(summary, target="units", index=at), index=at)


def _located(army: Army, target: str, base_version: int | None) -> tuple[str, int]:
    """Where ``target`` is now: its kind and place."""
    _known(army, base_version)
    kind = kind_of(army, target)
    return kind, index_of(army.document, kind, target)


@dataclass(frozen=True)
class Duplicate:
    """``duplicate``: a copy of ``target`` right after it, with the id ``new_id``."""

    target: str
    new_id: str | None = None
    base_version: int | None = None

    def __call__(self, army: Army, store: ArmyStore) -> Result:
        kind, now = _located(army, self.target, self.base_version)
        # the copy is a unit of its own, with an id of its own
        document, _ = edits.duplicate_item(army.document, kind, now, self.new_id)
        summary = f"Duplicated {item_name(document[kind][now])}"
        note = RevisionNote(summary, op="add", target=kind, index=now + 1)
        return Result(document, note, index=now + 1)


@dataclass(frozen=True)
class Move:
    """``move``: ``target`` one place up (``delta`` -1) or down (+1); at an end it stays."""

    target: str
    delta: int
    base_version: int | None = None

    def __call__(self, army: Army, store: ArmyStore) -> Result:
        kind, now = _located(army, self.target, self.base_version)
        document, to = edits.move_item(army.document, kind, now, self.delta)
        note = RevisionNote(
            f"Moved {item_name(document[kind][to])} {'up' if self.delta < 0 else 'down'}",
            op="move", target=kind, index=now, op_to=to,
        )  # fmt: skip
        return Result(document if to != now else None, note, index=to)


@dataclass(frozen=True)
class Delete:
    """``delete``: the unit or general ``target``."""

    target: str
    base_version: int | None = None

    def __call__(self, army: Army, store: ArmyStore) -> Result:
        kind, now = _located(army, self.target, self.base_version)
        document, gone = edits.delete_item(army.document, kind, now)
        note = RevisionNote(f"Deleted {item_name(gone)}", op="delete", target=kind, index=now)
        return Result(document, note)


@dataclass(frozen=True)
class Settings:
    """``settings``: the settings form's values (name, army list, points limit, options,
    notes) at once, only onto the version the form was drawn from."""

    values: Mapping[str, Any]
    base_version: int | None

    def __call__(self, army: Army, store: ArmyStore) -> Result:
        require_version(army, self.base_version)
        document = settings_document(army, self.values)
        return Result(document, RevisionNote("Changed the army settings"))


def settings_document(army: Army, data: Mapping[str, Any]) -> dict[str, Any]:
    """The army's document with the posted settings applied (MalformedDocument if
    unreadable)."""
    return apply_settings(ruleset_of(army), working_copy(army), data)


def apply_settings(
    ruleset: RuleSet, document: Mapping[str, Any], data: Mapping[str, Any]
) -> dict[str, Any]:
    """``document`` (not changed) with the settings form's values applied."""
    document = dict(document)
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


@dataclass(frozen=True)
class Roll:
    """``roll``: the units replaced with a force rolled on the rule set's force matrix
    (the seed is chosen once, so a run again under the army's lock rolls the same)."""

    base_version: int | None = None
    seed: int = field(default_factory=lambda: secrets.randbelow(2**31))

    def __call__(self, army: Army, store: ArmyStore) -> Result:
        _known(army, self.base_version)
        ruleset = ruleset_of(army)
        if not ruleset.can_roll:
            raise ItemNotFound(f"{ruleset.title} has no force matrix")
        slug = army.document.get("army_list")
        rolled = ruleset.roll_force(slug, store.list_data(army, slug), self.seed)
        document = working_copy(army)
        for key in ("army_list", "options", "generals", "units"):
            if key in rolled:
                document[key] = rolled[key]
        if not str(document.get("notes") or "").strip() and rolled.get("notes"):
            document["notes"] = rolled["notes"]
        summary = f"Rolled a force ({len(document.get('units') or [])} units)"
        return Result(document, RevisionNote(summary, op="replace"))


@dataclass(frozen=True)
class ReplaceDocument:
    """The whole document (an upload onto a saved army, the services' save), only onto
    the version it was made from."""

    document: Any
    base_version: int | None
    note: RevisionNote | None = None

    def __call__(self, army: Army, store: ArmyStore) -> Result:
        require_version(army, self.base_version)
        return Result(self.document, self.note or RevisionNote("Changed the army", op="replace"))
