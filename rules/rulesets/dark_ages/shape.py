"""The list editor's description of a Dark Ages army list (both editions): the required
units (each fielded ``count`` times), and the choice groups, each picking ``pick`` units
among its own options (at most ``max`` of one option). An entry fixes the values of
``type``, ``missile`` and ``variant`` its units may take; d5 may mark a unit fixed (the
source's italics). ``lists.validate`` stays the judge of every change."""

from __future__ import annotations

from collections.abc import Iterable

from rules.fields import Field
from rules.list_shape import ListShape, Section, ShapeField, values_fields
from rules.rulesets.dark_ages.lists import LIST_SIZE, MATCH_KEYS


def list_shape(unit_fields: Iterable[Field], *, allow_fixed: bool) -> ListShape:
    matchable = values_fields(f for f in unit_fields if f.name in MATCH_KEYS)
    fixed = (ShapeField("fixed", "May not be changed (in italics)", "boolean"),)
    note = ShapeField("note", "Note", "text", optional=True)
    required = Section(
        key="required",
        label="Required units",
        item_label="Required unit",
        fields=(
            ShapeField("name", "Name", "text"),
            ShapeField("count", "How many", "integer"),
            *(fixed if allow_fixed else ()),
            note,
        ),
        values_key="match",
        values=matchable,
        new_item={
            "key": "entry-1",
            "name": "New unit",
            "match": {"type": ["infantry"]},
            "count": 1,
        },
    )
    choices = Section(
        key="choices",
        label="Choices",
        item_label="Choice group",
        fields=(
            ShapeField("name", "Name", "text"),
            ShapeField("pick", "Units to pick", "integer"),
            note,
        ),
        new_item={
            "key": "entry-1",
            "name": "Support",
            "pick": 1,
            "options": [
                {
                    "key": "option-1",
                    "name": "New option",
                    "match": {"type": ["skirmishers"]},
                    "max": 1,
                }
            ],
        },  # fmt: skip
    )
    options = Section(
        key="options",
        within="choices",
        label="Options of the choice groups",
        item_label="Option",
        fields=(
            ShapeField("name", "Name", "text"),
            ShapeField("max", "At most", "integer"),
            *(fixed if allow_fixed else ()),
            note,
        ),
        values_key="match",
        values=matchable,
        new_item={
            "key": "option-1",
            "name": "New option",
            "match": {"type": ["skirmishers"]},
            "max": 1,
        },  # fmt: skip
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
