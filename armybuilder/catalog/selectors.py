"""Reads of army lists that pages, the API and the CLI need, in one place."""

import json
from collections.abc import Mapping
from typing import Any

from django.db.models import Count, TextField
from django.db.models.functions import Cast

from armybuilder.catalog.models import ArmyList

# ruleset -> (the lists' slugs and stored data text, their decoded {slug: data})
_DECODED: dict[str, tuple[tuple[tuple[str, str], ...], dict[str, Mapping[str, Any]]]] = {}


def list_lookup(ruleset: str) -> dict[str, Mapping[str, Any]]:
    """``{list slug: constraint data}`` for one rule set: the engine's ListLookup.

    One query, every call (another process, the admin or ``load-lists`` may have changed
    a list). The data is read as the stored JSON text and decoded only when that text
    differs from what this process decoded last for the rule set; otherwise the very same
    mapping is answered, so the engine sees at once (``is``) that an army's last check
    was made with the lists as they are (``rules.recheck_document``). Shared: read only.
    """
    rows = tuple(
        ArmyList.objects.filter(ruleset=ruleset).values_list(
            "slug", Cast("data", output_field=TextField())
        )
    )
    known = _DECODED.get(ruleset)
    if known is not None and known[0] == rows:
        return known[1]
    decoded = {slug: json.loads(text) for slug, text in rows}
    _DECODED[ruleset] = (rows, decoded)
    return decoded


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
