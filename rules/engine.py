"""The check: one core function behind the CLI, the API and every page.

``check`` runs every cost, stat line and check of a parsed army. ``check_state`` keeps,
beside the report, what a later edit of one unit can reuse (each unit's own issues), and
``recheck_document`` uses it: the check of a document that differs from an already
checked one in one unit re-runs that unit's results and the army-wide checks only, and
gives exactly the report a full check gives.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules import memo
from rules.base import (
    OVER_POINTS_LIMIT,
    Army,
    Cost,
    Issue,
    ItemReport,
    Report,
    RuleSet,
    error,
    list_families,
    list_names,
)
from rules.document import ListLookup, no_lists, parse_document, reparse_unit
from rules.errors import MalformedDocument
from rules.registry import get_ruleset

NOTHING_CHANGED = -1


@dataclass(frozen=True)
class CheckState:
    """A parsed army, its report, and the parts of the check an edit can reuse.

    ``context`` is the digest of everything a unit's results read besides the unit
    (``_context_key``); ``unit_issues`` holds each unit's ``check_unit`` issues in order.
    """

    army: Army
    report: Report
    context: str
    unit_issues: tuple[tuple[Issue, ...], ...]


def check(army: Army) -> Report:
    """Cost, stat lines and every unit, general and army check of a parsed army."""
    return check_state(army).report


def check_state(army: Army) -> CheckState:
    """``check`` with what ``recheck_unit`` reuses."""
    ruleset = get_ruleset(army.ruleset)
    context = _context_key(army, ruleset)  # cost and stat line depend on the unit and this only
    unit_reports = []
    unit_issues = []
    for i, unit in enumerate(army.units):
        unit_reports.append(_unit_report(ruleset, army, context, i, unit))
        unit_issues.append(tuple(ruleset.check_unit(unit, i, army)))
    return _finish(army, ruleset, context, unit_reports, unit_issues)


def recheck_unit(previous: CheckState, army: Army, index: int) -> CheckState:
    """The check of ``army``, which is ``previous.army`` with unit ``index`` replaced.

    Every other unit's cost, stat line and issues are taken from ``previous`` (a rule
    set's unit results read the unit and the context only: see ``RuleSet.unit_context``);
    generals and the army-wide checks run again. Anything else is checked whole.
    """
    before = previous.army
    ruleset = get_ruleset(army.ruleset)
    same_frame = (
        army.ruleset == before.ruleset
        and len(army.units) == len(before.units)
        and 0 <= index < len(army.units)
        and all(
            getattr(army, name) is getattr(before, name)
            for name in ("options", "generals", "list_data", "ruleset_lists")
        )
        and (army.name, army.army_list, army.points_limit, army.notes)
        == (before.name, before.army_list, before.points_limit, before.notes)
    )
    if not same_frame:
        return check_state(army)
    context = _context_key(army, ruleset)
    if context != previous.context:  # e.g. the edit changed what other units read
        return check_state(army)
    unit = army.units[index]
    unit_reports = list(previous.report.units)
    unit_reports[index] = _unit_report(ruleset, army, context, index, unit)
    unit_issues = list(previous.unit_issues)
    unit_issues[index] = tuple(ruleset.check_unit(unit, index, army))
    return _finish(army, ruleset, context, unit_reports, unit_issues)


def recheck_document(
    raw: Any, lists: ListLookup, previous_raw: Any, previous: CheckState
) -> CheckState:
    """Exactly ``check_state(parse_document(raw, lists))``, reusing ``previous``, the
    check of ``previous_raw``, when ``raw`` is ``previous_raw`` with at most one unit
    replaced: every other value the very same object (a changed copy, never edited in
    place). ``lists`` is asked once; when it answers other army lists than ``previous``
    was checked with, or anything else differs, the document is parsed and checked whole.
    Raises MalformedDocument as ``parse_document`` does.
    """
    slug = previous.army.ruleset
    available = None
    changed = _changed_unit(previous_raw, raw)
    if changed is not None:
        available = lists(slug)
        known = previous.army.ruleset_lists
        same_names = (
            list_names(available) == previous.army.list_names
            and list_families(available) == previous.army.list_families
        )
        if (available is known or available == known) and same_names:
            if changed == NOTHING_CHANGED:
                return previous
            try:
                army = reparse_unit(previous.army, raw["units"][changed], changed)
            except MalformedDocument:
                army = None  # the full parse below raises with its own message
            if army is not None:
                return recheck_unit(previous, army, changed)

    def lookup(ruleset: str) -> Any:
        return available if available is not None and ruleset == slug else lists(ruleset)

    return check_state(parse_document(raw, lookup))


def _changed_unit(previous_raw: Any, raw: Any) -> int | None:
    """The index of the one unit ``raw`` replaced in ``previous_raw`` (NOTHING_CHANGED
    when none), or None when anything else is not the very same object."""
    if raw is previous_raw:
        return NOTHING_CHANGED
    if type(raw) is not dict or type(previous_raw) is not dict or raw.keys() != previous_raw.keys():
        return None
    changed = NOTHING_CHANGED
    for key, value in raw.items():
        old = previous_raw[key]
        if value is old:
            continue
        if type(value) is not list or type(old) is not list or len(value) != len(old):
            return None
        for i, (new_item, old_item) in enumerate(zip(value, old, strict=True)):
            if new_item is not old_item:
                if key != "units" or changed != NOTHING_CHANGED:
                    return None
                changed = i
    return changed


def _unit_report(
    ruleset: RuleSet, army: Army, context: str, index: int, unit: dict[str, Any]
) -> ItemReport:
    cost, stats = memo.unit_results(
        army.ruleset,
        context,
        unit,
        lambda: (ruleset.cost_unit(unit, army), ruleset.stats(unit, army)),
    )
    return _item(index, unit, cost, stats)


def _finish(
    army: Army,
    ruleset: RuleSet,
    context: str,
    unit_reports: Sequence[ItemReport],
    unit_issues: Sequence[tuple[Issue, ...]],
) -> CheckState:
    """Generals, the points total and the army checks after the units: the report."""
    issues: list[Issue] = [issue for found in unit_issues for issue in found]
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
                    OVER_POINTS_LIMIT.code,
                    f"Army costs {total} points; the limit is {army.points_limit}.",
                    ruleset.points_rule,
                )
            )
    issues.extend(ruleset.check_army(army))
    # errors first, then warnings; army-wide before unit issues, each in document order
    issues.sort(key=lambda i: (i.severity != "error",))
    report = Report(
        ruleset=army.ruleset,
        total_points=total,
        points_limit=army.points_limit if ruleset.uses_points else None,
        units=tuple(unit_reports),
        generals=tuple(general_reports),
        issues=tuple(issues),
        composition=ruleset.composition(army),
    )
    return CheckState(army, report, context, tuple(unit_issues))


def _context_key(army: Army, ruleset: RuleSet) -> str:
    """Everything of the army but its units, and what the rule set's unit results read
    besides (``RuleSet.unit_context``), as one digest."""
    return memo.digest(
        {
            "options": army.options,
            "army_list": army.army_list,
            "list_data": army.list_data,
            "generals": army.generals,
            "points_limit": army.points_limit,
            "name": army.name,
            "lists": sorted(army.ruleset_lists),
            "unit_context": ruleset.unit_context(army),
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
