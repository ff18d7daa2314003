"""The Feudal force matrix: which rows of the d6 table an army fits, decided exactly.

An army list names the unit type of each column (core, T1, T2, T3) and the replacements
it allows ("any freemen may be brigans, one may be serjeants"). A unit fills a slot of a
column either as that column's own type or through one replacement, and each replacement
may be used at most ``max`` times (or without limit). Whether the six units fill a row's
slots exactly is a flow problem, not a greedy one: units -> (directly, or through a
capped replacement) -> columns, each column holding the row's count. One max-flow per row
gives the most units that can stand in that row; the army fits when all six do and no
slot is left empty. The same flow says what the nearest row would need.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.rulesets.feudal_2017.troops import LIST_KEYS, MATRIX_TYPES

COLUMNS: tuple[str, ...] = ("core", "t1", "t2", "t3")
COLUMN_LABELS: Mapping[str, str] = {"core": "core", "t1": "T1", "t2": "T2", "t3": "T3"}
# d6 roll -> units in (core, T1, T2, T3)
MATRIX: Mapping[int, tuple[int, int, int, int]] = {
    1: (1, 1, 2, 2),
    2: (3, 1, 1, 1),
    3: (3, 2, 1, 0),
    4: (4, 1, 0, 1),
    5: (4, 1, 1, 0),
    6: (4, 2, 0, 0),
}
FORCE_SIZE = 6


@dataclass(frozen=True)
class Replacement:
    """Units of ``to`` may stand in for ``source`` units, at most ``limit`` times (None: any)."""

    source: str
    to: str
    limit: int | None = None

    def describe(self) -> str:
        if self.limit is None:
            return f"any {self.source} may be {self.to}"
        return f"{_count_word(self.limit)} {self.source} may be {self.to}"


@dataclass(frozen=True)
class ForceList:
    """The matrix part of an army list: column -> unit type, and the replacements."""

    columns: Mapping[str, str]
    replacements: tuple[Replacement, ...] = ()

    def describe_columns(self) -> str:
        return ", ".join(f"{COLUMN_LABELS[c]} {self.columns[c]}" for c in COLUMNS)

    def column_types(self) -> dict[str, str]:
        return {c: self.columns[c] for c in COLUMNS}


@dataclass(frozen=True)
class RowFit:
    """How well an army fits one row: the most units the row can take, and what is off."""

    row: int
    placed: int
    missing: Mapping[str, int]  # column -> empty slots
    surplus: Mapping[str, int]  # unit type -> units the row cannot take

    @property
    def fits(self) -> bool:
        return not self.missing and not self.surplus

    @property
    def changes(self) -> int:
        """Units to add plus units to take away before the army fits this row."""
        return sum(self.missing.values()) + sum(self.surplus.values())


def force_list(data: Mapping[str, Any]) -> ForceList:
    """A ForceList from validated army-list data (see feudal_2017.validate_army_list)."""
    columns = data["columns"]
    replacements = tuple(
        Replacement(r["from"], r["to"], r.get("max")) for r in data.get("replacements", ())
    )
    return ForceList({c: columns[c] for c in COLUMNS}, replacements)


def fit_row(types: Sequence[str], force: ForceList, row: int) -> RowFit:
    """The best placement of units of ``types`` (matrix types) into the slots of ``row``."""
    counts = Counter(types)
    kinds = sorted(counts)
    need = dict(zip(COLUMNS, MATRIX[row], strict=True))
    flow, placed = _row_flow(types, force, row)
    missing = {
        c: need[c] - flow.used(("column", c), "sink")
        for c in COLUMNS
        if need[c] > flow.used(("column", c), "sink")
    }
    surplus = {
        k: counts[k] - flow.used("source", ("type", k))
        for k in kinds
        if counts[k] > flow.used("source", ("type", k))
    }
    return RowFit(row, placed, missing, surplus)


def row_usage(
    types: Sequence[str], force: ForceList, row: int
) -> tuple[dict[str, int], dict[int, int]]:
    """In the best placement into ``row``: units per column, and units standing in
    through each replacement (by its index in ``force.replacements``)."""
    flow, _ = _row_flow(types, force, row)
    columns = {c: flow.used(("column", c), "sink") for c in COLUMNS}
    replaced = {
        n: flow.used(("type", rep.to), ("replacement", n))
        for n, rep in enumerate(force.replacements)
    }
    return columns, replaced


def row_places(
    types: Sequence[str], force: ForceList, row: int
) -> tuple[dict[str, list[int]], dict[int, list[int]]]:
    """The units of ``row_usage`` by their place in ``types``: those standing in each
    column as its own type, and those standing in through each replacement. The flow
    counts units by type, so which units of one type take which place is the army's
    order; a unit the row cannot take is in neither."""
    flow, _ = _row_flow(types, force, row)
    waiting: dict[str, list[int]] = {}
    for i, kind in enumerate(types):
        waiting.setdefault(kind, []).append(i)

    def take(kind: str, node: object) -> list[int]:
        queue = waiting.get(kind, [])
        n = flow.used(("type", kind), node)
        taken, waiting[kind] = queue[:n], queue[n:]
        return taken

    columns = {c: take(force.columns[c], ("column", c)) for c in COLUMNS}
    replaced = {n: take(rep.to, ("replacement", n)) for n, rep in enumerate(force.replacements)}
    return columns, replaced


def _row_flow(types: Sequence[str], force: ForceList, row: int) -> tuple[_Flow, int]:
    counts = Counter(types)
    kinds = sorted(counts)
    need = dict(zip(COLUMNS, MATRIX[row], strict=True))
    flow = _Flow()
    for kind in kinds:
        flow.add("source", ("type", kind), counts[kind])
        for column in COLUMNS:
            if force.columns[column] == kind:
                flow.add(("type", kind), ("column", column), FORCE_SIZE)
    for n, rep in enumerate(force.replacements):
        if rep.to not in counts:
            continue
        cap = FORCE_SIZE if rep.limit is None else rep.limit
        flow.add(("type", rep.to), ("replacement", n), cap)
        for column in COLUMNS:
            if force.columns[column] == rep.source:
                flow.add(("replacement", n), ("column", column), FORCE_SIZE)
    for column in COLUMNS:
        flow.add(("column", column), "sink", need[column])
    placed = flow.run("source", "sink")
    return flow, placed


def matching_rows(types: Sequence[str], force: ForceList) -> list[int]:
    """Every row of the matrix the units fit, in roll order."""
    if len(types) != FORCE_SIZE:
        return []
    return [row for row in MATRIX if fit_row(types, force, row).fits]


def nearest_rows(types: Sequence[str], force: ForceList) -> list[RowFit]:
    """The rows needing the fewest changes (ties all returned, in roll order)."""
    fits = [fit_row(types, force, row) for row in MATRIX]
    best = min(f.changes for f in fits)
    return [f for f in fits if f.changes == best]


def describe_fit(fit: RowFit, force: ForceList) -> str:
    """'row 4 needs 1 more freemen and 1 fewer brigans'."""
    parts = [f"{n} more {force.columns[c]}" for c, n in fit.missing.items()]
    parts += [f"{n} fewer {kind}" for kind, n in fit.surplus.items()]
    if not parts:
        return f"row {fit.row} fits"
    return f"row {fit.row} needs {_and(parts)}"


def mismatch_message(types: Sequence[str], force: ForceList) -> str:
    """Why the units fit no row, naming what the nearest row(s) would need."""
    nearest = nearest_rows(types, force)
    rules = ""
    if force.replacements:
        rules = "; " + "; ".join(r.describe() for r in force.replacements)
    return (
        f"These units fit no row of the force matrix ({force.describe_columns()}{rules}). "
        f"Nearest: {'; or '.join(describe_fit(f, force) for f in nearest)}."
    )


def row_units(force: ForceList, row: int) -> list[tuple[str, str]]:
    """(column, unit type) for every slot of ``row``, core first."""
    slots = []
    for column, count in zip(COLUMNS, MATRIX[row], strict=True):
        slots.extend([(column, force.columns[column])] * count)
    return slots


def _and(parts: Iterable[str]) -> str:
    items = list(parts)
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def _count_word(n: int) -> str:
    return {1: "one", 2: "two", 3: "three"}.get(n, str(n))


class _Flow:
    """A tiny max-flow (shortest augmenting paths); the network has a dozen nodes."""

    def __init__(self) -> None:
        self.capacity: dict[tuple[object, object], int] = {}
        self.flow: dict[tuple[object, object], int] = {}
        self.edges: dict[object, list[object]] = {}

    def add(self, a: object, b: object, capacity: int) -> None:
        if (a, b) not in self.capacity:
            self.edges.setdefault(a, []).append(b)
            self.edges.setdefault(b, []).append(a)
            self.capacity.setdefault((b, a), 0)
            self.capacity[(a, b)] = 0
        self.capacity[(a, b)] += capacity

    def residual(self, a: object, b: object) -> int:
        return self.capacity.get((a, b), 0) - self.flow.get((a, b), 0) + self.flow.get((b, a), 0)

    def used(self, a: object, b: object) -> int:
        return self.flow.get((a, b), 0)

    def run(self, source: object, sink: object) -> int:
        total = 0
        while True:
            parent: dict[object, object] = {source: source}
            queue = [source]
            for node in queue:
                for nxt in self.edges.get(node, []):
                    if nxt not in parent and self.residual(node, nxt) > 0:
                        parent[nxt] = node
                        queue.append(nxt)
            if sink not in parent:
                return total
            path = []
            node = sink
            while node != source:
                path.append((parent[node], node))
                node = parent[node]
            push = min(self.residual(a, b) for a, b in path)
            for a, b in path:
                back = min(push, self.flow.get((b, a), 0))
                self.flow[(b, a)] = self.flow.get((b, a), 0) - back
                self.flow[(a, b)] = self.flow.get((a, b), 0) + push - back
            total += push


def list_problems(data: Mapping[str, Any]) -> list[str]:
    """Everything wrong with a Feudal army list's data (an object): its columns, replacements
    and the other keys of ``LIST_KEYS``; empty when it is well formed."""
    problems: list[str] = []
    allowed_types = ", ".join(MATRIX_TYPES)
    unknown = sorted(set(data) - set(LIST_KEYS))
    if unknown:
        problems.append(f"unknown keys {', '.join(unknown)}; allowed: {', '.join(LIST_KEYS)}")
    columns = data.get("columns")
    if not isinstance(columns, dict):
        return [*problems, "columns must be an object: core, t1, t2, t3 -> unit type"]
    extra = sorted(set(columns) - set(COLUMNS))
    if extra:
        problems.append(f"columns: unknown columns {', '.join(extra)}; use core, t1, t2, t3")
    column_types = []
    for column in COLUMNS:
        kind = columns.get(column)
        if column not in columns:
            problems.append(f"columns.{column}: missing; give its unit type ({allowed_types})")
        elif kind not in MATRIX_TYPES:
            problems.append(
                f"columns.{column}: {kind!r} is not a unit type; allowed types: {allowed_types}"
            )
        else:
            column_types.append(kind)
    if len(set(column_types)) != len(column_types):
        problems.append("columns: each column must name a different unit type")
    replacements = data.get("replacements", [])
    if not isinstance(replacements, list):
        problems.append("replacements must be a list of {from, to, max}")
        replacements = []
    seen = set()
    for n, rep in enumerate(replacements):
        where = f"replacements[{n}]"
        if not isinstance(rep, dict):
            problems.append(f"{where}: must be an object with from, to and max")
            continue
        extra = sorted(set(rep) - {"id", "from", "to", "max"})
        if extra:
            problems.append(f"{where}: unknown keys {', '.join(extra)}; use from, to, max")
        source, to = rep.get("from"), rep.get("to")
        if source not in column_types:
            problems.append(
                f"{where}.from: {source!r} is not one of the list's column types "
                f"({', '.join(column_types) or 'none'})"
            )
        if to not in MATRIX_TYPES:
            problems.append(
                f"{where}.to: {to!r} is not a unit type; allowed types: {allowed_types}"
            )
        elif to == source:
            problems.append(f"{where}: a type cannot replace itself")
        limit = rep.get("max")
        if limit is not None and (
            not isinstance(limit, int) or isinstance(limit, bool) or limit < 1
        ):
            problems.append(f"{where}.max: a whole number of at least 1, or null for any")
        if (source, to) in seen:
            problems.append(f"{where}: {source} -> {to} is listed twice")
        seen.add((source, to))
    if not isinstance(data.get("schiltrons", False), bool):
        problems.append("schiltrons must be true or false")
    if not isinstance(data.get("extra_terrain", ""), str):
        problems.append("extra_terrain must be text")
    notes = data.get("notes", [])
    if not isinstance(notes, list) or not all(isinstance(x, str) for x in notes):
        problems.append("notes must be a list of sentences (text)")
    return problems
