"""Reads of army lists that pages, the API and the CLI need, in one place."""

from collections.abc import Mapping
from typing import Any

from django.db.models import Count

from armybuilder.catalog.models import ArmyList


def list_lookup(ruleset: str) -> dict[str, Mapping[str, Any]]:
    """``{list slug: constraint data}`` for one rule set: the engine's ListLookup."""
    return dict(ArmyList.objects.filter(ruleset=ruleset).values_list("slug", "data"))


def lists_for(ruleset: str) -> list[ArmyList]:
    return list(ArmyList.objects.filter(ruleset=ruleset).order_by("name"))


def list_counts() -> dict[str, int]:
    """How many army lists each rule set has (one grouped query)."""
    rows = ArmyList.objects.order_by().values("ruleset").annotate(n=Count("pk"))
    return {row["ruleset"]: row["n"] for row in rows}


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
