"""Two versions of an army, or two armies, side by side: what differs between them.

A unit is the same on both sides when its whole stored entry is equal; units that differ
(added, removed or changed) are listed under the side that has them. Problems are compared
by their message, points by the check's total.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

import rules
from armybuilder.catalog.selectors import list_lookup
from armybuilder.catalog.services import check_document
from rules.presentation import size_text


@dataclass(frozen=True)
class Side:
    label: str
    points: int | None
    units: tuple[str, ...]  # the units only this side has, described
    problems: tuple[str, ...]  # the problems only this side has
    unreadable: str = ""


@dataclass(frozen=True)
class Comparison:
    left: Side
    right: Side

    @property
    def sides(self) -> tuple[Side, Side]:
        return (self.left, self.right)

    @property
    def same(self) -> bool:
        return (
            self.left.points == self.right.points
            and not (self.left.units or self.right.units)
            and not (self.left.problems or self.right.problems)
        )


def _unit_key(unit: Any) -> str:
    return json.dumps(unit, sort_keys=True)


def _describe(unit: dict[str, Any], points: int | None) -> str:
    words = [str(unit.get("name") or "Unnamed unit")]
    size = size_text(unit)
    if size:
        words.append(size)
    if points is not None:
        words.append(f"{points} pts")
    return " · ".join(words)


def _checked(document: dict[str, Any]) -> tuple[rules.Report | None, str]:
    try:
        return check_document(document, lookup=list_lookup)[1], ""
    except rules.MalformedDocument as exc:
        return None, exc.message


def compare(
    left_label: str, left: dict[str, Any], right_label: str, right: dict[str, Any]
) -> Comparison:
    """What differs between the documents ``left`` and ``right``."""
    reports = (_checked(left), _checked(right))
    units = [list(document.get("units") or []) for document in (left, right)]
    keys = [Counter(_unit_key(u) for u in side) for side in units]
    problems = [
        Counter(i.message for i in report.issues) if report else Counter() for report, _ in reports
    ]
    sides = []
    for n, (label, (report, unreadable)) in enumerate(
        zip((left_label, right_label), reports, strict=True)
    ):
        only = keys[n] - keys[1 - n]
        described = []
        for index, unit in enumerate(units[n]):
            key = _unit_key(unit)
            if only[key] > 0:
                only[key] -= 1
                points = None
                if report and index < len(report.units):
                    points = report.units[index].points
                described.append(_describe(unit, points))
        sides.append(
            Side(
                label=label,
                points=report.total_points if report else None,
                units=tuple(described),
                problems=tuple(sorted((problems[n] - problems[1 - n]).elements())),
                unreadable=unreadable,
            )
        )
    return Comparison(sides[0], sides[1])
