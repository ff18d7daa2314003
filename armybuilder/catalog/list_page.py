"""The army-list page in words a player reads: entries, counts, what each fixes, costs.

Everything comes from the rule set (``list_entries`` with no army, ``describe_list``), so
the page says what the builder's picker and the checks do; nothing here reads a list
format.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import rules
from armybuilder.catalog.models import ArmyList
from rules.fields import Field


@dataclass(frozen=True)
class EntryRow:
    label: str
    count: str  # "exactly 3", "1 to 4", "up to 2", "any number"
    choices: tuple[tuple[str, str], ...]  # (field label, the values it allows, in words)
    always: str  # yes/no fields the entry requires, e.g. "champion"
    never: str  # yes/no fields the entry excludes, e.g. "mounted, warband"
    cost: int | None
    cost_note: str  # what the cost is for, e.g. "for 12 figures"
    note: str


@dataclass(frozen=True)
class ListPage:
    rows: tuple[EntryRow, ...]
    rules: tuple[str, ...]
    notes: tuple[str, ...]
    uses_points: bool
    allies: tuple[ArmyList, ...]  # lists allies may come from (rule sets with allies)


def count_words(minimum: int, maximum: int | None) -> str:
    if maximum is None:
        return f"at least {minimum}" if minimum else "any number"
    if minimum == maximum:
        return "none" if maximum == 0 else f"exactly {minimum}"
    if minimum == 0:
        return f"up to {maximum}"
    return f"{minimum} to {maximum}"


def value_words(f: Field, values: Iterable[Any]) -> str:
    """Choice labels without their parenthesised details, "or" between them."""
    names = []
    for value in values:
        if value is None:
            names.append("none")
        else:
            label = f.label_for(value)
            names.append(label.split(" (")[0] if " (" in label else label)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


def _row(
    ruleset: rules.RuleSet, entry: rules.EntryStatus, fixes: Mapping[str, Sequence[Any]]
) -> EntryRow:
    fields = {f.name: f for f in ruleset.unit_fields}
    choices, always, never = [], [], []
    for name, values in fixes.items():
        f = fields[name]
        if f.kind == "boolean" and len(values) == 1:
            (always if values[0] else never).append(f.label.lower())
        elif f.kind != "boolean":
            choices.append((f.label, value_words(f, values)))
    cost_note = ""
    if entry.cost is not None and "figures" in fields:
        figures = entry.values.get("figures", fields["figures"].default)
        cost_note = f"for {figures} figure{'s' if figures != 1 else ''}"
    return EntryRow(
        label=entry.label,
        count=count_words(entry.minimum, entry.maximum),
        choices=tuple(choices),
        always=", ".join(always),
        never=", ".join(never),
        cost=entry.cost,
        cost_note=cost_note,
        note=entry.note,
    )


def _notes(data: Mapping[str, Any]) -> tuple[str, ...]:
    notes = data.get("notes")
    if isinstance(notes, str):
        return (notes,) if notes.strip() else ()
    if isinstance(notes, list):
        return tuple(str(n) for n in notes if str(n).strip())
    return ()


def takes_allies(ruleset: rules.RuleSet) -> bool:
    """Whether units may come from another list of the rule set (a unit field ``ally``)."""
    return any(f.name == "ally" for f in ruleset.unit_fields)


def army_list_page(
    ruleset: rules.RuleSet, army_list: ArmyList, others: Sequence[ArmyList]
) -> ListPage:
    """The page's content for ``army_list``; ``others`` are the rule set's other lists."""
    data = army_list.data if isinstance(army_list.data, Mapping) else {}
    description = ruleset.describe_list(data)
    rows = tuple(
        _row(ruleset, entry, description.choices.get(entry.key, {}))
        for entry in ruleset.list_entries(data, None)
    )
    return ListPage(
        rows=rows,
        rules=description.rules,
        notes=_notes(data),
        uses_points=ruleset.uses_points,
        allies=tuple(o for o in others if o.slug != army_list.slug)
        if takes_allies(ruleset)
        else (),
    )
