"""Values as a player reads them in History: a choice by its label, a list by its name,
never the code or slug the document stores ("Allied from list North Welsh (Gwynedd) →
Picts", "Option Missile supply: Three shots → Out on a natural 5")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from armybuilder.catalog.selectors import PinnedArmy, army_lookup
from rules.fields import Field


def field_value(
    field: Field | None,
    value: Any,
    shown: Callable[[Any], str],
    list_name: Callable[[str], str] | None = None,
) -> str:
    """``value`` of ``field`` in words; ``list_name``: the field names an army list."""
    if value is None or value == "" or field is None:
        return shown(value)
    if list_name is not None:
        return list_name(str(value))
    if field.kind == "choice":
        return field.label_for(value)
    if field.kind == "multi" and isinstance(value, list):
        return ", ".join(field.label_for(v) for v in value) or shown(value)
    return shown(value)


def list_namer(army: PinnedArmy, ruleset: str) -> Callable[[str], str]:
    """The name of a list of ``ruleset`` as ``army`` reads it (its pinned revision's)."""
    names: dict[str, str] = {}

    def name(slug: str) -> str:
        if not names:
            names.update(getattr(army_lookup(army)(ruleset), "names", {}) or {})
        return names.get(slug) or "an army list no longer in Muster"

    return name
