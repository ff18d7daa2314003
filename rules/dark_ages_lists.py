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

Fitting an army to a list is a flow problem (a unit may fit a required entry and a choice;
a choice's options share its picks), solved here exactly as a small min-cost max-flow:
place as many units as possible, then fill as many required places as possible, then put
as few changed units as possible in fixed places. Units with the same fitting entries
move through the network together, so a large army costs no more than a small one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.base import Issue, Unit, entry_preset, error
from rules.errors import MalformedDocument
from rules.fields import Field, parse_value
from rules.list_entries import Entry, mismatch_detail

LIST_SIZE = 6
MATCH_KEYS = ("type", "missile", "variant")
_ENTRY_KEYS = {"key", "name", "match", "count", "max", "fixed", "note", "unit"}
_GROUP_KEYS = {"key", "name", "pick", "options", "note"}


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
    problems: list[str] = []
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
            f"required counts plus picks make {total} units; a list has {LIST_SIZE} "
            "(a double army doubles the list)"
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


# -- fitting an army to a list ---------------------------------------------------------------


@dataclass
class Fit:
    """Where each unit went: ``slot_of[i]`` is the slot of unit ``i`` (None: no place)."""

    spec: ListSpec
    scale: int
    slot_of: dict[int, Slot | None] = field(default_factory=dict)
    required_filled: dict[str, int] = field(default_factory=dict)
    choices_filled: int = 0
    fixed_changed: list[int] = field(default_factory=list)

    @property
    def unplaced(self) -> list[int]:
        return [i for i, slot in self.slot_of.items() if slot is None]

    @property
    def choice_places(self) -> int:
        return sum(g.pick for g in self.spec.groups) * self.scale

    @property
    def required_short(self) -> dict[str, int]:
        return {
            s.key: s.limit * self.scale - self.required_filled.get(s.key, 0)
            for s in self.spec.required
            if s.limit * self.scale > self.required_filled.get(s.key, 0)
        }


def fit(
    units: Sequence[tuple[int, Unit]],
    spec: ListSpec,
    *,
    scale: int = 1,
    changed: Callable[[Unit], bool] = lambda unit: False,
    required_only: bool = False,
) -> Fit:
    """Fit ``(index, unit)`` pairs to the list (every number times ``scale``).

    With ``required_only`` the choices are ignored (an allied contingent is drawn from
    its list's required units only).
    """
    slots = spec.required if required_only else spec.slots
    # units that fit the same slots and are equally changed travel together
    profiles: dict[tuple[tuple[int, ...], bool], list[int]] = {}
    for index, unit in units:
        fitting = tuple(n for n, slot in enumerate(slots) if slot.fits(unit))
        profiles.setdefault((fitting, changed(unit)), []).append(index)

    big = len(units) + 1
    graph = _Graph()
    source, sink = graph.node(), graph.node()
    slot_nodes = [graph.node() for _ in slots]
    group_nodes = [graph.node() for _ in spec.groups]
    for g, group in enumerate(spec.groups):
        if not required_only:
            # a choice place costs more than a required one: required places fill first
            graph.edge(group_nodes[g], sink, group.pick * scale, big)
    for n, slot in enumerate(slots):
        if slot.group is None:
            graph.edge(slot_nodes[n], sink, slot.limit * scale, 0)
        else:
            graph.edge(slot_nodes[n], group_nodes[slot.group], slot.limit * scale, 0)
    profile_edges = []
    for (fitting, is_changed), indices in profiles.items():
        node = graph.node()
        graph.edge(source, node, len(indices), 0)
        edges = []
        for n in fitting:
            # a changed unit in a fixed place is the last resort
            cost = 1 if is_changed and slots[n].fixed else 0
            edges.append((n, graph.edge(node, slot_nodes[n], len(indices), cost)))
        profile_edges.append((indices, edges))
    graph.min_cost_max_flow(source, sink)

    by_index = dict(units)
    result = Fit(spec, scale)
    for indices, edges in profile_edges:
        queue = list(indices)
        for n, edge in edges:
            for _ in range(graph.flow(edge)):
                index = queue.pop(0)
                slot = slots[n]
                result.slot_of[index] = slot
                if slot.group is None:
                    result.required_filled[slot.key] = result.required_filled.get(slot.key, 0) + 1
                else:
                    result.choices_filled += 1
                if slot.fixed and changed(by_index[index]):
                    result.fixed_changed.append(index)
        for index in queue:
            result.slot_of[index] = None
    result.slot_of = dict(sorted(result.slot_of.items()))
    result.fixed_changed.sort()
    return result


def list_issues(
    fit_result: Fit,
    units: Mapping[int, Unit],
    rule: str,
    *,
    stand_ins: int = 0,
) -> list[Issue]:
    """The army-list issues of a fit: missing-required-unit, choice-not-allowed,
    too-many-of-choice.

    ``stand_ins`` allied units take the places of missing choices first, then of missing
    required units (d5 "Allied Forces").
    """
    spec = fit_result.spec
    k = fit_result.scale
    issues: list[Issue] = []
    for index in fit_result.unplaced:
        unit = units[index]
        options = [s for s in spec.options if s.fits(unit)]
        reasons = [
            f"its {s.limit * k} required {s.name} are already fielded"
            for s in spec.required
            if s.fits(unit)
        ]
        for slot in options:
            group = spec.groups[slot.group or 0]
            picks = group.pick * k
            reasons.append(
                f"its {picks} {group.name} choice{'s allow' if picks != 1 else ' allows'} "
                f"at most {slot.limit * k} {slot.name}"
            )
        if options:
            issues.append(error(
                "too-many-of-choice",
                f"{unit['name']}: one too many for this list: {'; '.join(reasons)}.",
                rule, unit=index,
            ))  # fmt: skip
        elif reasons:
            issues.append(error(
                "choice-not-allowed",
                f"{unit['name']}: {'; '.join(reasons)}, and no choice of the list allows "
                "another.", rule, unit=index,
            ))  # fmt: skip
        else:
            issues.append(error(
                "choice-not-allowed",
                f"{unit['name']}: {_describe(unit)} is neither a required unit nor a choice "
                f"of this list (it allows {_allowed(spec)}){_nearest(spec, unit)}.", rule,
                unit=index,
            ))  # fmt: skip
    spare = max(0, stand_ins - max(0, fit_result.choice_places - fit_result.choices_filled))
    for slot in spec.required:
        short = fit_result.required_short.get(slot.key, 0)
        covered = min(short, spare)
        spare -= covered
        if short > covered:
            have = fit_result.required_filled.get(slot.key, 0)
            allies = f" (allies stand in for {covered})" if covered else ""
            issues.append(error(
                "missing-required-unit",
                f"The list requires {slot.limit * k} {slot.name}; the army has {have}{allies}.",
                rule,
            ))  # fmt: skip
    return issues


def _describe(unit: Unit) -> str:
    """``infantry``, ``skirmishers (bow)``, ``roman cavalry (cavalry, javelin)``."""
    what = [str(unit.get("type"))] + ([str(unit["missile"])] if unit.get("missile") else [])
    if unit.get("variant"):
        return f"{str(unit['variant']).replace('_', ' ')} ({', '.join(what)})"
    return what[0] if len(what) == 1 else f"{what[0]} ({what[1]})"


def _nearest(spec: ListSpec, unit: Unit) -> str:
    """ " — type 'cavalry' is not allowed for Bow skirmishers (allowed: skirmishers)"."""
    detail = mismatch_detail([s.as_entry() for s in spec.slots], unit, {})
    return f" — {detail}" if detail else ""


def _allowed(spec: ListSpec) -> str:
    names = []
    for slot in spec.slots:
        if slot.name not in names:
            names.append(slot.name)
    return ", ".join(names)


# -- a small min-cost max-flow ------------------------------------------------------------


class _Graph:
    """Successive shortest paths (Bellman-Ford): the networks here have a few dozen nodes."""

    def __init__(self) -> None:
        self.adj: list[list[int]] = []
        self.to: list[int] = []
        self.cap: list[int] = []
        self.cost: list[int] = []
        self.initial: list[int] = []

    def node(self) -> int:
        self.adj.append([])
        return len(self.adj) - 1

    def edge(self, u: int, v: int, cap: int, cost: int) -> int:
        """Add u -> v; returns the edge's id (its reverse is id ^ 1)."""
        for a, b, c, w in ((u, v, cap, cost), (v, u, 0, -cost)):
            self.adj[a].append(len(self.to))
            self.to.append(b)
            self.cap.append(c)
            self.cost.append(w)
            self.initial.append(c)
        return len(self.to) - 2

    def flow(self, edge: int) -> int:
        return self.initial[edge] - self.cap[edge]

    def min_cost_max_flow(self, source: int, sink: int) -> tuple[int, int]:
        total_flow = total_cost = 0
        n = len(self.adj)
        while True:
            dist: list[int | None] = [None] * n
            via: list[int] = [-1] * n
            dist[source] = 0
            changed = True
            rounds = 0
            while changed and rounds < n:
                changed = False
                rounds += 1
                for u in range(n):
                    du = dist[u]
                    if du is None:
                        continue
                    for e in self.adj[u]:
                        if self.cap[e] <= 0:
                            continue
                        v = self.to[e]
                        dv = dist[v]
                        if dv is None or du + self.cost[e] < dv:
                            dist[v] = du + self.cost[e]
                            via[v] = e
                            changed = True
            sink_dist = dist[sink]
            if sink_dist is None:
                return total_flow, total_cost
            push = None
            v = sink
            while v != source:
                e = via[v]
                push = self.cap[e] if push is None else min(push, self.cap[e])
                v = self.to[e ^ 1]
            assert push is not None and push > 0
            v = sink
            while v != source:
                e = via[v]
                self.cap[e] -= push
                self.cap[e ^ 1] += push
                v = self.to[e ^ 1]
            total_flow += push
            total_cost += push * sink_dist
