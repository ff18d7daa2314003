"""The list editor's description of a Dark Ages army list (both editions): the required
units (each fielded ``count`` times), and the choice groups, each picking ``pick`` units
among its own options (at most ``max`` of one option). An entry fixes the values of
``type``, ``missile`` and ``variant`` its units may take; d5 may mark a unit fixed (the
source's italics). ``lists.validate`` stays the judge of every change."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from rules.fields import Field
from rules.list_shape import ListShape, Section, ShapeField, values_fields
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
        ),
        values_key="match",
        values=matchable,
        new_item=new_item,
    )


def list_shape(unit_fields: Iterable[Field], *, allow_fixed: bool) -> ListShape:
    matchable = values_fields(f for f in unit_fields if f.name in MATCH_KEYS)
    option = {"key": "option-1", "name": "New option", "match": {"type": ["skirmishers"]}, "max": 1}
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
                     "options": [{"key": "skirmishers", "name": "Skirmishers",
                                  "match": {"type": ["skirmishers"]}, "max": 2}]}],
    }  # fmt: skip
    return ListShape(sections=(required, choices, options), empty=empty)
