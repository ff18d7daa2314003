"""What the builder and share templates show, assembled from a checked army.

Plain data for the templates (rows, controls, issues, totals), so the templates stay
simple loops and the views stay thin.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from armybuilder.armies.controls import Control, controls_for
from armybuilder.armies.services import Checked, Preset, presets
from rules.base import ItemReport, RuleSet

ITEM = {"units": "unit", "generals": "general"}


@dataclass(frozen=True)
class Stat:
    label: str
    value: str


@dataclass(frozen=True)
class Row:
    """One unit (or general) of the builder or the share page."""

    kind: str  # units | generals
    index: int
    name: str
    points: int | None
    breakdown: tuple[str, ...]
    stats: tuple[Stat, ...]
    controls: tuple[Control, ...] = ()
    error: str = ""
    first: bool = False
    last: bool = False
    focus: bool = False
    url: str = ""

    @property
    def item(self) -> str:
        return ITEM[self.kind]

    @property
    def anchor(self) -> str:
        return f"{self.item}-{self.index}"

    @property
    def number(self) -> int:
        return self.index + 1


@dataclass(frozen=True)
class IssueView:
    severity: str
    code: str
    message: str
    rule: str
    href: str = ""
    target: str = ""


@dataclass(frozen=True)
class Totals:
    uses_points: bool
    total: int | None
    limit: int | None
    valid: bool
    errors: int
    warnings: int
    units: int
    matrix_rows: tuple[int, ...] | None = None
    percent: int = 0

    @property
    def over(self) -> bool:
        return self.total is not None and self.limit is not None and self.total > self.limit

    @property
    def over_by(self) -> int:
        return (self.total or 0) - (self.limit or 0) if self.over else 0

    @property
    def remaining(self) -> int | None:
        if self.total is None or self.limit is None:
            return None
        return self.limit - self.total


@dataclass
class Builder:
    """Everything the builder page needs; partial responses use parts of it."""

    checked: Checked
    ruleset: RuleSet
    unit_rows: list[Row] = field(default_factory=list)
    general_rows: list[Row] = field(default_factory=list)
    issues: list[IssueView] = field(default_factory=list)
    totals: Totals | None = None
    general_names: list[str] = field(default_factory=list)

    @property
    def army(self) -> Any:
        return self.checked.army


def stat_items(stats: Mapping[str, Any]) -> tuple[Stat, ...]:
    return tuple(
        Stat(str(key).replace("_", " "), "" if value is None else str(value))
        for key, value in stats.items()
    )


def _datalists(ruleset: RuleSet) -> dict[str, str]:
    """A unit's division names a general: suggest the generals' names while typing."""
    if ruleset.has_generals and any(f.name == "division" for f in ruleset.unit_fields):
        return {"division": "general-names"}
    return {}


def item_row(
    checked: Checked,
    ruleset: RuleSet,
    kind: str,
    index: int,
    *,
    with_controls: bool = True,
    error: str = "",
    focus: bool = False,
    base: str = "",
) -> Row:
    """The row of one unit or general; ``with_controls`` False for the summary alone."""
    base = base or reverse("armies:builder", args=[checked.army.pk])
    parsed, report = checked.parsed, checked.report
    assert parsed is not None and report is not None
    items = parsed.units if kind == "units" else parsed.generals
    reports: tuple[ItemReport, ...] = report.units if kind == "units" else report.generals
    item, item_report = items[index], reports[index]
    controls: tuple[Control, ...] = ()
    if with_controls:
        fields = ruleset.unit_fields if kind == "units" else ruleset.general_fields
        prefix = f"{'u' if kind == 'units' else 'g'}{index}"
        controls = tuple(controls_for(fields, item, prefix, datalists=_datalists(ruleset)))
    return Row(
        kind=kind,
        index=index,
        name=str(item.get("name", "")),
        points=item_report.points,
        breakdown=tuple(item_report.breakdown),
        stats=stat_items(item_report.stats),
        controls=controls,
        error=error,
        first=index == 0,
        last=index == len(items) - 1,
        focus=focus,
        url=f"{base}{kind}/{index}/",
    )


def issue_views(checked: Checked) -> list[IssueView]:
    parsed, report = checked.parsed, checked.report
    if parsed is None or report is None:
        return []
    views = []
    for issue in report.issues:
        href = target = ""
        if issue.unit is not None and 0 <= issue.unit < len(parsed.units):
            href = f"#unit-{issue.unit}"
            target = f"{parsed.units[issue.unit]['name']} (unit {issue.unit + 1})"
        elif issue.general is not None and 0 <= issue.general < len(parsed.generals):
            href = f"#general-{issue.general}"
            target = f"{parsed.generals[issue.general]['name']} (general {issue.general + 1})"
        views.append(IssueView(issue.severity, issue.code, issue.message, issue.rule, href, target))
    return views


def totals(checked: Checked, ruleset: RuleSet) -> Totals | None:
    report = checked.report
    if report is None:
        return None
    composition = report.composition if isinstance(report.composition, Mapping) else {}
    rows = composition.get("matrix_rows")
    percent = 0
    if report.total_points is not None and report.points_limit:
        percent = min(100, round(100 * report.total_points / report.points_limit))
    return Totals(
        uses_points=ruleset.uses_points,
        total=report.total_points,
        limit=report.points_limit,
        valid=report.valid,
        errors=len(report.errors),
        warnings=len(report.warnings),
        units=len(report.units),
        matrix_rows=tuple(rows) if isinstance(rows, list | tuple) else None,
        percent=percent,
    )


def builder(
    checked: Checked,
    ruleset: RuleSet,
    *,
    rows: bool = True,
    controls: bool = True,
    focus: tuple[str, int] | None = None,
    errors: Mapping[tuple[str, int], str] | None = None,
) -> Builder:
    """The whole builder (``rows`` False: only totals and issues, for a partial)."""
    view = Builder(checked=checked, ruleset=ruleset)
    if checked.parsed is None:
        return view
    view.issues = issue_views(checked)
    view.totals = totals(checked, ruleset)
    view.general_names = [str(g["name"]) for g in checked.parsed.generals]
    if rows:
        errors = errors or {}
        base = reverse("armies:builder", args=[checked.army.pk])
        for kind, target in (("units", view.unit_rows), ("generals", view.general_rows)):
            items = checked.parsed.units if kind == "units" else checked.parsed.generals
            target.extend(
                item_row(
                    checked,
                    ruleset,
                    kind,
                    i,
                    with_controls=controls,
                    error=errors.get((kind, i), ""),
                    focus=focus == (kind, i),
                    base=base,
                )
                for i in range(len(items))
            )
    return view


def option_controls(checked: Checked, ruleset: RuleSet) -> list[Control]:
    options = checked.army.document.get("options")
    values = options if isinstance(options, Mapping) else {}
    return controls_for(ruleset.options, values, "opt")


def add_presets(ruleset: RuleSet, list_data: Mapping[str, Any] | None) -> list[Preset]:
    return presets(ruleset, list_data)


def share_url(request: HttpRequest, token: str | None) -> str:
    if not token:
        return ""
    return request.build_absolute_uri(reverse("armies:shared", args=[token]))


def print_links(base: str) -> list[tuple[str, str]]:
    """The printing app's sheets (literal paths: see armybuilder/printing)."""
    return [
        (f"{base}roster.pdf", "Order of battle (PDF)"),
        (f"{base}qrs.pdf", "Quick-reference sheets (PDF)"),
        (f"{base}roster/", "Order of battle (preview)"),
        (f"{base}qrs/", "Quick-reference sheets (preview)"),
    ]
