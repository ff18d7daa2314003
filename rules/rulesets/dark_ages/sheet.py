"""The Dark Ages quick-reference sheet: one builder, each edition's words as data.

Both editions print the same kinds of section (play sequence, movement, turning, charging,
shooting, melee, removal, the optional rules in play) and the same army part (stat lines,
the unit types and personalities the army fields). What differs is text and tables, so
each edition's sheet is a TOML file beside this module (``sheet_2015.toml``,
``sheet_d5.toml``); its header describes the format.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from rules.base import Army
from rules.qrs import (
    Section,
    Sheet,
    Table,
    assemble_sheet,
    check_extras,
    personality_section,
    variant_section,
)

_HERE = Path(__file__).parent


@cache
def load(name: str) -> dict[str, Any]:
    """An edition's sheet data (a TOML file of this package)."""
    return tomllib.loads((_HERE / name).read_text(encoding="utf-8"))


def _case(element: Mapping[str, Any], options: Mapping[str, Any]) -> Any:
    value = options.get(element["option"])
    key = str(value).lower() if isinstance(value, bool) else str(value)
    return element["cases"].get(key)


def _text(value: Any, values: Mapping[str, Any]) -> Any:
    if isinstance(value, str):
        return value.format_map(values)
    if isinstance(value, Mapping):
        return _text(_case(value, values), values)
    return tuple(_text(v, values) for v in value)


def _elements(items: Iterable[Any], values: Mapping[str, Any]) -> tuple[Any, ...]:
    """A list's elements, each option-dependent element replaced by its chosen case's."""
    out: list[Any] = []
    for item in items:
        if isinstance(item, Mapping):
            out.extend(_elements(_case(item, values) or (), values))
        else:
            out.append(_text(item, values))
    return tuple(out)


def _table(data: Mapping[str, Any], values: Mapping[str, Any]) -> Table:
    return Table(
        _text(data["title"], values),
        tuple(data["columns"]),
        _elements(data["rows"], values),
        note=_text(data.get("note", ""), values),
        key=data["key"],
    )


def _section(data: Mapping[str, Any], values: Mapping[str, Any]) -> Section:
    return Section(
        _text(data["title"], values),
        tables=tuple(_table(t, values) for t in data.get("tables", ())),
        items=_elements(data.get("items", ()), values),
        key=data["key"],
        rule=data.get("rule", ""),
    )


def build(
    slug: str,
    data: Mapping[str, Any],
    options: Mapping[str, Any],
    army: Army | None,
    *,
    extras: tuple[str, ...],
    army_sections: Iterable[Section | None] = (),
) -> Sheet:
    """The sheet for these option values (every option given) and, when given, this army;
    ``army_sections`` are the edition's own army sections after its unit types and
    personalities."""
    check_extras(extras, {})
    values = {**options, "d": str(options.get("dice") or data["die"])}
    personalities = {k: _text(v, values) for k, v in data["personalities"].items()}
    return assemble_sheet(
        slug,
        data["title"],
        data["source"],
        settings=tuple((label, _text(value, values)) for label, value in data["settings"]),
        core=tuple(_section(s, values) for s in data["sections"]),
        army=army,
        army_sections=(
            variant_section(
                army,
                {k: _text(v, values) for k, v in data["variants"].items()},
                data["variants_title"],
            ),
            personality_section(army, personalities) if options["personalities"] else None,
            *army_sections,
        ),
        reference_title=data["reference_title"],
        extras=extras,
        offered={},
    )
