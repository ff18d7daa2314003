"""The list editor's description of a Feudal army list: the force matrix's four columns
(a unit type each), the replacements a list allows (one column's type fielded as another,
at most so many), and the list's own settings (schiltrons, extra terrain). The list's
notes are kept as they are; ``matrix.list_problems`` stays the judge of every change."""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import partial
from typing import Any

from rules.list_shape import ListShape, Section, ShapeField
from rules.rulesets.feudal_2017.troops import MATRIX_TYPES

COLUMN_LABELS = {
    "core": "Core column",
    "t1": "Column T1",
    "t2": "Column T2",
    "t3": "Column T3",
}
# a new list starts as the source's standard matrix (Feudal Force Matrix)
STANDARD_COLUMNS = {"core": "knights", "t1": "bowmen", "t2": "brigans", "t3": "freemen"}


def rebalance(
    data: dict[str, Any], kept: frozenset[str], validator: Callable[[Any], list[str]]
) -> list[tuple[str, dict[str, Any]]]:
    """A column set to the type of another: that other column takes a type no column
    has (each one the list then accepts), so columns can be swapped or rotated one by one."""
    columns = data.get("columns") if isinstance(data, dict) else None
    if not isinstance(columns, dict):
        return []
    proposals = []
    for column, kind in columns.items():
        twin = [c for c, k in columns.items() if k == kind and c != column]
        if column in kept or not twin or column not in COLUMN_LABELS:
            continue
        for free in MATRIX_TYPES:
            if free in columns.values():
                continue
            candidate = copy.deepcopy(data)
            candidate["columns"][column] = free
            if not validator(candidate):
                words = f"Then {COLUMN_LABELS[column]} becomes {free.capitalize()}."
                proposals.append((words, candidate))
    return proposals


def list_shape(validator: Callable[[Any], list[str]]) -> ListShape:
    types = tuple((kind, kind.capitalize()) for kind in MATRIX_TYPES)
    columns = Section(
        key="columns",
        label="Force matrix columns",
        item_label="Columns",
        fields=tuple(
            ShapeField(column, label, "choice", choices=types)
            for column, label in COLUMN_LABELS.items()
        ),
        single=True,
    )
    replacements = Section(
        key="replacements",
        label="Replacements",
        item_label="Replacement",
        fields=(
            ShapeField("from", "Replaces units of the column type", "choice", choices=types),
            ShapeField("to", "Fielded as", "choice", choices=types),
            ShapeField("max", "At most (empty: any number)", "integer", keep_empty=True),
        ),
        new_item={"from": "freemen", "to": "brigans", "max": None},
        minimum=0,
    )
    settings = Section(
        key="",
        label="The list's own rules",
        item_label="Settings",
        fields=(
            ShapeField("schiltrons", "Spearmen may form schiltrons", "boolean"),
            ShapeField("extra_terrain", "Extra terrain", "text", keep_empty=True),
            ShapeField(
                "notes", "Notes shown on the list's page (one a line)", "lines", keep_empty=True
            ),
        ),
        single=True,
    )
    empty = {
        "columns": dict(STANDARD_COLUMNS),
        "replacements": [],
        "schiltrons": False,
        "extra_terrain": "",
        "notes": [],
    }
    return ListShape(
        sections=(columns, replacements, settings),
        empty=empty,
        rebalance=partial(rebalance, validator=validator),
    )
