"""What every list-aware rule set shares: an entry's cost, allowed values, mismatch words.

An army-list entry, whatever its rule set's list format, comes down to a *match*: unit
field -> the values it allows (a field left out allows any value). The helpers here work
on such matches, so Into the Dark's entries, the Dark Ages' required units and choices and
Feudal's rule-set constraints are all restricted and explained the same way.

A value ``v`` of field ``f`` is *allowed* for a unit when the unit with only ``f`` changed
to ``v`` still matches some entry (for a unit that matches none: when the entry nearest to
it allows ``v``). So the value a matching unit has is always among its allowed values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rules.base import Allowed, Army, CheckDoc, RuleSet, Unit
from rules.errors import MalformedDocument
from rules.fields import Field, parse_object

Match = Mapping[str, Sequence[Any]]

# The checks of a list made of entries (a match, a minimum and a maximum each), documented
# once for every rule set whose lists are entries
ENTRY_LIST_CHECKS = (
    CheckDoc("not-in-army-list", "error", "army_list",
             "A unit that matches no entry of the army list."),
    CheckDoc("army-list-min", "error", "army_list",
             "Fewer units of a list entry than its minimum."),
    CheckDoc("army-list-max", "error", "army_list",
             "More units of a list entry than its maximum."),
)  # fmt: skip


@dataclass(frozen=True)
class Entry:
    """An entry reduced to what restricting and explaining need: its label and match."""

    label: str
    match: Match

    def fits(self, unit: Mapping[str, Any]) -> bool:
        return all(_member(unit.get(k), allowed) for k, allowed in self.match.items())

    def misses(self, unit: Mapping[str, Any]) -> list[str]:
        """The fields whose value this entry does not allow, in the match's order."""
        return [k for k, allowed in self.match.items() if not _member(unit.get(k), allowed)]


def _member(value: Any, allowed: Sequence[Any]) -> bool:
    # True == 1 in Python; a list's booleans and a unit's numbers must not mix
    return any(value == a and type(value) is type(a) for a in allowed)


def vocabulary(field: Field) -> tuple[Any, ...]:
    """Every value a field may hold, in the order the builder offers them."""
    if field.kind == "boolean":
        return (False, True)
    values = field.values
    if field.nullable and None not in values:
        return (None, *values)
    return values


def word(value: Any) -> str:
    """A value as a player reads it in a message."""
    if value is None:
        return "none"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value).replace("_", " ")


def words(values: Iterable[Any]) -> str:
    items = [word(v) for v in values]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def blank_army(ruleset: RuleSet, list_data: Mapping[str, Any] | None) -> Army:
    """An army with no units and default options: the context of a cost without an army."""
    return Army(
        name="",
        ruleset=ruleset.slug,
        army_list=None,
        points_limit=None,
        options=ruleset.default_options(),
        generals=(),
        units=(),
        notes="",
        list_data=list_data,
    )


def unit_from(ruleset: RuleSet, values: Mapping[str, Any], army: Army) -> Unit | None:
    """The normalised unit the parser makes of ``values`` (None if it refuses them)."""
    try:
        parsed = parse_object(ruleset.unit_fields, dict(values), "unit")
        return ruleset.normalise_unit(parsed, army.options, "unit")
    except MalformedDocument:
        return None


def ids_of(army: Army | None, indices: Iterable[int]) -> tuple[str, ...]:
    """The stable ids of the army's units at ``indices``, in that order (a unit the
    document gave no id is left out)."""
    if army is None:
        return ()
    known = army.unit_ids
    return tuple(found for i in indices if 0 <= i < len(known) and (found := known[i]))


def entry_cost(ruleset: RuleSet, values: Mapping[str, Any], army: Army | None) -> int | None:
    """Points of one unit with ``values``, as the engine costs it (None: no points)."""
    if not ruleset.uses_points:
        return None
    context = army if army is not None else blank_army(ruleset, None)
    unit = unit_from(ruleset, values, context)
    if unit is None:
        return None
    cost = ruleset.cost_unit(unit, context)
    return cost.points if cost is not None else None


def nearest(entries: Sequence[Entry], unit: Mapping[str, Any]) -> Entry | None:
    """The entry the unit misses on the fewest fields (the first of equals)."""
    if not entries:
        return None
    return min(entries, key=lambda e: len(e.misses(unit)))


def mismatch_detail(
    entries: Sequence[Entry], unit: Mapping[str, Any], fields: Mapping[str, Field]
) -> str:
    """ "armour 'light' is not allowed for Hirdmen (allowed: heavy)" for the nearest entry."""
    entry = nearest(entries, unit)
    if entry is None:
        return ""
    parts = []
    for key in entry.misses(unit):
        f = fields.get(key)
        name = f.label.lower() if f is not None else key.replace("_", " ")
        values = in_order(entry.match[key], f)
        parts.append(
            f"{name} {_quoted(unit.get(key))} is not allowed for {entry.label} "
            f"(allowed: {', '.join(word(v) for v in values)})"
        )
    return "; ".join(parts)


def _quoted(value: Any) -> str:
    return f"'{value}'" if isinstance(value, str) else word(value)


def in_order(allowed: Sequence[Any], f: Field | None) -> list[Any]:
    """``allowed`` in the field's vocabulary order (as given without a field)."""
    if f is None:
        return list(allowed)
    return [v for v in vocabulary(f) if _member(v, allowed)]


def restrict_by_entries(
    entries: Sequence[Entry],
    unit: Mapping[str, Any],
    fields: Mapping[str, Field],
    normalise: Callable[[Unit], Unit] = dict,
) -> dict[str, Allowed]:
    """Field -> Allowed for the fields the entries restrict for this unit (see the module).

    ``normalise`` is the rule set's own normalisation of a changed unit (Dark Ages 2015
    reads cavalry with no missile as javelin cavalry)."""
    if not entries:
        return {}
    keys: list[str] = []
    for entry in entries:
        keys.extend(k for k in entry.match if k not in keys and k in fields)
    matching = [e for e in entries if e.fits(unit)]
    result: dict[str, Allowed] = {}
    if not matching:
        entry = nearest(entries, unit)
        assert entry is not None
        for key in keys:
            if key not in entry.match:
                continue
            values = tuple(in_order(entry.match[key], fields[key]))
            if values != vocabulary(fields[key]):
                result[key] = Allowed(values, _reason([entry], fields[key], values, near=True))
        return result
    for key in keys:
        f = fields[key]
        values = []
        givers: list[Entry] = []
        for value in vocabulary(f):
            changed = normalise({**unit, key: value})
            fitting = [e for e in entries if e.fits(changed)]
            if fitting:
                values.append(value)
                givers.extend(e for e in fitting if e not in givers)
        if tuple(values) != vocabulary(f):
            result[key] = Allowed(tuple(values), _reason(givers, f, values))
    return result


def _reason(entries: Sequence[Entry], f: Field, values: Sequence[Any], near: bool = False) -> str:
    labels: list[str] = []
    for e in entries:
        if e.label not in labels:
            labels.append(e.label)
    who = " or ".join(labels)
    if near:
        who = f"nearest list entry {who}"
    return f"{who}: {rule_words(f, values)}"


def rule_words(f: Field, values: Sequence[Any]) -> str:
    """ "mounted is not allowed", "no missile weapon", "armour armoured or mailed only"."""
    name = f.label.lower()
    if f.kind == "boolean" and len(values) == 1:
        return f"{name} is required" if values[0] else f"{name} is not allowed"
    if len(values) == 1 and values[0] is None:
        return f"no {name}"
    if not values:
        return f"no {name} value fits"
    return f"{name} {words(values)} only"


def merge(*restrictions: Mapping[str, Allowed]) -> dict[str, Allowed]:
    """Several restrictions of one unit together: values both allow, reasons joined.

    Where they allow no value in common (a unit far from every entry, e.g. a mounted unit
    nearest a foot-archer entry) the first restriction's values stand, so a field always
    offers something; the unit stays refused until other fields change too."""
    result: dict[str, Allowed] = {}
    for restriction in restrictions:
        for key, allowed in restriction.items():
            if key not in result:
                result[key] = allowed
                continue
            before = result[key]
            values = tuple(v for v in before.values if _member(v, allowed.values))
            values = values or before.values
            result[key] = Allowed(values, f"{before.reason}; {allowed.reason}")
    return result


def only(f: Field, values: Sequence[Any], reason: str) -> dict[str, Allowed]:
    """A rule-set constraint: ``f`` may take only ``values`` (nothing if that is every value)."""
    ordered = tuple(v for v in vocabulary(f) if _member(v, values))
    if ordered == vocabulary(f):
        return {}
    return {f.name: Allowed(ordered, reason)}


@dataclass(frozen=True)
class FieldRule:
    """A rule of the rule set that restricts one field: the check codes that refuse a value
    (``check_unit``'s, or with ``army`` also ``check_army``'s issues about the unit), and
    the reason the player reads."""

    field: str
    codes: tuple[str, ...]
    reason: str
    army: bool = False


def by_checks(
    ruleset: RuleSet, unit: Mapping[str, Any], rules: Sequence[FieldRule]
) -> dict[str, Allowed]:
    """Field -> Allowed from the rule set's own checks: a value is allowed when, with only
    that field changed, the unit draws no more of the rule's issues than the best value
    does. So the values offered are exactly those the engine's checks accept."""
    army = blank_army(ruleset, None)
    base = unit_from(ruleset, unit, army)
    if base is None:  # a unit the parser refuses: its checks cannot be asked
        return {}
    fields = {f.name: f for f in ruleset.unit_fields}
    result: dict[str, Allowed] = {}
    for rule in rules:
        f = fields[rule.field]
        counts = []
        for value in vocabulary(f):
            changed = _normalised(ruleset, {**base, rule.field: value}, army)
            issues = list(ruleset.check_unit(changed, 0, army))
            if rule.army:
                alone = replace(army, units=(changed,))
                issues += [i for i in ruleset.check_army(alone) if i.unit == 0]
            counts.append((value, sum(1 for i in issues if i.code in rule.codes)))
        best = min(n for _, n in counts)
        allowed = [v for v, n in counts if n == best]
        result = merge(result, only(f, allowed, rule.reason))
    return result


def normaliser(ruleset: RuleSet) -> Callable[[Unit], Unit]:
    """The rule set's normalisation of one unit, with default options."""
    army = blank_army(ruleset, None)
    return lambda unit: _normalised(ruleset, unit, army)


def _normalised(ruleset: RuleSet, unit: Unit, army: Army) -> Unit:
    try:
        return ruleset.normalise_unit(unit, army.options, "unit")
    except MalformedDocument:
        return unit


def match_choices(
    match: Mapping[str, Sequence[Any]], fields: Sequence[Field]
) -> dict[str, tuple[Any, ...]]:
    """An entry's match as field -> allowed values, both in the vocabulary's order."""
    return {f.name: tuple(in_order(match[f.name], f)) for f in fields if f.name in match}
