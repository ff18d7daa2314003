"""Fitting a Dark Ages army to its list: which unit takes which place, and what is wrong.

Fitting an army to a list is a flow problem (a unit may fit a required entry and a choice;
a choice's options share its picks), solved here exactly as a small min-cost max-flow:
place as many units as possible, then fill as many required places as possible, then put
as few changed units as possible in fixed places. Units with the same fitting entries
move through the network together, so a large army costs no more than a small one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from rules.base import Issue, Unit, error
from rules.list_entries import mismatch_detail
from rules.rulesets.dark_ages.lists import ListSpec, Slot


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
