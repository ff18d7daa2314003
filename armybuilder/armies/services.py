"""Everything that changes a saved army, in one place.

Every change builds a new document dict and runs it through the engine's strict parser
(``checking.check``: the engine with the catalog's lists, from the army's last check when
one unit changed) before anything is written: a malformed result
raises ``rules.MalformedDocument`` and nothing is saved; an illegal-but-well-formed army
saves and reports its problems. Saves are optimistic: a change names the version it was
made from and is written with ``UPDATE ... WHERE version = v`` so a stale tab gets
``StaleVersion`` (HTTP 409) instead of silently overwriting.
"""

from __future__ import annotations

import copy
import json
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.http import HttpRequest, QueryDict
from django.utils import timezone

import rules
from armybuilder.armies import checking, drafts
from armybuilder.armies.controls import values_from_post
from armybuilder.armies.models import RESTORE_DAYS as RESTORE_DAYS  # re-exported
from armybuilder.armies.models import Army, new_share_token, restore_cutoff
from armybuilder.armies.revisions import ItemGone, RevisionNote, current_index, record
from armybuilder.armies.selectors import DRAFT_SESSION_KEY
from armybuilder.catalog.services import check_document
from rules.base import RuleSet
from rules.document import load_json
from rules.errors import MalformedDocument
from rules.fields import Field
from rules.text import safe_text

KINDS = ("units", "generals")
NAME_MAX = 120


class StaleVersion(Exception):
    """The army changed since the version a change was made from; ``army`` is current."""

    def __init__(self, army: Army) -> None:
        super().__init__(f"army {army.pk} is at version {army.version}")
        self.army = army


class ItemNotFound(LookupError):
    """No unit or general at that index (or no such kind)."""


class ImportRefused(ValueError):
    """An uploaded file that is not a well-formed army document; ``message`` says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class DraftLimitReached(ImportRefused):
    """A visitor without an account already keeps the most drafts one session may hold."""


@dataclass(frozen=True)
class Checked:
    """A saved army with its parsed form and check report.

    ``problem`` is set (and ``parsed``/``report`` are None) when the stored document no
    longer reads, e.g. its army list was removed from the catalog since it was saved.
    """

    army: Army
    parsed: rules.Army | None
    report: rules.Report | None
    problem: str = ""
    adjusted: tuple[str, ...] = ()  # fields the builder set for the player (RuleSet.follow_ups)


# -- reading ------------------------------------------------------------------------------


def ruleset_of(army: Army) -> RuleSet:
    try:
        return rules.get_ruleset(army.ruleset)
    except KeyError:
        raise ItemNotFound(f"no rule set {army.ruleset!r}") from None


def check_army(army: Army) -> Checked:
    """Parse and check the stored document (one army-list query); this process
    remembers the check for the army's next change (``armies.checking``)."""
    try:
        state = checking.check(army, army.document)
    except MalformedDocument as exc:
        return Checked(army, None, None, problem=exc.message)
    checking.remember(army, army.document, state)
    return Checked(army, state.army, state.report)


def friendly_message(exc: MalformedDocument, document: Mapping[str, Any] | None = None) -> str:
    """The parser's message with its path written the way a player reads it.

    ``units[3].figures: 500 is above the maximum 400`` becomes
    ``Knights (unit 4), Figures: 500 is above the maximum 400``.
    """
    message = exc.message
    path = exc.path
    if not path or not message.startswith(path + ":"):
        return message
    rest = message[len(path) + 1 :].strip()
    ruleset = None
    if document is not None:
        try:
            ruleset = rules.get_ruleset(str(document.get("ruleset")))
        except KeyError:
            ruleset = None
    match = re.match(r"^(units|generals)\[(\d+)\](?:\.([\w]+))?(?:\.([\w]+))?", path)
    if match:
        kind, index, key, sub = match.group(1), int(match.group(2)), match.group(3), match.group(4)
        what = "unit" if kind == "units" else "general"
        where = f"{what} {index + 1}"
        items = document.get(kind) if document is not None else None
        if isinstance(items, list) and index < len(items) and isinstance(items[index], dict):
            name = items[index].get("name")
            if isinstance(name, str) and name.strip():
                where = f"{safe_text(name.strip())} ({what} {index + 1})"  # text rule
        fields = ()
        if ruleset is not None:
            fields = ruleset.unit_fields if kind == "units" else ruleset.general_fields
        label = _label(fields, key, sub)
        return f"{where}, {label}: {rest}" if label else f"{where}: {rest}"
    top = {
        "name": "Army name",
        "points_limit": "Points limit",
        "army_list": "Army list",
        "notes": "Notes",
        "format": "Format",
        "ruleset": "Rule set",
    }
    head, _, tail = path.partition(".")
    if head == "options" and ruleset is not None:
        label = _label(ruleset.options, tail.split(".")[0] or None, None)
        return f"Option {label or tail}: {rest}"
    return f"{top.get(head, path)}: {rest}"


def _label(fields: tuple[Field, ...], key: str | None, sub: str | None) -> str:
    if key is None:
        return ""
    for f in fields:
        if f.name == key:
            if sub:
                for s in f.fields:
                    if s.name == sub:
                        return f"{f.label} {s.label.lower()}"
            return f.label
    return key


# -- saving -------------------------------------------------------------------------------


def _known_version(army: Army, version: int | None) -> None:
    """A change that adds or replaces (never edits an item by index) only needs a page
    version the army has had; it applies to the army as it is now."""
    if version is None or not 1 <= version <= army.version:
        raise StaleVersion(army)


def _follow(army: Army, kind: str, index: int, version: int | None) -> int:
    """The index now of the item that was ``kind[index]`` on the page at ``version``;
    StaleVersion (409, the army as it is now) when another tab deleted it."""
    try:
        return current_index(army, kind, index, version)
    except ItemGone:
        raise StaleVersion(army) from None


def _require_version(army: Army, version: int | None) -> None:
    if version is None or army.version != version:
        raise StaleVersion(army)


def save_document(
    army: Army, raw: Any, version: int | None, change: RevisionNote | None = None
) -> Checked:
    """Parse ``raw`` and store it if ``army`` is still at ``version``.

    Raises StaleVersion (the army moved on), MalformedDocument (nothing saved). A change
    that leaves the normalised document as it was writes nothing and keeps the version.
    Every write records a revision (``change``, or a whole-document one): see
    ``armies.revisions``.
    """
    _require_version(army, version)
    state = checking.check(army, raw)  # from the army's last check when one unit changed
    parsed, report = state.army, state.report
    document = parsed.to_document()
    if document == army.document:
        return Checked(army, parsed, report)
    note = change if change is not None else RevisionNote("Changed the army", op="replace")
    now = timezone.now()
    assert version is not None
    written = Army.objects.filter(pk=army.pk, version=version).update(
        document=document, version=version + 1, updated=now
    )
    if not written:
        current = Army.objects.filter(pk=army.pk).first()
        if current is None:
            raise ItemNotFound("the army was deleted")
        raise StaleVersion(current)
    before = army.document
    army.document = document
    army.version = version + 1
    army.updated = now
    record(army, note, before, document)
    checking.remember(army, document, state)
    return Checked(army, parsed, report)


def _working_copy(army: Army) -> dict[str, Any]:
    """A copy of the stored document to change: the top level and both item lists are
    new, the items themselves are shared, so a change replaces an item, never edits it
    (the parser builds new objects; a refused change leaves ``army.document`` as it was).
    Much cheaper than a deep copy of a 300-unit army on every edit."""
    document = dict(army.document)
    for kind in KINDS:
        if isinstance(document.get(kind), list):
            document[kind] = list(document[kind])
    return document


def _items(document: dict[str, Any], kind: str) -> list[Any]:
    if kind not in KINDS:
        raise ItemNotFound(kind)
    items = document.setdefault(kind, [])
    if not isinstance(items, list):
        raise ItemNotFound(kind)
    return items


def _item_fields(ruleset: RuleSet, kind: str) -> tuple[Field, ...]:
    if kind == "generals" and not ruleset.has_generals:
        raise ItemNotFound("this rule set has no generals")
    return ruleset.unit_fields if kind == "units" else ruleset.general_fields


def _index(items: list[Any], index: int) -> int:
    if not 0 <= index < len(items):
        raise ItemNotFound(f"no item {index}")
    return index


# Where a digest says "the builder sets it for the user": when an edit turns ``field`` to
# ``value``, the builder also sets the values that must go with it. The check still fires
# if the player changes them back afterwards (or imports a document that breaks it).
def _follow_ups(ruleset: RuleSet, before: Mapping[str, Any], after: dict[str, Any]) -> list[str]:
    adjusted: list[str] = []
    for field, value, then in ruleset.follow_ups:
        if after.get(field) == value and before.get(field) != value:
            for key, wanted in then.items():
                if after.get(key) != wanted:
                    after[key] = wanted
                    adjusted.append(key)
    return adjusted


def edit_item(
    army: Army, kind: str, index: int, data: QueryDict | Mapping[str, Any], version: int | None
) -> Checked:
    """Apply posted control values to one unit (or general).

    ``Checked.adjusted`` names the fields the builder set along with the change (the
    page must then redraw the unit's controls, not only its summary).
    """
    _require_version(army, version)
    ruleset = ruleset_of(army)
    fields = _item_fields(ruleset, kind)
    document = _working_copy(army)
    items = _items(document, kind)
    _index(items, index)
    current = items[index] if isinstance(items[index], dict) else {}
    items[index] = values_from_post(fields, data, current, f"{kind}[{index}]")
    adjusted: list[str] = []
    if kind == "units":
        adjusted = _follow_ups(ruleset, current, items[index])
    if kind == "generals":
        _follow_renamed_general(document, current.get("name"), items[index].get("name"))
    changed = [k for k in items[index] if items[index].get(k) != current.get(k)]
    note = RevisionNote(
        f"Edited {_item_name(items[index])}" + (f": {changed[0]}" if len(changed) == 1 else ""),
        op="edit",
        target=kind,
        index=index,
        field=changed[0] if len(changed) == 1 else "",  # one field: a small revision
    )
    checked = save_document(army, document, version, note)
    return replace(checked, adjusted=tuple(adjusted)) if adjusted else checked


def _follow_renamed_general(document: dict[str, Any], old: Any, new: Any) -> None:
    """Units in a renamed general's division follow the new name (the division is a name)."""
    if not isinstance(old, str) or not isinstance(new, str) or old.strip() == new.strip():
        return
    if not new.strip():
        return
    units = document.get("units", [])
    for i, unit in enumerate(units):
        if isinstance(unit, dict) and unit.get("division") == old:
            units[i] = {**unit, "division": new.strip()}


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
    fields = {f.name: f for f in ruleset.unit_fields}
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
                    "From the army list",
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


def add_item(
    army: Army, kind: str, version: int | None, preset_key: str = "blank", *, at: int | None = None
) -> Checked:
    """Add a unit from a preset (or a general with the rule set's defaults)."""
    _known_version(army, version)
    ruleset = ruleset_of(army)
    _item_fields(ruleset, kind)
    document = _working_copy(army)
    items = _items(document, kind)
    if kind == "units":
        list_data = None
        if document.get("army_list"):
            from armybuilder.catalog.selectors import get_list

            found = get_list(army.ruleset, document["army_list"])
            list_data = found.data if found else None
        chosen = {p.key: p for p in presets(ruleset, list_data)}.get(preset_key)
        if chosen is None:
            raise ItemNotFound(f"no preset {preset_key!r}")
        item = dict(chosen.values)
        item.setdefault("name", f"Unit {len(items) + 1}")
    else:
        item = {"name": f"General {len(items) + 1}"}
    position = len(items) if at is None else at
    items.insert(position, item)
    what = "unit" if kind == "units" else "general"
    note = RevisionNote(f"Added {what} {item.get('name')}", op="add", target=kind, index=position)
    return save_document(army, document, army.version, note)


def duplicate_item(army: Army, kind: str, index: int, version: int | None) -> Checked:
    index = _follow(army, kind, index, version)
    document = _working_copy(army)
    items = _items(document, kind)
    _index(items, index)
    items.insert(index + 1, copy.deepcopy(items[index]))
    note = RevisionNote(
        f"Duplicated {_item_name(items[index])}", op="add", target=kind, index=index + 1
    )
    return save_document(army, document, army.version, note)


def move_item(army: Army, kind: str, index: int, delta: int, version: int | None) -> Checked:
    """Move an item up (delta -1) or down (+1); at either end it stays put."""
    index = _follow(army, kind, index, version)
    document = _working_copy(army)
    items = _items(document, kind)
    _index(items, index)
    target = min(max(index + delta, 0), len(items) - 1)
    items.insert(target, items.pop(index))
    note = RevisionNote(
        f"Moved {_item_name(items[target])} {'up' if delta < 0 else 'down'}",
        op="move",
        target=kind,
        index=index,
        op_to=target,
    )
    return save_document(army, document, army.version, note)


def delete_item(army: Army, kind: str, index: int, version: int | None) -> Checked:
    index = _follow(army, kind, index, version)
    document = _working_copy(army)
    items = _items(document, kind)
    _index(items, index)
    gone = items.pop(index)
    note = RevisionNote(f"Deleted {_item_name(gone)}", op="delete", target=kind, index=index)
    return save_document(army, document, army.version, note)


def _item_name(item: Any) -> str:
    name = item.get("name") if isinstance(item, dict) else None
    return str(name).strip() if name else "an item"


def update_settings(
    army: Army, data: QueryDict | Mapping[str, Any], version: int | None
) -> Checked:
    """Name, army list, points limit, options and notes from the settings form."""
    _require_version(army, version)
    document = settings_document(army, data)
    return save_document(army, document, version, RevisionNote("Changed the army settings"))


def settings_document(army: Army, data: QueryDict | Mapping[str, Any]) -> dict[str, Any]:
    """The document with the posted settings applied (MalformedDocument if unreadable)."""
    ruleset = ruleset_of(army)
    document = _working_copy(army)
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


def roll_force(army: Army, version: int | None, seed: int | None = None) -> Checked:
    """Replace the units with a force rolled on the rule set's force matrix."""
    _known_version(army, version)
    ruleset = ruleset_of(army)
    if not ruleset.can_roll:
        raise ItemNotFound(f"{ruleset.title} has no force matrix")
    list_slug = army.document.get("army_list")
    list_data = None
    if list_slug:
        from armybuilder.catalog.selectors import get_list

        found = get_list(army.ruleset, list_slug)
        list_data = found.data if found else None
    rolled = ruleset.roll_force(
        list_slug, list_data, secrets.randbelow(2**31) if seed is None else seed
    )
    document = _working_copy(army)
    for key in ("army_list", "options", "generals", "units"):
        if key in rolled:
            document[key] = rolled[key]
    if not str(document.get("notes") or "").strip() and rolled.get("notes"):
        document["notes"] = rolled["notes"]
    note = RevisionNote(f"Rolled a force ({len(document.get('units') or [])} units)", op="replace")
    return save_document(army, document, army.version, note)


# -- creating -----------------------------------------------------------------------------


def blank_document(
    ruleset: str, name: str, army_list: str | None = None, points_limit: int | None = None
) -> dict[str, Any]:
    return {
        "format": rules.FORMAT,
        "name": name,
        "ruleset": ruleset,
        "army_list": army_list or None,
        "points_limit": points_limit,
        "units": [],
    }


def create_army(raw: Any, *, owner: AbstractBaseUser | None = None, session_key: str = "") -> Army:
    """A new army from a raw document, parsed first (MalformedDocument: nothing saved).

    A visitor's drafts are capped per session and in total (DraftLimitReached), so nobody
    can fill the database without an account.
    """
    parsed, _ = check_document(raw)
    if owner is None:
        return drafts.create_draft(session_key, parsed.to_document())  # caps: drafts.py
    return Army.objects.create(owner=owner, session_key="", document=parsed.to_document())


def import_limit() -> int:
    """The largest army document accepted, in bytes (the API's limit too)."""
    return int(settings.MUSTER_MAX_DOCUMENT_BYTES)


def read_upload(content: bytes) -> Any:
    """The JSON of an uploaded file, or ImportRefused with a reason a player understands."""
    limit = import_limit()
    if len(content) > limit:
        raise ImportRefused(
            f"The file is {len(content) // 1024} KiB; an army document is at most "
            f"{limit // 1024} KiB."
        )
    if not content.strip():
        raise ImportRefused("The file is empty: choose a Muster army document (.json).")
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportRefused("The file is not UTF-8 text: choose a .json army document.") from None
    try:
        return load_json(text)
    except MalformedDocument as exc:
        raise ImportRefused(f"The file is {exc.message}.") from None


def import_document(
    content: bytes, *, owner: AbstractBaseUser | None = None, session_key: str = ""
) -> Army:
    """Create an army from an uploaded file; ImportRefused names what is wrong."""
    raw = read_upload(content)
    try:
        return create_army(raw, owner=owner, session_key=session_key)
    except MalformedDocument as exc:
        where = raw if isinstance(raw, Mapping) else None
        raise ImportRefused(friendly_message(exc, where)) from exc


def _copy_name(name: str, prefix: str = "Copy of ") -> str:
    return (prefix + name)[:NAME_MAX].strip()


def duplicate_army(
    army: Army, *, owner: AbstractBaseUser | None = None, session_key: str = ""
) -> Army:
    document = copy.deepcopy(army.document)
    document["name"] = _copy_name(army.name)
    return create_army(document, owner=owner, session_key=session_key)


def fork(army: Army, owner: AbstractBaseUser | None = None, *, session_key: str = "") -> Army:
    """A copy of a shared army, with its own share token: owned by ``owner``, or a
    visitor's draft (``session_key``, see ``owner_kwargs``; the draft cap applies)."""
    return create_army(copy.deepcopy(army.document), owner=owner, session_key=session_key)


def regenerate_share_token(army: Army) -> str:
    """A new token: the old link stops working at once (also turns sharing back on)."""
    army.share_token = new_share_token()
    Army.objects.filter(pk=army.pk).update(share_token=army.share_token)
    return army.share_token


def stop_sharing(army: Army) -> None:
    army.share_token = None
    Army.objects.filter(pk=army.pk).update(share_token=None)


# -- deleting and restoring (issue 10: whole-army delete acts at once and can be undone) --------


def delete_army(army: Army) -> None:
    """Soft delete: gone from every page and share link at once, restorable for
    ``RESTORE_DAYS`` days (``restore_army``), then removed by ``purge_deleted_armies``."""
    army.deleted_at = timezone.now()
    Army.objects.filter(pk=army.pk).update(deleted_at=army.deleted_at)


def restore_army(army: Army) -> None:
    """Undo ``delete_army``: the army, its share link and its place in the list come back."""
    army.deleted_at = None
    Army.objects.filter(pk=army.pk).update(deleted_at=None)


def purge_deleted_armies(now: datetime | None = None) -> int:
    """Delete for good the armies deleted more than ``RESTORE_DAYS`` ago; how many went.

    For the worker's schedule (or ``manage.py purge_deleted_armies``)."""
    _, per_model = Army.objects.filter(deleted_at__lt=restore_cutoff(now)).delete()
    return per_model.get(Army._meta.label, 0)


# -- visitors' drafts -----------------------------------------------------------------------


def draft_key(request: HttpRequest) -> str:
    """This visitor's draft key, creating the session (and remembering the key) if needed.

    The key is kept inside the session's data as well, so it survives the session key
    being cycled at log-in, which is when the drafts are claimed.
    """
    session = request.session
    key = session.get(DRAFT_SESSION_KEY)
    if key:
        return str(key)
    if not session.session_key:
        session.save()
    key = session.session_key
    session[DRAFT_SESSION_KEY] = key
    return str(key)


def owner_kwargs(request: HttpRequest) -> dict[str, Any]:
    """Who a new army belongs to: the user, or this visitor's session."""
    if request.user.is_authenticated:
        return {"owner": request.user}
    return {"session_key": draft_key(request)}


@transaction.atomic
def claim_drafts(user: AbstractBaseUser, draft_keys: list[str]) -> int:
    """Give a visitor's drafts to the account they signed up or logged in with."""
    keys = [k for k in draft_keys if k]
    if not keys:
        return 0
    return Army.objects.filter(owner__isnull=True, session_key__in=keys).update(
        owner=user, session_key="", updated=timezone.now()
    )
