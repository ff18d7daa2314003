"""Dewitt army lists: the source has none, so these are players' own.

A list is ``entries``: each a ``name``, how many units (``min``, ``max``), the stands a unit
may have (``min_stands``, ``max_stands``) and a ``match`` of what it may be: ``arm`` and
``class`` (one of the allowed values) and ``weapons`` (every weapon the unit carries must be
allowed; none ticked: any). A unit counts against the first entry it fits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules.base import Army, EntryStatus, Issue, RuleSet, Unit, error
from rules.fields import Field
from rules.list_entries import ids_of
from rules.list_shape import ListShape, ShapeField, ValuesField, entries_shape, values_fields

LIST_RULE = "Ruling R6"
MATCHED = ("arm", "class", "weapons")
ENTRY_KEYS = {"id", "key", "name", "match", "min", "max", "min_stands", "max_stands", "note"}


def shape(unit_fields: Iterable[Field]) -> ListShape:
    values = [v for v in values_fields(unit_fields) if v.name in MATCHED]
    weapons = next(f for f in unit_fields if f.name == "weapons")
    values.append(
        ValuesField("weapons", "Weapons", tuple((c.value, c.label) for c in weapons.choices))
    )
    fields = (
        ShapeField("min", "At least (units)", "integer"),
        ShapeField("max", "At most (units)", "integer", optional=True),
        ShapeField("min_stands", "Fewest stands", "integer", optional=True),
        ShapeField("max_stands", "Most stands", "integer", optional=True),
        ShapeField("note", "Note", "text", optional=True),
    )
    return entries_shape(fields, tuple(values))


def problems(data: Mapping[str, Any], unit_fields: Iterable[Field]) -> list[str]:
    """Everything wrong with a Dewitt list, each message naming the field at fault."""
    found: list[str] = []
    unknown = set(data) - {"entries", "notes"}
    if unknown:
        found.append(f"unknown keys {', '.join(sorted(unknown))}; allowed: entries, notes")
    entries = data.get("entries")
    if not isinstance(entries, list) or not entries:
        return [*found, "entries must be a non-empty list of troop entries"]
    allowed = {f.name: set(f.values) for f in unit_fields if f.name in MATCHED}
    for e, entry in enumerate(entries):
        where = f"entries[{e}]"
        if not isinstance(entry, dict):
            found.append(f"{where}: must be an object")
            continue
        extra = set(entry) - ENTRY_KEYS
        if extra:
            found.append(f"{where}: unknown keys {', '.join(sorted(extra))}")
        if not isinstance(entry.get("name"), str) or not entry["name"].strip():
            found.append(f"{where}.name: a name is required")
        for low_key, high_key, top in (("min", "max", None), ("min_stands", "max_stands", 12)):
            low, high = entry.get(low_key, 0), entry.get(high_key)
            bad = not _whole(low) or (high is not None and (not _whole(high) or high < low))
            if bad or (top is not None and ((high or 0) > top or low > top)):
                found.append(f"{where}.{high_key}: whole numbers with {low_key} <= {high_key}")
        match = entry.get("match", {})
        if not isinstance(match, dict):
            found.append(f"{where}.match: must be an object")
            continue
        for name, values in match.items():
            if name not in allowed:
                found.append(f"{where}.match.{name}: a list restricts only {', '.join(MATCHED)}")
            elif not isinstance(values, list) or not set(values) <= allowed[name]:
                found.append(f"{where}.match.{name}: a list of its values")
    return found


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def fits(unit: Mapping[str, Any], entry: Mapping[str, Any]) -> bool:
    match = entry.get("match") or {}
    for name in ("arm", "class"):
        if match.get(name) and unit.get(name) not in match[name]:
            return False
    if match.get("weapons") and not set(unit.get("weapons") or ()) <= set(match["weapons"]):
        return False
    stands = unit.get("stands", 0)
    return entry.get("min_stands", 0) <= stands <= entry.get("max_stands", stands)


def placed(units: Iterable[Mapping[str, Any]], entries: list[Mapping[str, Any]]) -> list[int]:
    """The entry each unit counts against (-1: none fits)."""
    return [next((n for n, e in enumerate(entries) if fits(u, e)), -1) for u in units]


def label(entry: Mapping[str, Any], n: int) -> str:
    return str(entry.get("name") or entry.get("key") or f"Entry {n + 1}")


def issues(army: Army, data: Mapping[str, Any]) -> Iterable[Issue]:
    entries = list(data.get("entries", []))
    where = placed(army.units, entries)
    for i, n in enumerate(where):
        if n < 0:
            name = army.units[i]["name"]
            yield error("not-in-army-list",
                        f"{name}: no entry of the list allows this arm, class, weapons and "
                        "number of stands.", LIST_RULE, unit=i)  # fmt: skip
    for n, entry in enumerate(entries):
        have = where.count(n)
        low, high = entry.get("min", 0), entry.get("max")
        if have < low:
            yield error("army-list-min",
                        f"The list needs at least {low} {label(entry, n)}; the army has {have}.",
                        LIST_RULE)  # fmt: skip
        if high is not None and have > high:
            yield error("army-list-max",
                        f"The list allows at most {high} {label(entry, n)}; the army has {have}.",
                        LIST_RULE)  # fmt: skip


def preset(entry: Mapping[str, Any], n: int) -> Unit:
    match = entry.get("match") or {}
    values: Unit = {"name": label(entry, n)[:120]}
    for name in ("arm", "class"):
        if match.get(name):
            values[name] = match[name][0]
    low, high = entry.get("min_stands"), entry.get("max_stands")
    if low is not None or high is not None:
        values["stands"] = max(low or 1, min(high or 4, 4))
    return values


def entries(
    ruleset: RuleSet, data: Mapping[str, Any] | None, army: Army | None
) -> tuple[EntryStatus, ...]:
    raw = list((data or {}).get("entries", []))
    where = placed(army.units, raw) if army is not None else []
    result = []
    for n, entry in enumerate(raw):
        high = entry.get("max")
        result.append(
            EntryStatus(
                key=str(entry.get("key") or f"entry-{n + 1}"),
                label=label(entry, n),
                values=preset(entry, n),
                cost=None,
                have=where.count(n),
                minimum=int(entry.get("min", 0) or 0),
                maximum=None if high is None else int(high),
                note=str(entry.get("note") or ""),
                unit_ids=ids_of(army, [i for i, p in enumerate(where) if p == n]),
            )
        )
    return tuple(result)
