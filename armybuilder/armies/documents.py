"""Reading a saved army: its rule set, its check, and the messages a player reads.

Every change builds a new document dict and runs it through the engine's strict parser
(``check_state``) before anything is written: a malformed result raises
``rules.MalformedDocument`` and nothing is saved; an illegal-but-well-formed army saves
and reports its problems (see ``armies.changes.pipeline``).

Each process remembers the last check of the armies it served, so a change is checked from
it. An entry is the army's stored document with its ``rules.CheckState``, for the army's
``pk`` at one ``version`` and ``updated``. Every write of a document moves ``updated``
(``save_document`` sets both, the admin's save moves ``updated``), so an entry answers
only for the row as this process last read or wrote it: another process's save, an admin
edit or a restore all miss, and a miss is simply the full parse and check. The army lists
are not part of the key: ``rules.recheck_document`` asks for them on every check (one
query, ``catalog.selectors.army_lookup``: the lists the army's owner may build on, and the
revisions the army is pinned to) and checks whole when they are not the ones the entry was
made with, so reloaded lists or an accepted upgrade never meet an old result.

The remembered document is shared by the requests of this process: like every stored
document it is never changed in place (a change copies it: ``working_copy``).
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import rules
from armybuilder.armies.models import Army, Revision, readable_document
from armybuilder.catalog import services
from armybuilder.catalog.selectors import army_lookup
from rules.base import RuleSet
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
    index: int | None = None  # a change to one item: where that item is now
    revision: Revision | None = None  # the revision the change recorded (None: nothing saved)


def ruleset_of(army: Army) -> RuleSet:
    try:
        return rules.get_ruleset(army.ruleset)
    except KeyError:
        raise ItemNotFound(f"no rule set {army.ruleset!r}") from None


def check_army(army: Army) -> Checked:
    """Parse and check the stored document (one army-list query); this process
    remembers the check for the army's next change (``remember_check``).

    A read only reads: items' ids are given where a document comes in (an import, a new
    army, the admin's save, the pipeline's save) and to rows stored before them by the
    data migration ``0011_item_ids``, never here."""
    remembered = recall_check(army)
    if remembered is not None:
        # the row as this process last checked it (same version and updated): its check
        # is reused whole, where the freshly decoded copy would be parsed again
        army.document = remembered.document
    try:
        state = check_state(army, army.document)
    except MalformedDocument as exc:
        return Checked(army, None, None, problem=exc.message)
    remember_check(army, army.document, state)
    return Checked(army, state.army, state.report)


# -- this process's last check of each army ---------------------------------------------

# Remembered per process, the least recently used going first: at most this many armies,
# and this many units in all (a 300-unit army's entry is about a megabyte).
MAX_ARMIES = 256
MAX_UNITS = 10_000


@dataclass(frozen=True)
class Remembered:
    version: int
    updated: datetime
    document: dict[str, Any]
    state: rules.CheckState


_ENTRIES: OrderedDict[int, Remembered] = OrderedDict()
_LOCK = threading.Lock()
_units = 0  # units of the remembered armies, together


def recall_check(army: Army) -> Remembered | None:
    """The entry for ``army`` as it is (same pk, version and updated), else None."""
    if army.pk is None:
        return None
    with _LOCK:
        found = _ENTRIES.get(army.pk)
        if found is None or found.version != army.version or found.updated != army.updated:
            return None
        _ENTRIES.move_to_end(army.pk)
        return found


def remember_check(army: Army, document: dict[str, Any], state: rules.CheckState) -> None:
    """Keep ``state``, the check of ``document``, which ``army`` now stores."""
    if army.pk is None or army.updated is None:
        return
    entry = Remembered(army.version, army.updated, document, state)
    global _units
    with _LOCK:
        old = _ENTRIES.pop(army.pk, None)
        _units -= _size(old)
        _ENTRIES[army.pk] = entry
        _units += _size(entry)
        while len(_ENTRIES) > 1 and (len(_ENTRIES) > MAX_ARMIES or _units > MAX_UNITS):
            _, gone = _ENTRIES.popitem(last=False)
            _units -= _size(gone)


def _size(entry: Remembered | None) -> int:
    return len(entry.state.army.units) if entry is not None else 0


def forget_checks() -> None:
    global _units
    with _LOCK:
        _ENTRIES.clear()
        _units = 0


def check_state(army: Army, raw: Any) -> rules.CheckState:
    """The check of ``raw``, a document for ``army`` (its stored one, or a change of it):
    from the army's remembered check when ``raw`` replaces one unit of it at most."""
    lookup = army_lookup(army)  # the army's pinned revisions, not the lists' latest
    found = recall_check(army)
    if found is None:
        return services.check_state(raw, lookup=lookup)
    return services.recheck_document(
        raw, lookup=lookup, previous_raw=found.document, previous=found.state
    )


def attach_document(army: Army, text: str | None) -> None:
    """Give an army read without its ``document`` (``selectors.army_to_change``) the
    document: the remembered one when this process has the row as it is, else ``text``
    (the stored JSON) decoded and kept to the text rule as ``models.DocumentField`` does."""
    found = recall_check(army)
    if found is not None:
        army.document = found.document
        return
    army.document = readable_document(json.loads(text) if text is not None else None)


def working_copy(army: Army) -> dict[str, Any]:
    """A copy of the stored document to change: the top level and both item lists are
    new, the items themselves are shared, so a change replaces an item, never edits it
    (the parser builds new objects; a refused change leaves ``army.document`` as it was).
    Much cheaper than a deep copy of a 300-unit army on every edit."""
    document = dict(army.document)
    for kind in KINDS:
        if isinstance(document.get(kind), list):
            document[kind] = list(document[kind])
    return document


def items_of(document: dict[str, Any], kind: str) -> list[Any]:
    if kind not in KINDS:
        raise ItemNotFound(kind)
    items = document.setdefault(kind, [])
    if not isinstance(items, list):
        raise ItemNotFound(kind)
    return items


def item_fields(ruleset: RuleSet, kind: str) -> tuple[Field, ...]:
    if kind == "generals" and not ruleset.has_generals:
        raise ItemNotFound("this rule set has no generals")
    return ruleset.unit_fields if kind == "units" else ruleset.general_fields


def item_name(item: Any) -> str:
    name = item.get("name") if isinstance(item, dict) else None
    return str(name).strip() if name else "an item"


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
