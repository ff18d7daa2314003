"""What the "Add unit" menu offers: blank, the rule set's unit types and the army list's
entries, and the unit a preset adds. Plain Python: the server's Add command and the
page's engine make the same unit from the same preset."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.base import Army, EntryStatus, RuleSet
from rules.fields import Field


@dataclass(frozen=True)
class Preset:
    """A way to add a unit: blank, one of the rule set's unit types, or a list entry."""

    key: str
    label: str
    group: str
    values: Mapping[str, Any]


def presets(ruleset: RuleSet, list_data: Mapping[str, Any] | None) -> list[Preset]:
    """What the "Add unit" menu offers, built from the vocabulary and the army list."""
    found = [Preset("blank", "Blank unit (rule set defaults)", "", {})]
    fields = unit_fields(ruleset)
    kind_field = next(
        (fields[n] for n in ("type", "arm", "class") if n in fields and fields[n].choices), None
    )
    if kind_field is not None:
        for choice in kind_field.choices:
            if choice.value is None:
                continue
            found.append(
                Preset(
                    f"type:{as_key(choice.value)}",
                    choice.label,
                    f"{kind_field.label}s of {ruleset.title}",
                    {kind_field.name: choice.value, "name": choice.label},
                )
            )
    list_entries = getattr(ruleset, "list_entries", None)
    if list_entries is not None:  # rules' list-aware interface: stable entry keys
        for entry in list_entries(list_data, None):
            found.append(
                Preset(
                    f"entry:{entry.key}",
                    entry.label,
                    entry.group or "From the army list",
                    known(entry.values, fields),
                )
            )
        return found
    for i, (label, values) in enumerate(ruleset.unit_presets(list_data)):
        found.append(Preset(f"entry:{i}", label, "From the army list", known(values, fields)))
    return found


def known(values: Mapping[str, Any], fields: Mapping[str, Field]) -> dict[str, Any]:
    """A preset's values for the unit's own fields only (the parser refuses any other key)."""
    return {k: v for k, v in values.items() if k in fields}


def as_key(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else value


def unit_fields(ruleset: RuleSet) -> dict[str, Field]:
    return {f.name: f for f in ruleset.unit_fields}


def list_entry(
    ruleset: RuleSet, list_data: Mapping[str, Any] | None, parsed: Army | None, preset_key: str
) -> EntryStatus | None:
    """The list entry ``preset_key`` (``entry:<key>``) names, read with the army as it
    stands (allies from the other lists, a stand-in and the unit it would replace), or
    None when the list has no such entry."""
    for entry in ruleset.list_entries(list_data, parsed):
        if f"entry:{entry.key}" == preset_key:
            return entry
    return None


def preset_unit(
    ruleset: RuleSet, list_data: Mapping[str, Any] | None, preset_key: str
) -> dict[str, Any] | None:
    """The values of a unit added from a "blank" or "type:" preset, or an ``entry:`` one
    of a rule set without list entries (None: no such preset)."""
    offered = {p.key: p for p in presets(ruleset, list_data)}
    found = offered.get(preset_key)
    return dict(found.values) if found is not None else None


def nothing_to_replace(entry: EntryStatus) -> str:
    """Why a stand-in's entry cannot be added: the army has no unit it replaces."""
    return (
        f"{entry.label}: the army has no {entry.replaces} to replace; add "
        f"{entry.replaces} first, or add the unit on its own."
    )
