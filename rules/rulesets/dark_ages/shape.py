"""The list editor's description of a Dark Ages army list (both editions): the required
units (each fielded ``count`` times), and the choice groups, each picking ``pick`` units
among its own options (at most ``max`` of one option). An entry fixes the values of
``type``, ``missile`` and ``variant`` its units may take; d5 may mark a unit fixed (the
source's italics). ``lists.validate`` stays the judge of every change."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import partial
from typing import Any

from rules.fields import Field
from rules.list_shape import KEY_FIELD, ListShape, Section, ShapeField, notes_section, values_fields
from rules.rulesets.dark_ages.lists import LIST_SIZE, MATCH_KEYS


def _units_section(
    key: str, label: str, number: ShapeField, new_item: dict, matchable: tuple, allow_fixed: bool
) -> Section:
    """Required units and a group's options alike: a name, how many, (d5) fixed, a note,
    and the values of type, missile and variant its units may take."""
    fixed = (ShapeField("fixed", "May not be changed (in italics)", "boolean"),)
    return Section(
        key=key,
        label=label,
        item_label=label.removesuffix("s"),
        fields=(
            ShapeField("name", "Name", "text"),
            number,
            *(fixed if allow_fixed else ()),
            ShapeField("note", "Note", "text", optional=True),
            KEY_FIELD,
        ),
        values_key="match",
        values=matchable,
        new_item=new_item,
    )


Validator = Callable[[Any], list[str]]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _movable(data: dict[str, Any], kept: frozenset[str]) -> list[tuple[dict[str, Any], str]]:
    """(item, its number's key) of the required units and choice groups a rebalance may
    change: those the player did not just change."""
    found = []
    for key, number in (("required", "count"), ("choices", "pick")):
        for item in data.get(key) or []:
            if isinstance(item, dict) and _whole(item.get(number)) and item.get("key") not in kept:
                found.append((item, number))
    return found


def _total(data: dict[str, Any]) -> int:
    return sum(
        item[number]
        for key, number in (("required", "count"), ("choices", "pick"))
        for item in data.get(key) or []
        if isinstance(item, dict) and _whole(item.get(number))
    )


def _set(data: dict[str, Any], changes: list[tuple[str, str, int]]) -> tuple[dict, list[str]]:
    """``data`` with each (item key, number key, new value) set, and the words for it; a
    choice group's pick lowered below an option's maximum takes that maximum down too."""
    data = copy.deepcopy(data)
    said = []
    for key, number, value in changes:
        for item in data.get("required" if number == "count" else "choices") or []:
            if isinstance(item, dict) and item.get("key") == key:
                old = item[number]
                verb = "raise" if value > old else "lower"
                label = "How many" if number == "count" else "Units to pick"
                words = f"{verb} {item.get('name') or key}’s {label} from {old} to {value}"
                item[number] = value
                capped = [
                    o for o in item.get("options") or []
                    if isinstance(o, dict) and _whole(o.get("max")) and o["max"] > value
                ]  # fmt: skip
                for option in capped:
                    option["max"] = value
                if capped:
                    words += f" (and At most of {', '.join(o['name'] for o in capped)} to {value})"
                said.append(words)
    return data, said


def rebalance(
    data: dict[str, Any], kept: frozenset[str], validator: Validator
) -> list[tuple[str, dict[str, Any]]]:
    """What else could change so the list's units add up to six again, each one a whole
    list the validator accepts: one other required unit's How many or one group's Units to
    pick taking up the difference, else (lowering) several of them, largest first."""
    if not isinstance(data, dict):
        return []
    gap = LIST_SIZE - _total(data)
    if gap == 0:
        return []
    proposals: list[tuple[str, dict[str, Any]]] = []
    movable = _movable(data, kept)
    for item, number in movable:
        if item[number] + gap >= 1:
            candidate, said = _set(data, [(item["key"], number, item[number] + gap)])
            if not validator(candidate):
                proposals.append((f"Then {said[0]}.", candidate))
    if not proposals and gap < 0:  # no one number can take it all: lower several
        changes, left = [], -gap
        for item, number in sorted(movable, key=lambda m: -m[0][m[1]]):
            cut = min(left, item[number] - 1)
            if cut > 0:
                changes.append((item["key"], number, item[number] - cut))
                left -= cut
        if left == 0:
            candidate, said = _set(data, changes)
            if not validator(candidate):
                proposals.append((f"Then {' and '.join(said)}.", candidate))
    return proposals


def list_shape(
    unit_fields: Iterable[Field], *, allow_fixed: bool, validator: Validator
) -> ListShape:
    matchable = values_fields(f for f in unit_fields if f.name in MATCH_KEYS)
    # skirmishers carry a missile weapon (core: skirmishers-need-missile), so a new option
    # and a new list's tile build a legal unit at once
    skirmish = {"type": ["skirmishers"], "missile": ["javelin"]}
    option = {"key": "option-1", "name": "New option", "match": dict(skirmish), "max": 1}
    required = _units_section(
        "required",
        "Required units",
        ShapeField("count", "How many", "integer"),
        {"key": "entry-1", "name": "New unit", "match": {"type": ["infantry"]}, "count": 1},
        matchable,
        allow_fixed,
    )
    choices = Section(
        key="choices",
        label="Choices",
        item_label="Choice group",
        fields=(
            ShapeField("name", "Name", "text"),
            ShapeField("pick", "Units to pick", "integer"),
            ShapeField("note", "Note", "text", optional=True),
            KEY_FIELD,
        ),
        new_item={"key": "entry-1", "name": "Support", "pick": 1, "options": [dict(option)]},
    )
    options = replace(
        _units_section(
            "options",
            "Options of the choice groups",
            ShapeField("max", "At most", "integer"),
            option,
            matchable,
            allow_fixed,
        ),
        within="choices",
        item_label="Option",
    )
    # a new list is valid at once: four required infantry and a pick of two (six units)
    empty = {
        "required": [{"key": "infantry", "name": "Infantry", "match": {"type": ["infantry"]},
                      "count": LIST_SIZE - 2}],
        "choices": [{"key": "support", "name": "Support", "pick": 2,
                     "options": [{"key": "skirmishers", "name": "Javelin skirmishers",
                                  "match": dict(skirmish), "max": 2}]}],
    }  # fmt: skip
    return ListShape(
        sections=(required, choices, options, notes_section()),
        empty=empty,
        rebalance=partial(rebalance, validator=validator),
    )
