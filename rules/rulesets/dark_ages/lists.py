"""Army lists of the two Dark Ages rule sets: required units, choices, fixed units.

The d5 source describes its lists ("All Units above the underline are required ... then
they can round off their force with additional required Units and at least one choice";
"Units in italics may not be changed") but the lists themselves did not survive. Muster's
starter lists use this JSON format (the ``data`` of an army-list fixture):

.. code-block:: json

    {
      "required": [
        {"key": "infantry", "name": "Shieldwall infantry", "match": {"type": ["infantry"]},
         "count": 3, "fixed": false, "note": "large shields and short spears"}
      ],
      "choices": [
        {"key": "support", "name": "Support", "pick": 2, "note": "",
         "options": [
           {"key": "bows", "name": "Bow skirmishers",
            "match": {"type": ["skirmishers"], "missile": ["bow"]}, "max": 1}
         ]}
      ],
      "notes": "free text shown on the list's page"
    }

- ``required`` (the units above the underline): each entry is fielded exactly ``count``
  times. ``choices``: each group picks ``pick`` units among its ``options``, at most
  ``max`` of any one option. Required counts plus picks make the list's six units.
- ``match`` names the unit fields an entry fixes, each with its allowed values:
  ``type``, ``missile`` and ``variant``. A field left out allows any value, except
  ``variant``: a unit with a variant (Arthur's cavalry, Scots nobles...) only fits an
  entry that names it.
- ``unit`` (optional) holds values the builder fills in when a player adds the entry's
  unit, e.g. ``{"quality": "elite"}`` for Arthur's cavalry; it constrains nothing.
- ``fixed`` (dark-ages-d5 only) marks the source's italics: that unit may take no change.
- A list is written for six units. dark-ages-2015 doubles (triples...) every number for a
  12-unit (18-unit...) double army such as the Bridgehead battle report's.

Fitting an army to its list is ``rules.rulesets.dark_ages.fit``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from rules.base import Unit, entry_preset
from rules.errors import MalformedDocument
from rules.fields import Field, parse_value
from rules.list_entries import Entry
from rules.list_ids import id_problems

LIST_SIZE = 6
MATCH_KEYS = ("type", "missile", "variant")
_ENTRY_KEYS = {"id", "key", "name", "match", "count", "max", "fixed", "note", "unit"}
_GROUP_KEYS = {"id", "key", "name", "pick", "options", "note"}


@dataclass(frozen=True)
class Slot:
    """One required entry or one option of a choice group."""

    key: str
    name: str
    match: Mapping[str, tuple[Any, ...]]
    limit: int  # required: the count; option: the maximum
    fixed: bool = False
    group: int | None = None  # None: required; else the index of its choice group
    note: str = ""

    def fits(self, unit: Unit) -> bool:
        for key in MATCH_KEYS:
            allowed = self.match.get(key)
            if allowed is None and key == "variant":
                allowed = (None,)
            if allowed is not None and unit.get(key) not in allowed:
                return False
        return True

    def as_entry(self) -> Entry:
        """The slot as a match (``rules.list_entries``): no variant unless it names one."""
        match = dict(self.match)
        match.setdefault("variant", (None,))
        return Entry(self.name, match)


@dataclass(frozen=True)
class Group:
    key: str
    name: str
    pick: int
    note: str = ""


@dataclass(frozen=True)
class ListSpec:
    """A parsed army list (``validate`` first: this trusts its data)."""

    required: tuple[Slot, ...]
    options: tuple[Slot, ...]
    groups: tuple[Group, ...]
    notes: str = ""

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ListSpec:
        required = tuple(
            Slot(e["key"], e["name"], _match(e), e["count"], bool(e.get("fixed", False)),
                 None, e.get("note", ""))
            for e in data.get("required", [])
        )  # fmt: skip
        groups, options = [], []
        for g, group in enumerate(data.get("choices", [])):
            groups.append(Group(group["key"], group["name"], group["pick"], group.get("note", "")))
            for e in group["options"]:
                options.append(
                    Slot(e["key"], e["name"], _match(e), e["max"], bool(e.get("fixed", False)),
                         g, e.get("note", ""))
                )  # fmt: skip
        return cls(required, tuple(options), tuple(groups), data.get("notes", ""))

    @property
    def slots(self) -> tuple[Slot, ...]:
        return self.required + self.options


def _match(entry: Mapping[str, Any]) -> dict[str, tuple[Any, ...]]:
    return {k: tuple(v) for k, v in entry.get("match", {}).items()}


# -- validation -------------------------------------------------------------------------


@dataclass(frozen=True)
class VariantRule:
    """What a variant fixes: the types it may have, and its missile where it has one."""

    label: str
    types: tuple[str, ...]
    missiles: tuple[str | None, ...]


def unit_presets(data: Mapping[str, Any] | None) -> list[tuple[str, Unit]]:
    """The units a list offers to add: its required units, then each choice's options."""
    if not isinstance(data, Mapping):
        return []
    entries = list(data.get("required", []))
    for group in data.get("choices", []):
        entries.extend(group.get("options", []))
    return [entry_preset(entry, f"Entry {n + 1}") for n, entry in enumerate(entries)]


def validate(
    data: Any,
    *,
    fields: Mapping[str, Field],
    variants: Mapping[str, VariantRule],
    allow_fixed: bool,
) -> list[str]:
    """Every problem with a list's data, as messages a curator can act on (empty: fine)."""
    if not isinstance(data, dict):
        return ["constraint data must be a JSON object"]
    problems: list[str] = id_problems(data)
    unknown = set(data) - {"required", "choices", "notes"}
    if unknown:
        problems.append(
            f"unknown keys {', '.join(sorted(unknown))}; allowed: required, choices, notes"
        )
    if not isinstance(data.get("notes", ""), str):
        problems.append("notes must be text")
    keys: list[str] = []
    total = 0
    empty = "required must be a non-empty list of required units"
    required = _objects(data.get("required"), "required", problems, empty)
    for where, entry in required:
        problems.extend(_entry(entry, where, "count", fields, variants, allow_fixed, keys))
        if isinstance(entry.get("count"), int) and not isinstance(entry["count"], bool):
            total += entry["count"]
    empty = "choices must be a non-empty list of choice groups (at least one choice)"
    choices = _objects(data.get("choices"), "choices", problems, empty)
    for where, group in choices:
        extra = set(group) - _GROUP_KEYS
        if extra:
            problems.append(
                f"{where}: unknown keys {', '.join(sorted(extra))}; "
                f"allowed: {', '.join(sorted(_GROUP_KEYS))}"
            )
        problems.extend(_key_and_name(group, where, keys))
        pick = group.get("pick")
        if not _whole(pick, 1):
            problems.append(f"{where}.pick: how many units to pick, a whole number of at least 1")
            pick = None
        else:
            total += pick
        empty = f"{where}.options: must be a non-empty list of options"
        options = _objects(group.get("options"), f"{where}.options", problems, empty)
        for owhere, entry in options:
            problems.extend(_entry(entry, owhere, "max", fields, variants, allow_fixed, keys))
            high = entry.get("max")
            if pick is not None and _whole(high, 1) and high > pick:
                problems.append(f"{owhere}.max: {high} is more than the group's pick of {pick}")
    if not problems and total != LIST_SIZE:
        problems.append(
            f"the required units plus the units to pick make {total} units; a list has "
            f"{LIST_SIZE} (a double army doubles the list)"
        )
    return problems


def _objects(
    value: Any, path: str, problems: list[str], empty: str
) -> Iterator[tuple[str, dict[str, Any]]]:
    """The objects of the non-empty list ``value`` at ``path``, each with its own path.

    Problems go to ``problems`` as the iteration reaches them (``empty`` when ``value`` is
    not a non-empty list, one per item that is not an object), so they keep list order.
    """
    if not isinstance(value, list) or not value:
        problems.append(empty)
        return
    for n, item in enumerate(value):
        where = f"{path}[{n}]"
        if isinstance(item, dict):
            yield where, item
        else:
            problems.append(f"{where}: must be an object")


def _whole(value: Any, low: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


def _key_and_name(obj: Mapping[str, Any], where: str, keys: list[str]) -> list[str]:
    problems = []
    key = obj.get("key")
    if not isinstance(key, str) or not key.strip():
        problems.append(f"{where}.key: a short identifier is required")
    elif key in keys:
        problems.append(f"{where}.key: {key!r} is used twice in this list")
    else:
        keys.append(key)
    if not isinstance(obj.get("name"), str) or not obj["name"].strip():
        problems.append(f"{where}.name: a name is required")
    if not isinstance(obj.get("note", ""), str):
        problems.append(f"{where}.note: must be text")
    return problems


def _entry(
    entry: Mapping[str, Any],
    where: str,
    number: str,
    fields: Mapping[str, Field],
    variants: Mapping[str, VariantRule],
    allow_fixed: bool,
    keys: list[str],
) -> list[str]:
    other = "max" if number == "count" else "count"
    allowed = _ENTRY_KEYS - {other} - (set() if allow_fixed else {"fixed"})
    problems = []
    extra = set(entry) - allowed
    if extra:
        why = "" if allow_fixed or "fixed" not in extra else " (this rule set has no fixed units)"
        problems.append(
            f"{where}: unknown keys {', '.join(sorted(extra))}{why}; "
            f"allowed: {', '.join(sorted(allowed))}"
        )
    problems.extend(_key_and_name(entry, where, keys))
    if not _whole(entry.get(number), 1):
        problems.append(f"{where}.{number}: a whole number of at least 1")
    if "fixed" in entry and not isinstance(entry["fixed"], bool):
        problems.append(f"{where}.fixed: must be true or false")
    match = entry.get("match")
    if not isinstance(match, dict) or not match:
        problems.append(
            f"{where}.match: an object of unit field -> allowed values, "
            f"using {', '.join(MATCH_KEYS)}"
        )
        return problems
    for key, values in match.items():
        if key not in MATCH_KEYS:
            problems.append(
                f"{where}.match.{key}: not a field an entry can fix ({', '.join(MATCH_KEYS)})"
            )
            continue
        if not isinstance(values, list) or not values:
            problems.append(f"{where}.match.{key}: must be a non-empty list of values")
            continue
        f = fields[key]
        known = f.values + ((None,) if f.nullable else ())
        for value in values:
            if not any(value == v and type(value) is type(v) for v in known):
                what = {"type": "unit type", "missile": "missile", "variant": "variant"}[key]
                names = ", ".join("null" if v is None else str(v) for v in known)
                problems.append(f"{where}.match.{key}: unknown {what} {value!r}; one of {names}")
    if problems:
        return problems
    problems.extend(_preset(entry.get("unit", {}), match, fields, where))
    types = match.get("type")
    missiles = match.get("missile")
    for variant in match.get("variant", []):
        if variant is None:
            continue
        rule = variants[variant]
        if types is not None and not set(types) & set(rule.types):
            problems.append(
                f"{where}.match: {rule.label} are {' or '.join(rule.types)}; "
                f"type {' or '.join(types)} can never match them"
            )
        if missiles is not None and not set(missiles) & set(rule.missiles):
            problems.append(
                f"{where}.match: {rule.label} carry {_missiles(rule.missiles)}; "
                f"missile {_missiles(missiles)} can never match them"
            )
    return problems


def _preset(
    unit: Any, match: Mapping[str, list[Any]], fields: Mapping[str, Field], where: str
) -> list[str]:
    if not isinstance(unit, dict):
        return [f"{where}.unit: an object of unit field -> value"]
    problems = []
    for key, value in unit.items():
        path = f"{where}.unit.{key}"
        if key not in fields or key == "name":
            problems.append(
                f"{path}: not a unit field ({', '.join(f for f in fields if f != 'name')})"
            )
            continue
        try:
            parse_value(fields[key], value, path)
        except MalformedDocument as exc:
            problems.append(exc.message)
            continue
        if key in match and value not in match[key]:
            problems.append(f"{path}: {value!r} contradicts the entry's match")
    return problems


def _missiles(values: Iterable[Any]) -> str:
    return " or ".join("no missile" if v is None else str(v) for v in values)
