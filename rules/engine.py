"""The check: one core function behind the CLI, the API and every page."""

from __future__ import annotations

from typing import Any

from rules import memo
from rules.base import Army, Cost, Issue, ItemReport, Report, error
from rules.document import ListLookup, no_lists, parse_document
from rules.registry import get_ruleset


def check(army: Army) -> Report:
    """Cost, stat lines and every unit, general and army check of a parsed army."""
    ruleset = get_ruleset(army.ruleset)
    issues: list[Issue] = []
    unit_reports = []
    context = _context_key(army)  # cost and stat line depend on the unit and this only
    for i, unit in enumerate(army.units):
        cost, stats = memo.unit_results(
            army.ruleset,
            context,
            unit,
            lambda unit=unit: (ruleset.cost_unit(unit, army), ruleset.stats(unit, army)),
        )
        unit_reports.append(_item(i, unit, cost, stats))
        issues.extend(ruleset.check_unit(unit, i, army))
    general_reports = []
    for i, general in enumerate(army.generals):
        general_reports.append(_item(i, general, ruleset.cost_general(general, army), {}))
        issues.extend(ruleset.check_general(general, i, army))

    total = None
    if ruleset.uses_points:
        total = sum(r.points or 0 for r in unit_reports) + sum(
            r.points or 0 for r in general_reports
        )
        if army.points_limit is not None and total > army.points_limit:
            issues.append(
                error(
                    "over-points-limit",
                    f"Army costs {total} points; the limit is {army.points_limit}.",
                    ruleset.points_rule,
                )
            )
    issues.extend(ruleset.check_army(army))
    # errors first, then warnings; army-wide before unit issues, each in document order
    issues.sort(key=lambda i: (i.severity != "error",))
    return Report(
        ruleset=army.ruleset,
        total_points=total,
        points_limit=army.points_limit if ruleset.uses_points else None,
        units=tuple(unit_reports),
        generals=tuple(general_reports),
        issues=tuple(issues),
        composition=ruleset.composition(army),
    )


def _context_key(army: Army) -> str:
    """Everything of the army but its units, as one digest."""
    return memo.digest(
        {
            "options": army.options,
            "army_list": army.army_list,
            "list_data": army.list_data,
            "generals": army.generals,
            "points_limit": army.points_limit,
            "name": army.name,
            "lists": sorted(army.ruleset_lists),
        }
    )


def _item(index: int, item: dict[str, Any], cost: Cost | None, stats: dict[str, Any]) -> ItemReport:
    return ItemReport(
        index=index,
        name=item["name"],
        points=cost.points if cost else None,
        breakdown=cost.breakdown if cost else (),
        stats=stats,
    )


def check_document(raw: Any, lists: ListLookup = no_lists) -> tuple[Army, Report]:
    """Parse (raising MalformedDocument) and check a raw document."""
    army = parse_document(raw, lists)
    return army, check(army)
