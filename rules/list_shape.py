"""A data description of a rule set's army-list format, for a generic list editor.

A rule set describes its list's repeated items (``Section``: e.g. Into the Dark's
``entries``), each item's plain fields (``ShapeField``: text, a whole number) and its
allowed-values fields (``ValuesField``: a unit field and the values a player may tick, kept
under the item's ``values_key``, e.g. ``match``). The editor shows one control per field
and saves each change; the rule set's own ``validate_army_list`` stays the judge.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from rules.fields import Field


@dataclass(frozen=True)
class ShapeField:
    name: str
    label: str
    # text: one line; longtext: several lines kept as one text; lines: several lines kept
    # as a list of texts, one a line (Feudal's notes)
    kind: Literal["text", "longtext", "lines", "integer", "choice", "boolean"]
    optional: bool = False  # an empty control removes the key (e.g. no maximum)
    choices: tuple[tuple[Any, str], ...] = ()  # a choice's (stored value, what a player reads)
    keep_empty: bool = False  # an empty control keeps the key, as "" (or [] for lines)


@dataclass(frozen=True)
class ValuesField:
    """The values of one unit field an item allows (a list of them, in the stored data)."""

    name: str
    label: str
    choices: tuple[tuple[Any, str], ...]  # (stored value, what a player reads)


@dataclass(frozen=True)
class Section:
    """Repeated items kept as a list under ``key`` (entries, limits, replacements), or with
    ``single`` one object: under ``key`` (Feudal's columns), or the list data itself when
    ``key`` is "" (top-level settings such as Feudal's schiltrons)."""

    key: str  # the top-level key of the list data holding the items ("" with single: the data)
    label: str
    item_label: str
    fields: tuple[ShapeField, ...]
    values_key: str = ""  # where an item keeps its ValuesFields ("" for none)
    values: tuple[ValuesField, ...] = ()
    new_item: dict[str, Any] = field(default_factory=dict)  # a fresh item's data
    minimum: int = 1  # how few items the list may keep (0: the part is optional)
    single: bool = False
    # nested items: the key of the section whose items each keep a list of these under
    # ``key`` (a Dark Ages choice group's options); "" for items at the top of the data
    within: str = ""


# (the list data after a change, the keys of the items the player changed) -> what else
# could change with it so the list is whole again: (what, in words; the data with it)
Rebalance = Callable[[dict[str, Any], frozenset[str]], list[tuple[str, dict[str, Any]]]]


@dataclass(frozen=True)
class ListShape:
    sections: tuple[Section, ...]
    empty: dict[str, Any] = field(default_factory=dict)  # a new list's data
    # a list whose parts must add up (a Dark Ages list's six units): the editor offers
    # a change that breaks the total together with what else would keep it whole
    rebalance: Rebalance | None = None

    def section(self, key: str) -> Section | None:
        return next((s for s in self.sections if s.key == key), None)


# an item's stable id: what armies' history and the list's file name it by; shown last,
# so a new item's generated id can be replaced by the author's own
KEY_FIELD = ShapeField("key", "Id (in the list's file; stays when the name changes)", "text")


def notes_section() -> Section:
    """The list's notes (free text shown on its page), kept at the top of its data."""
    return Section(
        key="",
        label="Notes",
        item_label="Notes",
        fields=(ShapeField("notes", "Notes shown on the list's page", "longtext", optional=True),),
        single=True,
    )


def values_fields(unit_fields: Iterable[Field]) -> tuple[ValuesField, ...]:
    """A ValuesField for each choice and yes/no unit field (what a list may restrict)."""
    found = []
    for f in unit_fields:
        if f.kind == "choice":
            choices = tuple((c.value, c.label) for c in f.choices)
            if f.nullable:
                choices = ((None, "none"), *choices)
            found.append(ValuesField(f.name, f.label, choices))
        elif f.kind == "boolean":
            found.append(ValuesField(f.name, f.label, ((True, "yes"), (False, "no"))))
    return tuple(found)


def entries_shape(fields: tuple[ShapeField, ...], values: tuple[ValuesField, ...]) -> ListShape:
    """A list of entries alone: each a name, how many, ``fields`` and the values each unit
    field may take (``values``, kept under the entry's ``match``)."""
    entry: dict[str, Any] = {"key": "entry-1", "name": "New entry", "match": {}, "min": 0, "max": 1}
    return ListShape(
        sections=(
            Section(
                key="entries",
                label="Entries",
                item_label="Entry",
                fields=(ShapeField("name", "Name", "text"), *fields, KEY_FIELD),
                values_key="match",
                values=values,
                new_item=dict(entry),
            ),
            notes_section(),
        ),
        empty={"entries": [dict(entry)]},
    )
