"""Reads of army lists that pages, the API and the CLI need, in one place."""

from collections.abc import Mapping
from typing import Any

from armybuilder.catalog.models import ArmyList


def list_lookup(ruleset: str) -> dict[str, Mapping[str, Any]]:
    """``{list slug: constraint data}`` for one rule set: the engine's ListLookup."""
    return dict(ArmyList.objects.filter(ruleset=ruleset).values_list("slug", "data"))


def lists_for(ruleset: str) -> list[ArmyList]:
    return list(ArmyList.objects.filter(ruleset=ruleset).order_by("name"))


def list_counts() -> dict[str, int]:
    counts: dict[str, int] = {}
    for ruleset in ArmyList.objects.values_list("ruleset", flat=True):
        counts[ruleset] = counts.get(ruleset, 0) + 1
    return counts


def get_list(ruleset: str, slug: str) -> ArmyList | None:
    return ArmyList.objects.filter(ruleset=ruleset, slug=slug).first()


def list_json(army_list: ArmyList) -> dict[str, Any]:
    return {
        "slug": army_list.slug,
        "name": army_list.name,
        "period": army_list.period,
        "source_note": army_list.source_note,
        "data": army_list.data,
    }
