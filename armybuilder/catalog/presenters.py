"""What the home and rule-set pages show, written for players (no JSON, no Python reprs).

The rule set's vocabulary is data (``rules.fields.Field``); this turns each field into a
line a player reads: "Yes or no", "A whole number from 1 to 400", "Average, Levy, ...",
defaults as labels ("No", "Average", "—").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import rules
from rules.fields import Field

NONE = "—"


@dataclass(frozen=True)
class FieldRow:
    """One line of the field-by-field reference."""

    key: str
    label: str
    help: str
    kind: str  # a short description: "Choice", "Yes or no", "Number", ...
    values: tuple[str, ...]  # the allowed values, one readable line each ((): see ``kind``)
    default: str


@dataclass(frozen=True)
class RulesetCard:
    """A rule set on the home page: title, summary and what its army lists are."""

    ruleset: rules.RuleSet
    list_count: int
    lists_text: str
    points_text: str


def number(value: Any) -> str:
    """5.0 -> "5", 2.5 -> "2.5", 400 -> "400" (no float noise, no trailing zeros)."""
    if isinstance(value, float | Decimal):
        return format(Decimal(str(value)).normalize(), "f")
    return str(value)


def _choice_line(choice: rules.fields.Choice) -> str:
    return f"{choice.label} ({choice.note})" if choice.note else choice.label


def values_of(field: Field) -> tuple[str, tuple[str, ...]]:
    """(what kind of value, the allowed values as readable lines)."""
    kind = field.kind
    if kind == "boolean":
        return "Yes or no", ()
    if kind == "choice":
        lines = [_choice_line(c) for c in field.choices if c.value is not None]
        none = [c.label for c in field.choices if c.value is None]
        if field.nullable or none:
            lines.append(none[0] if none else "None")
        return "One of", tuple(lines)
    if kind == "multi":
        return "Any of (or none)", tuple(_choice_line(c) for c in field.choices)
    if kind in ("integer", "number"):
        what = "A whole number" if kind == "integer" else "A number"
        if field.minimum is not None and field.maximum is not None:
            return f"{what} from {number(field.minimum)} to {number(field.maximum)}", ()
        if field.minimum is not None:
            return f"{what}, at least {number(field.minimum)}", ()
        return what, ()
    if kind == "object":
        parts = []
        for sub in field.fields:
            sub_kind, sub_values = values_of(sub)
            listed = ", ".join(sub_values) if sub_values else sub_kind.lower()
            parts.append(f"{sub.label}: {listed}")
        head = "Optional, with" if field.nullable else "With"
        return head, tuple(parts)
    if kind == "text":
        return "Text (several lines allowed)", ()
    if field.maximum:
        return f"Text, up to {number(field.maximum)} characters", ()
    return "Text", ()


def default_of(field: Field) -> str:
    """The default as a player reads it: a label, "Yes"/"No", a number, or "—"."""
    if field.required:
        return "Required"
    value = field.default
    if value is None:
        return "None" if field.kind == "choice" else NONE
    if field.kind == "boolean":
        return "Yes" if value else "No"
    if field.kind == "choice":
        return field.label_for(value)
    if field.kind == "multi":
        return ", ".join(field.label_for(v) for v in value) if value else "None"
    if field.kind in ("integer", "number"):
        return number(value)
    if field.kind == "object":
        return NONE if not value else "Set"
    return str(value) or NONE


def reference(fields: Iterable[Field]) -> list[FieldRow]:
    rows = []
    for f in fields:
        kind, values = values_of(f)
        rows.append(FieldRow(f.name, f.label, f.help, kind, values, default_of(f)))
    return rows


def lists_text(ruleset: rules.RuleSet, count: int) -> str:
    """ "8 army lists", or that the source has none (never "0 army lists")."""
    if not ruleset.source_has_lists:
        return "No army lists in its source: build from the troop options"
    if count == 0:
        return "No army lists loaded yet: build from the troop options"
    return f"{count} army list{'s' if count != 1 else ''}"


def points_text(ruleset: rules.RuleSet) -> str:
    """How points (or their absence) work, in one sentence, with the source's section."""
    section = f"(source: “{ruleset.points_rule}”)"
    if ruleset.uses_points:
        return (
            "Points: Muster costs every unit exactly and totals the army against the "
            f"points limit you set {section}."
        )
    if ruleset.can_roll:
        return (
            "No points: a force is one row of the force matrix. Muster checks your units "
            f"against it, or rolls a force for you {section}."
        )
    return (
        "No points: armies are a set number of units, balanced by the rules; Muster "
        f"checks yours against the source's limits {section}."
    )


SCOPES = {
    "unit": "Each unit",
    "general": "Each general",
    "army": "The whole army",
    "army_list": "The army list",
}
SEVERITIES = {"error": "Makes the army illegal", "warning": "Warning only"}


@dataclass(frozen=True)
class CheckRow:
    text: str
    code: str
    applies_to: str
    severity: str
    effect: str


def checks(ruleset: rules.RuleSet) -> list[CheckRow]:
    """The check codes, readable: what is checked, on what, and what it does to the army."""
    return [
        CheckRow(
            c.text,
            c.code,
            SCOPES.get(c.scope, c.scope),
            c.severity,
            SEVERITIES.get(c.severity, c.severity),
        )
        for c in ruleset.checks
    ]


def cards(counts: dict[str, int]) -> list[RulesetCard]:
    return [
        RulesetCard(r, counts.get(r.slug, 0), lists_text(r, counts.get(r.slug, 0)), points_text(r))
        for r in rules.all_rulesets()
    ]
