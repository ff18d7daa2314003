"""Reading a saved army: its rule set, its check, and the messages a player reads.

Every change builds a new document dict and runs it through the engine's strict parser
(``checking.check``) before anything is written: a malformed result raises
``rules.MalformedDocument`` and nothing is saved; an illegal-but-well-formed army saves
and reports its problems (see ``armies.changes.pipeline``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import rules
from armybuilder.armies.changes import checking
from armybuilder.armies.models import Army, Revision
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
    remembers the check for the army's next change (``armies.checking``).

    A read only reads: items' ids are given where a document comes in (an import, a new
    army, the admin's save, the pipeline's save) and to rows stored before them by the
    data migration ``0011_item_ids``, never here."""
    remembered = checking.recall(army)
    if remembered is not None:
        # the row as this process last checked it (same version and updated): its check
        # is reused whole, where the freshly decoded copy would be parsed again
        army.document = remembered.document
    try:
        state = checking.check(army, army.document)
    except MalformedDocument as exc:
        return Checked(army, None, None, problem=exc.message)
    checking.remember(army, army.document, state)
    return Checked(army, state.army, state.report)


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
