"""What the "Add unit" menu offers (``rules.unit_presets``, shared with the page's
engine), the list entry a preset key names (``list_entry``), read with the army's lists."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import rules
from armybuilder.armies.documents import ItemNotFound
from armybuilder.armies.models import Army
from armybuilder.catalog.selectors import army_lookup, get_list
from armybuilder.catalog.services import parse_document
from rules import unit_presets
from rules.base import EntryStatus, RuleSet
from rules.unit_presets import Preset, as_key, known, presets, unit_fields

__all__ = ["Preset", "as_key", "known", "presets", "unit_fields"]  # the engine's, shared


def list_data_of(army: Army, slug: Any) -> Mapping[str, Any] | None:
    if not slug:
        return None
    found = get_list(army.ruleset, slug=slug)
    return found.data if found else None


def parsed_army(army: Army) -> rules.Army | None:
    """The army as the engine reads it (None if it does not read: no army-aware entries)."""
    try:
        return parse_document(army.document, lookup=army_lookup(army))
    except rules.MalformedDocument:
        return None


def list_entry(
    ruleset: RuleSet,
    list_data: Mapping[str, Any] | None,
    parsed: rules.Army | None,
    preset_key: str,
) -> EntryStatus:
    """The list entry ``preset_key`` (``entry:<key>``) names, read with the army as it
    stands: allies from the other lists, a stand-in and the unit it would replace."""
    found = unit_presets.list_entry(ruleset, list_data, parsed, preset_key)
    if found is None:
        raise ItemNotFound(f"no preset {preset_key!r}")
    return found
