"""The order of battle as plain data, built from the check report and the rule set's vocabulary.

Nothing here knows a particular rule set: labels come from the rule set's fields
(``Field.label_for``), numbers and stat lines from the report. Into the Dark's divisions
(a unit's ``division`` names a general) group units under their general; every other rule
set prints its units in document order.

Identical units (the same entry in the document, the same points and problems) share one
card, "Knights ×4" with their numbers, unless the player asks for one card per unit.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import rules
from rules import presentation
from rules.base import Issue, ItemReport
from rules.fields import Field
from rules.qrs import stat_label

# Fields printed in their own place rather than in the unit's profile line.
_OWN_PLACE = {
    "name",
    "figures",
    "stands",
    "figures_per_stand",
    "division",
    "personality",
    "banner",
    "command",
}
_PERSONALITY_FIELDS = ("personality", "command")
_TYPE_FIELDS = ("type", "class", "arm")


@dataclass(frozen=True)
class UnitBlock:
    number: int
    name: str
    code: str
    size: str
    profile: tuple[str, ...]
    stats: tuple[tuple[str, str], ...]
    points: int | None
    breakdown: tuple[str, ...]
    special: tuple[str, ...]
    personality: str
    issues: tuple[Issue, ...]
    numbers: tuple[int, ...] = ()  # the units one card stands for, when more than one

    @property
    def count(self) -> int:
        return len(self.numbers) or 1


@dataclass(frozen=True)
class GeneralBlock:
    name: str
    details: tuple[str, ...]
    points: int | None
    breakdown: tuple[str, ...]
    issues: tuple[Issue, ...]


@dataclass(frozen=True)
class Group:
    """Units printed together: a general's division, or the army's units."""

    title: str
    general: GeneralBlock | None
    units: tuple[UnitBlock, ...]
    points: int | None = None


@dataclass(frozen=True)
class Roster:
    name: str
    ruleset_title: str
    ruleset_slug: str
    list_name: str
    uses_points: bool
    total_line: str
    options: tuple[str, ...]
    legal: bool
    errors: tuple[Issue, ...]
    warnings: tuple[Issue, ...]
    groups: tuple[Group, ...]
    notes: str
    unit_count: int
    composition: tuple[str, ...] = field(default_factory=tuple)


def build_roster(
    army: rules.Army, report: rules.Report, *, list_name: str = "", group_identical: bool = True
) -> Roster:
    ruleset = rules.get_ruleset(army.ruleset)
    # units of one name are numbered as in the builder and a game (rules.presentation)
    called = presentation.called_units(army.units)
    units = tuple(
        _unit_block(ruleset, unit, replace(item, name=name), report, army.list_title)
        for unit, item, name in zip(army.units, report.units, called, strict=True)
    )
    groups = _groups(ruleset, army, report, units)
    if group_identical:
        keys = {b.number: _same_key(u, b) for u, b in zip(army.units, units, strict=True)}
        own = {b.number: str(u.get("name", "")) for u, b in zip(army.units, units, strict=True)}
        groups = tuple(
            Group(g.title, g.general, _merged(g.units, keys, own), g.points) for g in groups
        )
    return Roster(
        name=army.name,
        ruleset_title=ruleset.title,
        ruleset_slug=ruleset.slug,
        list_name=list_name,
        uses_points=ruleset.uses_points,
        total_line=_total_line(ruleset, army, report),
        options=_option_lines(ruleset, army.options),
        legal=report.valid,
        errors=report.errors,
        warnings=report.warnings,
        groups=groups,
        notes=army.notes,
        unit_count=len(army.units),
        composition=_composition_lines(report.composition),
    )


def _same_key(unit: Mapping[str, Any], block: UnitBlock) -> str:
    """Units with equal keys print as one card: the whole entry, its points and problems."""
    problems = [(i.severity, i.code, i.message) for i in block.issues]
    return json.dumps([dict(unit), block.points, problems], sort_keys=True, default=str)


def _merged(
    blocks: tuple[UnitBlock, ...], keys: Mapping[int, str], own: Mapping[int, str]
) -> tuple[UnitBlock, ...]:
    """One card per run of identical units (in the order the first of each appears): it
    carries their own name, unnumbered, and the numbers of their places."""
    seen: dict[str, list[UnitBlock]] = {}
    for block in blocks:
        seen.setdefault(keys[block.number], []).append(block)
    merged = []
    for same in seen.values():
        first = same[0]
        if len(same) > 1:
            numbers = tuple(b.number for b in same)
            first = dataclasses.replace(first, name=own[first.number], numbers=numbers)
        merged.append(first)
    return tuple(merged)


def _unit_block(
    ruleset: rules.RuleSet,
    unit: Mapping[str, Any],
    item: ItemReport,
    report: rules.Report,
    list_title: Callable[[str], str],
) -> UnitBlock:
    stats = dict(item.stats)
    code = str(stats.pop("code", "") or "")
    shown: tuple[str, ...] = ()
    if not code:  # no unit code in this rule set: its type names the unit instead
        code, shown = _type_label(ruleset, unit), _TYPE_FIELDS
    notes = str(stats.pop("notes", "") or "")
    return UnitBlock(
        number=item.index + 1,
        name=item.name,
        code=code,
        size=_size(unit),
        profile=_profile(ruleset, unit, list_title, skip=shown),
        stats=tuple((stat_label(k), str(v)) for k, v in stats.items()),
        points=item.points,
        breakdown=item.breakdown,
        special=tuple(n.strip() for n in notes.split(";") if n.strip()),
        personality=_personality(ruleset, unit),
        issues=report.issues_for_unit(item.index),
    )


def _type_label(ruleset: rules.RuleSet, unit: Mapping[str, Any]) -> str:
    parts = []
    for name in _TYPE_FIELDS:
        if name in unit:
            parts.append(_field(ruleset, name).label_for(unit[name]))
    return " ".join(parts)


def _field(ruleset: rules.RuleSet, name: str) -> Field:
    try:
        return ruleset.unit_field(name)
    except KeyError:
        return Field(name, name.replace("_", " ").capitalize(), "string")


def _size(unit: Mapping[str, Any]) -> str:
    if "stands" in unit:
        stands = unit["stands"]
        per = unit.get("figures_per_stand")
        if isinstance(stands, int) and isinstance(per, int):
            return (
                f"{stands} stand{'s' if stands != 1 else ''} \u00d7 {per} = {stands * per} "
                f"figure{'s' if stands * per != 1 else ''}"
            )
        return f"{stands} stands"
    figures = unit.get("figures")
    mixed = unit.get("mixed")  # an Into the Dark mixed unit's second troop type
    if isinstance(figures, int) and isinstance(mixed, Mapping):
        return f"{figures + mixed['figures']} figures ({figures} + {mixed['figures']} mixed)"
    if isinstance(figures, int):
        return f"{figures} figure{'s' if figures != 1 else ''}"
    return ""


def _profile(
    ruleset: rules.RuleSet,
    unit: Mapping[str, Any],
    list_title: Callable[[str], str],
    skip: tuple[str, ...] = (),
) -> tuple[str, ...]:
    """Every troop option the unit carries, labelled as the rule set labels it; a list
    the unit names (a d5 ally) by the list's name."""
    parts: list[str] = []
    for f in ruleset.unit_fields:
        if f.name in _OWN_PLACE or f.name in skip or f.name not in unit:
            continue
        value = unit[f.name]
        if f.kind == "boolean":
            if value:
                parts.append(f.label)
        elif f.kind == "choice":
            if value is not None:
                parts.append(f"{f.label}: {f.label_for(value)}")
        elif f.kind == "multi":
            if value:
                parts.append(f"{f.label}: {', '.join(f.label_for(v) for v in value)}")
        elif f.name in ruleset.list_fields and value:
            parts.append(f"{f.label}: {list_title(str(value))}")
        elif f.kind in ("integer", "number", "string") and value not in (None, ""):
            parts.append(f"{f.label}: {value}")
    return tuple(parts)


def _personality(ruleset: rules.RuleSet, unit: Mapping[str, Any]) -> str:
    parts = []
    for name in _PERSONALITY_FIELDS:
        value = unit.get(name)
        if value:
            parts.append(_field(ruleset, name).label_for(value))
    if unit.get("banner"):
        parts.append("with banner" if parts else "Banner")
    return " ".join(parts)


def _general_block(
    ruleset: rules.RuleSet, general: Mapping[str, Any], item: ItemReport, report: rules.Report
) -> GeneralBlock:
    details: list[str] = []
    for f in ruleset.general_fields:
        if f.name == "name":
            continue
        value = general.get(f.name)
        if f.kind == "boolean":
            if value:
                details.append(f.label)
        elif f.kind == "choice" and value is not None:
            details.append(f"{f.label}: {f.label_for(value)}")
        elif f.kind == "object" and value:
            inner = ", ".join(
                sub.label_for(value.get(sub.name)) for sub in f.fields if sub.name in value
            )
            details.append(f"{f.label}: {inner}")
    return GeneralBlock(
        name=item.name,
        details=tuple(details),
        points=item.points,
        breakdown=item.breakdown,
        issues=tuple(i for i in report.issues if i.general == item.index),
    )


def _groups(
    ruleset: rules.RuleSet,
    army: rules.Army,
    report: rules.Report,
    units: tuple[UnitBlock, ...],
) -> tuple[Group, ...]:
    has_divisions = any(f.name == "division" for f in ruleset.unit_fields)
    generals = [
        _general_block(ruleset, g, item, report)
        for g, item in zip(army.generals, report.generals, strict=True)
    ]
    if not has_divisions:
        groups = [Group("Generals", g, ()) for g in generals]
        groups.append(Group("Units", None, units))
        return tuple(g for g in groups if g.general or g.units)
    placed: set[int] = set()
    groups = []
    for general in generals:
        mine = tuple(
            block
            for block, unit in zip(units, army.units, strict=True)
            if unit.get("division") == general.name
        )
        placed.update(b.number for b in mine)
        points = _sum_points([general.points, *(b.points for b in mine)])
        groups.append(Group(f"{general.name}'s division", general, mine, points))
    rest = tuple(b for b in units if b.number not in placed)
    if rest:
        title = "Units in no division" if generals else "Units"
        groups.append(Group(title, None, rest, _sum_points([b.points for b in rest])))
    return tuple(groups)


def _sum_points(values: list[int | None]) -> int | None:
    known = [v for v in values if v is not None]
    return sum(known) if known else None


def _total_line(ruleset: rules.RuleSet, army: rules.Army, report: rules.Report) -> str:
    units = f"{len(army.units)} unit{'s' if len(army.units) != 1 else ''}"
    if ruleset.uses_points:
        total = report.total_points or 0
        limit = f" of {report.points_limit}" if report.points_limit is not None else ""
        return f"{total} points{limit} · {units}"
    composition = report.composition or {}
    rows = composition.get("matrix_rows")
    if rows is not None:
        if not rows:
            return f"Force matrix: fits no row · {units}"
        label = "row" if len(rows) == 1 else "rows"
        return f"Force matrix {label} {', '.join(str(r) for r in rows)} · {units}"
    return units


def _composition_lines(composition: Mapping[str, Any] | None) -> tuple[str, ...]:
    """What the roster says of the army's composition, in words as the builder says it.
    The rest of a rule set's composition is data for the pages (a force matrix's column
    ids and unit-type slugs), never printed: players read names, not codes."""
    rows = (composition or {}).get("matrix_rows")
    if not isinstance(rows, list | tuple):
        return ()
    if not rows:
        return ("Fits no force-matrix row",)
    return (f"Fits force-matrix row{'s' if len(rows) > 1 else ''} {_plain(rows)}",)


def _plain(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k}: {_plain(v)}" for k, v in value.items())
    return str(value).replace("_", " ")


def _option_lines(ruleset: rules.RuleSet, options: Mapping[str, Any]) -> tuple[str, ...]:
    lines = []
    for f in ruleset.options:
        value = options.get(f.name, f.default)
        if f.kind == "boolean":
            lines.append(f"{f.label}: {'on' if value else 'off'}")
        elif f.kind == "choice":
            lines.append(f"{f.label}: {f.label_for(value)}")
        else:
            lines.append(f"{f.label}: {value}")
    return tuple(lines)
