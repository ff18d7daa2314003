"""What changed between two revisions of an army list, entry by entry, for any rule set.

Each rule set has its own list shape, so entries are found by shape rather than by name:
an object with a ``key`` inside a top-level list is an entry (``entries:huscarls``), and
so is an object with a ``key`` inside such an entry's own list (a choice group's options:
``choices:support/options:militia``); objects without a key are named by ``from``/``to``
when they have them (a force-matrix replacement), else by their stable ``id`` (only data
from before items had ids falls back to their place); any other top-level value
is one entry of its own (``columns``, ``schiltrons``).

``readable`` then words a change as a player reads it: unit fields by their labels and
values by theirs, from the rule set's vocabulary ("Armour: mailed → armoured, plate"),
counts as words ("at most 3"), entries by their names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rules.fields import Field


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
    if isinstance(item.get("id"), str):
        # the editor's stable id (rules.list_ids): the same item whatever moved around it
        return f"{prefix}#{item['id']}"
    return f"{prefix}[{n}]"  # data from before items had ids: nothing else names it


def _is_entry_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(i, Mapping) for i in value)


def entries(data: Any) -> dict[str, dict[str, Any]]:
    """``{entry id: its fields}`` of one list's data (nested entry lists pulled out)."""
    found: dict[str, dict[str, Any]] = {}
    if not isinstance(data, Mapping):
        return {"data": {"value": data}}
    for key, value in data.items():
        if value == []:
            continue  # no entries of this kind: the same as the key left out
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
            if name == "id":
                continue  # the editor's stable id (rules.list_ids): never a change to show
            if _is_entry_list(value) and any(isinstance(i.get("key"), str) for i in value):
                _collect(found, f"{ident}/{name}", value)
            else:
                own[str(name)] = value
        found[ident] = own


def _label(ident: str, fields: Mapping[str, Any]) -> str:
    for key in ("name", "label"):
        name = fields.get(key)
        if isinstance(name, str) and name:
            return name
    return ident


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


# -- in a player's words ---------------------------------------------------------------------

# how many of something an entry allows: the field's heading and its value in words
_COUNTS = {
    "min": ("Units", "at least {}"),
    "max": ("Units", "at most {}"),
    "count": ("Units", "exactly {}"),
    "pick": ("Options to pick", "{}"),
    "min_stands": ("Stands a unit", "at least {}"),
    "max_stands": ("Stands a unit", "at most {}"),
    "max_share": ("Share of the army", "at most {}"),
}
_WORDS = {
    "name": "Name",
    "note": "Note",
    "notes": "Notes",
    "fixed": "May not be changed",
    "columns": "Force-matrix columns",
    "schiltrons": "Schiltrons",
    "extra_terrain": "Extra terrain",
    "from": "Replaces",
    "to": "With",
    "label": "Name",
}
_SECTIONS = {
    "entries": "Entry",
    "required": "Required",
    "choices": "Choice",
    "options": "option",
    "replacements": "Replacement",
    "limits": "Limit",
}


@dataclass(frozen=True)
class Vocabulary:
    """The rule set's unit fields by name: their labels and their values' labels."""

    fields: Mapping[str, Field] = field(default_factory=dict)

    @classmethod
    def of(cls, unit_fields: Any) -> Vocabulary:
        return cls({f.name: f for f in unit_fields})

    def label(self, name: str) -> str:
        if name in self.fields:
            return self.fields[name].label
        return _WORDS.get(name) or name.replace("_", " ").capitalize()

    def value(self, name: str, value: Any, missing: str = "none") -> str:
        if value is None:
            return missing
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, list | tuple):
            return ", ".join(self.value(name, v) for v in value) if value else missing
        if isinstance(value, Mapping):
            return "; ".join(f"{self.label(k)}: {self.value(k, v)}" for k, v in value.items())
        known = self.fields.get(name)
        if known is not None and known.choices:
            return known.label_for(value)
        if isinstance(value, str):  # a troop type by its label, wherever the rule set has it
            for other in self.fields.values():
                if value in other.values:
                    return other.label_for(value)
        return str(value)


@dataclass(frozen=True)
class ReadableChange:
    title: str  # "Huscarls (entry)", "Replacement: Freemen → Brigans"
    change: str  # "added" | "removed" | "changed"
    lines: tuple[str, ...]  # "Armour: mailed → armoured, plate", "Units: at most 3 → at most 2"
    verb: str = ""  # what a player reads: "added", "removed", "tightened", "loosened", "changed"

    def __post_init__(self) -> None:
        if not self.verb:
            object.__setattr__(self, "verb", self.change)


# which way a count moves when it grows: +1 allows more (loosens), -1 allows fewer (tightens)
_LOOSER_WHEN_GREATER = {"max": 1, "max_stands": 1, "max_share": 1, "min": -1, "min_stands": -1}
NEITHER_WAY = 0  # a change that neither allows more nor fewer, or whose way is unknown


def _direction(name: str, pair: tuple[Any, Any]) -> int:
    """+1 if the change of the count ``name`` allows more, -1 if fewer, 0 if neither or unknown."""
    sign = _LOOSER_WHEN_GREATER.get(name)
    if sign is None:
        return NEITHER_WAY
    before, after = (_number(v) for v in pair)
    missing = "max" in name  # a maximum left out allows any number; a minimum asks for none
    if before is None and after is None:
        return NEITHER_WAY
    if before is None or after is None:
        return (-1 if before is None else 1) if missing else (1 if before is None else -1) * sign
    if before == after:
        return NEITHER_WAY
    return sign if after > before else -sign


def _number(value: Any) -> Fraction | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        return Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        return None


def _verb(change: EntryChange) -> str:
    """ "tightened"/"loosened" when every changed field is a count moving one way."""
    if change.change != "changed" or not change.fields:
        return change.change
    ways = {_direction(name, pair) for name, pair in change.fields.items()}
    if ways == {-1}:
        return "tightened"
    if ways == {1}:
        return "loosened"
    return "changed"


def _count(name: str, value: Any) -> str:
    if value is None:
        return "no limit" if name.startswith("max") else "none"
    return _COUNTS[name][1].format(value)


def _title(change: EntryChange, words: Vocabulary) -> str:
    last = change.entry.rsplit("/", 1)[-1]
    section, _, ident = last.partition(":")
    section = section.split("[", 1)[0].split("#", 1)[0]
    kind = _SECTIONS.get(section, "")
    if "->" in ident and change.label == change.entry:
        before, after = ident.split("->", 1)
        return f"{kind or 'Replacement'}: {words.value('', before)} → {words.value('', after)}"
    if change.label != change.entry:
        return f"{change.label} ({kind.lower()})" if kind else change.label
    if not ident and "[" not in last and "#" not in last:
        return words.label(last)  # a top-level value: columns, schiltrons, notes
    return f"{kind or words.label(section)} {ident or last}"


def _lines(name: str, pair: tuple[Any, Any], words: Vocabulary) -> list[str]:
    before, after = pair
    if name in _COUNTS:
        return [f"{_COUNTS[name][0]}: {_count(name, before)} → {_count(name, after)}"]
    if isinstance(before, Mapping | None) and isinstance(after, Mapping | None):
        if before is None and after is None:
            return []
        old, new = before or {}, after or {}
        # what a unit may be: a field left out of the match allows any value
        missing = "any" if name in ("match", "value") else "not set"
        return [
            f"{words.label(k)}: {words.value(k, old.get(k), missing)} → "
            f"{words.value(k, new.get(k), missing)}"
            for k in (*old, *(k for k in new if k not in old))
            if old.get(k) != new.get(k)
        ]
    label = "Now" if name == "value" else words.label(name)
    return [f"{label}: {words.value(name, before)} → {words.value(name, after)}"]


def readable(change: EntryChange, words: Vocabulary) -> ReadableChange:
    """One change in a player's words (no field names, no keys, no slugs)."""
    lines: list[str] = []
    for name, pair in change.fields.items():
        lines.extend(_lines(name, pair, words))
    return ReadableChange(_title(change, words), change.change, tuple(lines), _verb(change))
