"""The two Dark Ages rule sets' army lists for the picker: entries, counts, allowed values.

A list (``rules.rulesets.dark_ages.lists``) is required units, each fielded ``count`` times, and
choice groups whose options share the group's picks. Each required unit and each option
is one entry. Counts come from the same fit the list check makes (``fit``), so an entry's
``have`` is the number of units the check places there. An option's ``maximum`` is its own
limit, lowered to what its group still has room for when the other options have taken the
group's picks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.base import Allowed, Army, EntryStatus, ListDescription, RuleSet, Unit, entry_preset
from rules.list_entries import (
    FieldRule,
    by_checks,
    ids_of,
    match_choices,
    merge,
    normaliser,
    restrict_by_entries,
)
from rules.rulesets.dark_ages.fit import fit
from rules.rulesets.dark_ages.lists import ListSpec


def _valid(list_data: Mapping[str, Any] | None) -> bool:
    return isinstance(list_data, Mapping) and bool(list_data.get("required"))


def raw_entries(list_data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The list's required units, then each choice group's options (the slots' order)."""
    entries = list(list_data.get("required", []))
    for group in list_data.get("choices", []):
        entries.extend(group.get("options", []))
    return entries


def list_entries(
    ruleset: RuleSet,
    list_data: Mapping[str, Any] | None,
    army: Army | None,
    *,
    units: Sequence[tuple[int, Unit]],
    scale: int = 1,
    changed: Callable[[Unit], bool] = lambda unit: False,
) -> tuple[EntryStatus, ...]:
    """``units`` and ``scale`` are those the rule set's list check fits."""
    if not _valid(list_data):
        return ()
    assert list_data is not None
    spec = ListSpec.from_data(list_data)
    result = fit(list(units), spec, scale=scale, changed=changed)
    counted: dict[str, list[int]] = {s.key: [] for s in spec.slots}
    for i, slot in result.slot_of.items():
        if slot is not None:
            counted[slot.key].append(i)
    have = {key: len(indices) for key, indices in counted.items()}
    group_used = [
        sum(have[s.key] for s in spec.options if s.group == g) for g in range(len(spec.groups))
    ]
    statuses = []
    for n, (slot, raw) in enumerate(zip(spec.slots, raw_entries(list_data), strict=True)):
        _, values = entry_preset(raw, f"Entry {n + 1}")
        notes = [slot.note] if slot.note else []
        if slot.group is None:
            low = high = slot.limit * scale
            notes.insert(0, "required")
        else:
            group = spec.groups[slot.group]
            picks = group.pick * scale
            low = 0
            room = picks - group_used[slot.group]
            high = min(slot.limit * scale, have[slot.key] + max(0, room))
            notes.insert(0, f"a choice: {picks} {group.name} in all")
        if slot.fixed:
            notes.append("fixed: may take no upgrade or downgrade")
        statuses.append(
            EntryStatus(
                key=slot.key,
                label=slot.name,
                values=values,
                cost=None,
                have=have[slot.key],
                minimum=low,
                maximum=high,
                note="; ".join(notes),
                unit_ids=ids_of(army, sorted(counted[slot.key])),
            )
        )
    return tuple(statuses)


def allowed_values(
    ruleset: RuleSet,
    list_data: Mapping[str, Any] | None,
    unit: Mapping[str, Any],
    rules: Sequence[FieldRule],
) -> dict[str, Allowed]:
    """The list's restrictions (none for an allied unit: its own list decides) merged with
    the rule set's ``rules``."""
    own = by_checks(ruleset, unit, rules)
    if not _valid(list_data) or unit.get("ally"):
        return own
    assert list_data is not None
    spec = ListSpec.from_data(list_data)
    fields = {f.name: f for f in ruleset.unit_fields}
    entries = [s.as_entry() for s in spec.slots]
    listed = restrict_by_entries(entries, unit, fields, normaliser(ruleset))
    if "change" in fields:
        fitting = [s for s in spec.slots if s.fits(unit)]
        if fitting and all(s.fixed for s in fitting):
            names = " or ".join(dict.fromkeys(s.name for s in fitting))
            listed = merge(listed, {"change": Allowed((None,), f"{names}: fixed by the list, "
                                                                "no upgrade or downgrade")})  # fmt: skip
    return merge(listed, own)


def describe_list(
    ruleset: RuleSet,
    list_data: Mapping[str, Any] | None,
    *,
    doubles: bool = False,
    allies: bool = False,
) -> ListDescription:
    """Each entry's match; the choice groups, fixed units, double armies and allies in words."""
    if not _valid(list_data):
        return ListDescription()
    assert list_data is not None
    spec = ListSpec.from_data(list_data)
    choices = {s.key: match_choices(s.match, ruleset.unit_fields) for s in spec.slots}
    sentences = []
    for g, group in enumerate(spec.groups):
        names = ", ".join(s.name for s in spec.options if s.group == g)
        unit = "unit" if group.pick == 1 else "units"
        note = f" ({group.note})" if group.note else ""
        sentences.append(f"Choose {group.pick} {group.name} {unit} from: {names}{note}.")
    if any(s.fixed for s in spec.slots):
        sentences.append("Fixed units (the source's italics) may take no upgrade or downgrade.")
    if doubles:
        sentences.append(
            "The list is written for six units: a double army of twelve doubles every number, "
            "a triple army triples them."
        )
    if allies:
        sentences.append(
            "Allies: 1 to 3 units from the required units of one other list; they take the "
            "places of the choices first, then of required units (Allied Forces)."
        )
    return ListDescription(choices, tuple(sentences))


# the rules of dark-ages-2015 that restrict one field of a unit
FIELD_RULES_2015 = (
    FieldRule("missile", ("missile-not-allowed", "skirmishers-need-missile", "variant-type-mismatch"),
              "infantry and warband carry no missiles, cavalry javelins, skirmishers a bow or "
              "javelins"),
    FieldRule("variant", ("variant-type-mismatch",),
              "an additional unit type fixes the type and missile"),
    FieldRule("quality", ("variant-type-mismatch",), "this additional unit type fixes the quality"),
    FieldRule("banner", ("banner-needs-hero-or-leader",), "a banner needs a hero or leader"),
)  # fmt: skip


# the rules of dark-ages-d5 that restrict one field of a unit
FIELD_RULES_D5 = (
    FieldRule("missile", ("missile-not-allowed", "skirmishers-need-missile", "variant-type-mismatch"),
              "only skirmishers (a bow or javelins) and cavalry (javelins or nothing) carry "
              "missiles"),
    FieldRule("variant", ("variant-type-mismatch",), "a unit type idea fixes the type and missile"),
    FieldRule("change", ("attack-modifier-cap",), "attack may not go past +2 or -2"),
    FieldRule("banner", ("banner-needs-hero-or-leader",), "a banner needs a hero or leader"),
)  # fmt: skip
