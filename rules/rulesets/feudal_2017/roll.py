"""Rolling a Feudal force: the d6 on the force matrix picks the row of the list to field."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from rules.document import parse_document
from rules.rulesets.feudal_2017.matrix import COLUMN_LABELS, COLUMNS, MATRIX, force_list, row_units
from rules.rulesets.feudal_2017.troops import TYPE_NAME

# the name of the built-in copy of the ``feudal`` list (fixtures/feudal-2017.json)
DEFAULT_LIST_NAME = "Feudal"


def rolled_force(
    slug: str,
    list_slug: str | None,
    data: Mapping[str, Any],
    seed: int,
    *,
    named: bool,
    list_name: str | None = None,
) -> dict[str, Any]:
    """The army document of a seeded roll on ``data`` (a valid list); ``named``: the document
    names ``list_slug`` (else it names no list, which means the default). The army is named
    after ``list_name``, else the built-in default list's name."""
    rng = random.Random(seed)
    roll = rng.randint(1, 6)
    force = force_list(data)
    slots = row_units(force, roll)
    totals = Counter(kind for _, kind in slots)
    seen: Counter[str] = Counter()
    units = []
    for _, kind in slots:
        seen[kind] += 1
        name = TYPE_NAME[kind]
        units.append({"name": f"{name} {seen[kind]}" if totals[kind] > 1 else name,
                      "type": kind})  # fmt: skip
    title = list_name or DEFAULT_LIST_NAME
    make_up = ", ".join(
        f"{COLUMN_LABELS[c]}: {n} {force.columns[c]}"
        for c, n in zip(COLUMNS, MATRIX[roll], strict=True)
        if n
    )
    notes = [f"Rolled {roll} on the force matrix (seed {seed}): {make_up}."]
    if data.get("extra_terrain"):
        notes.append(data["extra_terrain"])
    document = {
        "format": "muster.army/1",
        "name": f"{title} force (matrix roll {roll})",
        "ruleset": slug,
        "army_list": list_slug if named else None,
        "units": units,
        "notes": " ".join(notes),
    }
    lists = {list_slug: data} if list_slug is not None and named else {}
    army = parse_document(document, lambda _slug: lists)
    return army.to_document()
