"""Into the Dark army lists: the list checks and the list format.

A list is ``entries`` (each a ``match`` of unit field -> allowed values, with ``min`` and
``max``), share ``limits`` (at most a fraction of the army's points for matching troops)
and ``notes``. The picker's view of a list (entries with counts, allowed values) is
``rules.rulesets.into_the_dark.entries``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from rules.base import Army, Issue, RuleSet, Unit, entry_preset, error
from rules.fields import Field
from rules.list_shape import ListShape, Section, ShapeField, entries_shape, values_fields
from rules.matching import fits
from rules.rulesets.into_the_dark.entries import no_entry_message

# The source's army lists never appeared ("(soon) found at the end of these rules"); an
# army "can be picked from any respectable set of army lists" (Choosing Your Army).
LIST_RULE = "Choosing Your Army"


def matches(unit: Unit, match: Mapping[str, Any]) -> bool:
    """Whether a unit has one of the allowed values of every field ``match`` names."""
    return all(unit.get(key) in allowed for key, allowed in match.items())


def army_list_issues(ruleset: RuleSet, army: Army, data: Mapping[str, Any]) -> Iterable[Issue]:
    """not-in-army-list, army-list-min, army-list-max and the share limits of a list."""
    entries = data.get("entries", [])
    options: list[list[int]] = []
    for i, unit in enumerate(army.units):
        fitting = [e for e, entry in enumerate(entries) if matches(unit, entry["match"])]
        options.append(fitting)
        if not fitting:
            yield error("not-in-army-list", no_entry_message(ruleset, data, unit),
                        LIST_RULE, unit=i)  # fmt: skip
    listed = [opt for opt in options if opt]
    minimum = [entry.get("min", 0) for entry in entries]
    maximum = [entry.get("max", len(army.units)) for entry in entries]
    per_entry = False
    for e, entry in enumerate(entries):
        could = sum(1 for opt in listed if e in opt)
        must = sum(1 for opt in listed if opt == [e])
        label = entry.get("name", entry.get("key", f"entry {e + 1}"))
        if could < minimum[e]:
            per_entry = True
            yield error("army-list-min",
                        f"The list needs at least {minimum[e]} {label}; the army has {could}.",
                        LIST_RULE)  # fmt: skip
        elif must > maximum[e]:
            per_entry = True
            yield error("army-list-max",
                        f"The list allows at most {maximum[e]} {label}; the army has {must}.",
                        LIST_RULE)  # fmt: skip
    # Each entry fits on its own; units that fit several entries may still not share out.
    if not per_entry and not fits(listed, minimum, maximum):
        if not fits(listed, [0] * len(entries), maximum):
            yield error("army-list-max",
                        "Too many units for the list's entries taken together: no way to "
                        "count them within every entry's maximum.", LIST_RULE)  # fmt: skip
        else:
            yield error("army-list-min",
                        "The units cannot fill every entry's minimum at once: some serve "
                        "two entries.", LIST_RULE)  # fmt: skip
    for limit in data.get("limits", []):
        yield from _limit_issues(ruleset, army, limit)


def _limit_issues(ruleset: RuleSet, army: Army, limit: Mapping[str, Any]) -> Iterable[Issue]:
    share = Fraction(str(limit["max_share"]))
    costs = [ruleset.cost_unit(u, army).points for u in army.units]
    total = sum(costs)
    part = sum(c for u, c in zip(army.units, costs, strict=True) if matches(u, limit["match"]))
    if total and part > share * total:
        yield error("army-list-limit",
                    f"{limit.get('label', 'Restricted troops')}: {part} of {total} points; "
                    f"the list allows at most {_share(share)} of the points.", LIST_RULE)  # fmt: skip


def unit_presets(
    list_data: Mapping[str, Any] | None, follow_ups: Iterable[tuple[str, Any, Mapping[str, Any]]]
) -> list[tuple[str, Unit]]:
    """The units a list offers to add: each entry's first allowed values."""
    presets = []
    for n, entry in enumerate((list_data or {}).get("entries", [])):
        label, values = entry_preset(entry, f"Entry {n + 1}")
        for field, value, then in follow_ups:  # a champion entry: one open figure
            if values.get(field) == value:
                values.update(then)
        presets.append((label, values))
    return presets


def list_problems(data: Mapping[str, Any], unit_fields: Iterable[Field]) -> list[str]:
    """Everything wrong with an Into the Dark list (an object): entries, limits, notes."""
    problems: list[str] = []
    unknown = set(data) - {"entries", "limits", "notes"}
    if unknown:
        problems.append(
            f"unknown keys {', '.join(sorted(unknown))}; allowed: entries, limits, notes"
        )
    entries = data.get("entries")
    if not isinstance(entries, list) or not entries:
        return [*problems, "entries must be a non-empty list of troop entries"]
    fields = {f.name: f for f in unit_fields}
    matchable = {n: f for n, f in fields.items() if f.kind in ("choice", "boolean")}
    keys: set[Any] = set()
    for e, entry in enumerate(entries):
        where = f"entries[{e}]"
        if not isinstance(entry, dict):
            problems.append(f"{where}: must be an object")
            continue
        extra = set(entry) - {"id", "key", "name", "match", "min", "max", "note"}
        if extra:
            problems.append(f"{where}: unknown keys {', '.join(sorted(extra))}")
        if not isinstance(entry.get("name"), str) or not entry["name"].strip():
            problems.append(f"{where}.name: a name is required")
        key = entry.get("key")
        if key is not None and (not isinstance(key, str) or not key.strip()):
            problems.append(f"{where}.key: a short id is required")
        elif key is not None and key in keys:
            problems.append(f"{where}.key: {key!r} is used by another entry")
        keys.add(key)
        low, high = entry.get("min", 0), entry.get("max")
        if not _whole(low):
            problems.append(f"{where}.min: at least must be a whole number, 0 or more")
        elif high is not None and not _whole(high):
            problems.append(f"{where}.max: at most must be a whole number, 0 or more, or none")
        elif high is not None and high < low:
            problems.append(f"{where}.max: at most {high} is fewer than at least {low}")
        problems.extend(_validate_match(entry.get("match"), matchable, where))
    limits = data.get("limits", [])
    if not isinstance(limits, list):
        problems.append("limits must be a list")
    else:
        for n, limit in enumerate(limits):
            where = f"limits[{n}]"
            if not isinstance(limit, dict):
                problems.append(f"{where}: must be an object")
                continue
            try:
                share = Fraction(str(limit.get("max_share")))
                if not 0 <= share <= 1:
                    raise ValueError
            except (ValueError, ZeroDivisionError):
                problems.append(f'{where}.max_share: a fraction from 0 to 1, e.g. "1/4"')
            problems.extend(_validate_match(limit.get("match"), matchable, where))
    return problems


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _validate_match(match: Any, matchable: Mapping[str, Field], where: str) -> list[str]:
    if not isinstance(match, dict):
        return [f"{where}.match: must be an object of unit field -> allowed values"]
    problems = []
    for key, allowed in match.items():
        field = matchable.get(key)
        if field is None:
            problems.append(
                f"{where}.match.{key}: not a unit field that can be matched "
                f"({', '.join(matchable)})"
            )
            continue
        values = (True, False) if field.kind == "boolean" else field.values
        if field.nullable:
            values = (*values, None)
        if not isinstance(allowed, list) or not allowed:
            problems.append(f"{where}.match.{key}: must be a non-empty list of values")
            continue
        for value in allowed:
            if not any(value == v and type(value) is type(v) for v in values):
                problems.append(
                    f"{where}.match.{key}: {value!r} is not one of {', '.join(map(str, values))}"
                )
    return problems


def _share(share: Fraction) -> str:
    return f"{share.numerator}/{share.denominator}" if share.denominator != 1 else str(share)


def list_shape(unit_fields: tuple[Field, ...]) -> ListShape:
    """The list editor's description of an Into the Dark list: entries, each with a name,
    how many and the values each unit field may take."""
    fields = (
        ShapeField("min", "At least", "integer"),
        ShapeField("max", "At most", "integer", optional=True),
        ShapeField("note", "Note", "text", optional=True),
    )
    values = values_fields(unit_fields)
    entries = entries_shape(fields, values)
    limits = Section(
        key="limits",
        label="Share-of-points limits",
        item_label="Limit",
        fields=(
            ShapeField("label", "Troops it limits", "text"),
            ShapeField("max_share", "At most this share of the points (e.g. 1/4)", "text"),
        ),
        values_key="match",
        values=values,
        # a new limit limits nothing yet (all troops, all the points): the author narrows it
        new_item={"label": "New limit", "max_share": "1", "match": {}},
        minimum=0,
    )
    entries_part, notes = entries.sections
    return ListShape(sections=(entries_part, limits, notes), empty=entries.empty)
