"""What the builder and share templates show, assembled from a checked army.

Plain data for the templates (rows, controls, issues, totals), so the templates stay
simple loops and the views stay thin.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from armybuilder.armies.builder.controls import Control, Option, controls_for, restrict
from armybuilder.armies.documents import Checked, ItemNotFound
from armybuilder.armies.presets import Preset, presets
from rules import presentation
from rules.base import ItemReport, RuleSet
from rules.presentation import ITEM, descriptor, item_anchor, size_text

__all__ = ["ITEM", "descriptor", "item_anchor", "size_text"]  # the shared words, re-exported


@dataclass(frozen=True)
class Stat:
    label: str
    value: str


@dataclass(frozen=True)
class IssueView:
    severity: str
    code: str
    message: str
    rule: str
    href: str = ""
    target: str = ""


@dataclass(frozen=True)
class Row:
    """One unit (or general) of the builder or the share page."""

    kind: str  # units | generals
    index: int  # its place in the list now: what the page numbers, never what it names
    name: str
    points: int | None
    breakdown: tuple[str, ...]
    stats: tuple[Stat, ...]
    controls: tuple[Control, ...] = ()
    error: str = ""
    first: bool = False
    last: bool = False
    focus: bool = False
    open: bool = False  # drawn with its editor open (a redraw of the card being edited)
    url: str = ""
    descriptor: str = ""  # the unit's type in words, e.g. "Levy · close · unarmoured"
    size: str = ""  # "24 figures", "4 stands"
    code: str = ""  # the unit's code where the rule set has one (Into the Dark: "CUF")
    problems: tuple[IssueView, ...] = ()
    item_id: str = ""  # the unit's stable id: its address, anchor and controls' ids
    # what the card's editor is drawn from (the unit, its place, the army around it): the
    # page names it so a kept copy of the editor is fetched again only when it changed
    editor_key: str = ""
    # the picker's preset of the list entry the unit counts against ("entry:<key>"), or ""
    entry: str = ""

    @property
    def editor_url(self) -> str:
        """Where the card's editor is fetched from when it is not drawn with the card."""
        return f"{self.url}editor/" if self.url else ""

    @property
    def has_editor(self) -> bool:
        """Drawn with its editor: the card is drawn open (being edited, just added, refused)."""
        return bool(self.controls)

    @property
    def valid(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)

    @property
    def mark(self) -> str:
        return presentation.problem_mark(len(self.problems))

    @property
    def item(self) -> str:
        return ITEM[self.kind]

    @property
    def anchor(self) -> str:
        return item_anchor(self.kind, self.item_id, self.index)

    @property
    def number(self) -> int:
        return self.index + 1


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
    matrix_text: str = ""
    # the panel in words (``rules.presentation.total_words``, as the page's engine says it)
    verdict: str = ""
    verdict_class: str = ""
    problems: str = ""
    units_text: str = ""
    left: str = ""

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
    first_problem: str = "#issues"

    @property
    def army(self) -> Any:
        return self.checked.army

    @property
    def issue_messages(self) -> str:
        """The problems' words as JSON: what the page's engine must also say."""
        return json.dumps([i.message for i in self.issues])


def ids_of(checked: Checked, kind: str) -> tuple[str | None, ...]:
    parsed = checked.parsed
    if parsed is None:
        return ()
    return parsed.unit_ids if kind == "units" else parsed.general_ids


def id_of(checked: Checked, kind: str, index: int) -> str:
    found = ids_of(checked, kind)
    return (found[index] or "") if 0 <= index < len(found) else ""


def index_in(checked: Checked, kind: str, item_id: str) -> int:
    """Where the item ``item_id`` is in the checked army (ItemNotFound: not there)."""
    try:
        return ids_of(checked, kind).index(item_id)
    except ValueError:
        raise ItemNotFound(f"no {ITEM[kind]} {item_id!r}") from None


def stat_items(stats: Mapping[str, Any]) -> tuple[Stat, ...]:
    return tuple(Stat(label, value) for label, value in presentation.stat_items(stats))


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
    problems: list[IssueView] | None = None,
    ally_lists: tuple[tuple[str, str], ...] = (),
    around: str = "",
    entry: str = "",
) -> Row:
    """The row of one unit or general; ``with_controls`` False for the summary alone.
    ``around``: ``editor_around`` of the army (worked out here when not given); ``entry``:
    the picker's preset of the unit's list entry (``builder_page.unit_entries``)."""
    base = base or reverse("armies:builder", args=[checked.army.pk])
    parsed, report = checked.parsed, checked.report
    assert parsed is not None and report is not None
    items = parsed.units if kind == "units" else parsed.generals
    reports: tuple[ItemReport, ...] = report.units if kind == "units" else report.generals
    item, item_report = items[index], reports[index]
    item_id = id_of(checked, kind, index)
    anchor = item_anchor(kind, item_id, index)
    if problems is None:
        problems = [v for v in issue_views(checked) if v.href == f"#{anchor}"]
    controls: tuple[Control, ...] = ()
    if with_controls:
        fields = ruleset.unit_fields if kind == "units" else ruleset.general_fields
        prefix = control_prefix(kind, item_id, index)
        controls = tuple(controls_for(fields, item, prefix, datalists=_datalists(ruleset)))
        if kind == "units":
            controls = list_aware(controls, ruleset, parsed, item, ally_lists)
    return Row(
        kind=kind,
        index=index,
        name=presentation.called_units(items)[index]
        if kind == "units"
        else str(item.get("name", "")),
        points=item_report.points,
        breakdown=tuple(item_report.breakdown),
        stats=stat_items(item_report.stats),
        controls=controls,
        error=error,
        first=index == 0,
        last=index == len(items) - 1,
        focus=focus,
        url=f"{base}{ITEM[kind]}/{item_id}/" if item_id else "",
        item_id=item_id,
        descriptor=descriptor(ruleset, kind, item, item_report.stats),
        code=str(item_report.stats.get("code") or ""),
        size=size_text(item),
        problems=tuple(problems),
        editor_key=editor_key(
            item, index, len(items), around or editor_around(checked, ally_lists)
        ),
        entry=entry if kind == "units" else "",
    )


def editor_around(checked: Checked, ally_lists: tuple[tuple[str, str], ...] = ()) -> str:
    """What every card's editor is drawn from besides its own unit: the army's settings
    and other lists (generals), the army list in force and the lists an ally may name."""
    parsed = checked.parsed
    document = checked.army.document
    rest = {k: v for k, v in document.items() if k != "units"} if isinstance(document, dict) else {}
    list_data = parsed.list_data if parsed is not None else None
    text = json.dumps([rest, list_data, ally_lists], sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def editor_key(item: Mapping[str, Any], index: int, count: int, around: str) -> str:
    """The content key of one card's editor: its unit, its place (the number, the first
    and last have no Up / Down) and ``editor_around``."""
    text = json.dumps([item, index, index == count - 1, around], sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def control_prefix(kind: str, item_id: str, index: int) -> str:
    """What a unit's controls' element ids start with: ``u-<its id>``."""
    return f"{'u' if kind == 'units' else 'g'}-{item_id or index}"


def list_aware(
    controls: tuple[Control, ...],
    ruleset: RuleSet,
    parsed: Any,
    item: Mapping[str, Any],
    ally_lists: tuple[tuple[str, str], ...],
) -> tuple[Control, ...]:
    """Offer only what the unit's army-list entry (or a rule) allows, saying why; the d5
    ally is a menu of the other lists' names, not a typed slug."""
    allowed = ruleset.allowed_values(parsed.list_data, item)
    result = []
    for control in controls:
        rule = allowed.get(control.field)
        if rule is not None and control.widget in ("select", "multi"):
            control = restrict(control, rule.values, rule.reason)
        elif rule is not None and control.widget == "checkbox":
            if True not in rule.values and not control.checked:
                control = replace(control, disabled=True, reason=rule.reason)
        elif control.field == "ally" and ally_lists and control.widget == "text":
            own = parsed.list_family(parsed.army_list)  # a copy's source is its own list too
            chosen = item.get("ally")
            options = [Option("", "— none: the army's own units —", not chosen)]
            options += [
                Option(slug, name, slug == chosen)
                for slug, name in ally_lists
                if parsed.list_family(slug) != own
            ]
            control = replace(control, widget="select", options=tuple(options))
        result.append(control)
    return tuple(result)


def ally_choices(ruleset: RuleSet, lists: Any) -> tuple[tuple[str, str], ...]:
    """(slug, name) of every army list, when the rule set's units name an ally list."""
    if not any(f.name == "ally" for f in ruleset.unit_fields):
        return ()
    return tuple((str(found.slug), str(found.name)) for found in lists)


def issue_views(checked: Checked) -> list[IssueView]:
    parsed, report = checked.parsed, checked.report
    if parsed is None or report is None:
        return []
    views = []
    for issue in report.issues:
        href, target = presentation.issue_place(parsed, issue, parsed.unit_ids, parsed.general_ids)
        views.append(IssueView(issue.severity, issue.code, issue.message, issue.rule, href, target))
    return views


def totals(checked: Checked, ruleset: RuleSet) -> Totals | None:
    report = checked.report
    if report is None:
        return None
    composition = report.composition if isinstance(report.composition, Mapping) else {}
    rows = composition.get("matrix_rows")
    words = presentation.total_words(
        units=len(report.units),
        valid=report.valid,
        errors=len(report.errors),
        warnings=len(report.warnings),
        total=report.total_points,
        limit=report.points_limit,
    )
    return Totals(
        uses_points=ruleset.uses_points,
        total=report.total_points,
        limit=report.points_limit,
        valid=report.valid,
        errors=len(report.errors),
        warnings=len(report.warnings),
        units=len(report.units),
        matrix_rows=tuple(rows) if isinstance(rows, list | tuple) else None,
        matrix_text=presentation.matrix_words(rows if isinstance(rows, list | tuple) else None),
        percent=words["percent"],
        verdict=words["verdict"],
        verdict_class=words["verdict_class"],
        problems=words["problems"],
        units_text=words["units_text"],
        left=words["left"],
    )


def builder(
    checked: Checked,
    ruleset: RuleSet,
    *,
    rows: bool = True,
    controls: bool = True,
    focus: tuple[str, str] | None = None,
    errors: Mapping[tuple[str, str], str] | None = None,
    ally_lists: tuple[tuple[str, str], ...] = (),
    lazy: bool = False,
    opened: tuple[str, str] | None = None,
    entries: Mapping[str, str] | None = None,
) -> Builder:
    """The whole builder (``rows`` False: only totals and issues, for a partial).
    ``entries``: unit id -> its list entry's preset (``builder_page.unit_entries``), for the cards.

    ``lazy``: only the cards drawn open (``focus``, ``opened``, one with an error) are
    drawn with their editor; the others bring theirs when opened (``armies.card_views``),
    which keeps a big army's page small and quick to draw."""
    view = Builder(checked=checked, ruleset=ruleset)
    if checked.parsed is None:
        return view
    view.issues = issue_views(checked)
    view.totals = totals(checked, ruleset)
    view.first_problem = next((i.href for i in view.issues if i.href), "#issues")
    view.general_names = [str(g["name"]) for g in checked.parsed.generals]
    if rows:
        errors = errors or {}
        base = reverse("armies:builder", args=[checked.army.pk])
        by_item: dict[str, list[IssueView]] = {}
        for issue in view.issues:
            by_item.setdefault(issue.href, []).append(issue)
        around = editor_around(checked, ally_lists)
        for kind, target in (("units", view.unit_rows), ("generals", view.general_rows)):
            items = checked.parsed.units if kind == "units" else checked.parsed.generals
            for i in range(len(items)):
                named = (kind, id_of(checked, kind, i))
                error = errors.get(named, "")
                drawn_open = named in (focus, opened) or bool(error)
                row = item_row(
                    checked,
                    ruleset,
                    kind,
                    i,
                    with_controls=controls and (drawn_open or not lazy),
                    error=error,
                    focus=focus == named,
                    base=base,
                    problems=by_item.get(f"#{item_anchor(kind, named[1], i)}", []),
                    ally_lists=ally_lists,
                    around=around,
                    entry=(entries or {}).get(named[1], ""),
                )
                target.append(replace(row, open=True) if named == opened else row)
    return view


def option_controls(checked: Checked, ruleset: RuleSet) -> list[Control]:
    options = checked.army.document.get("options")
    values = options if isinstance(options, Mapping) else {}
    return controls_for(ruleset.options, values, "opt")


def add_presets(ruleset: RuleSet, list_data: Mapping[str, Any] | None) -> list[Preset]:
    return presets(ruleset, list_data)


def setting_from(document: Mapping[str, Any]) -> dict[str, str]:
    """Each army setting's value as JSON: what a change to it is made from."""
    return {
        key: json.dumps(document.get(key)) for key in ("name", "army_list", "points_limit", "notes")
    }


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
