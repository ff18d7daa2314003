"""A player's army list against a shipped one: checking a 30-unit army, and opening its
builder.

The shipped list is Muster's Viking list; the player's list is a copy of it (the same
constraints, so the check does the same work), saved as a player's private list, and the
army is pinned to it. Checking: ``rules.check_document`` with each army's own lookup
(``catalog.selectors.army_lookup``: one query, then the cached decoded data), repeated;
the ratio is the user list's median over the shipped list's. Builder open: the queries and
median time of GET /armies/<pk>/ for each army.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

TITLE = "Checking against a player's list vs a shipped list (30 units)"
ROUNDS = 200
OPENS = 30
UNITS = 30


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def run() -> dict[str, Any]:
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    import rules
    from armybuilder.armies import documents, services
    from armybuilder.catalog import services as catalog_services
    from armybuilder.catalog.models import ArmyList
    from armybuilder.catalog.selectors import army_lookup

    user = User.objects.create_user("bench-lists")
    shipped = ArmyList.objects.get(ruleset="into-the-dark", slug="viking")
    own = catalog_services.copy_list(user, army_list=shipped).army_list
    entries = rules.get_ruleset("into-the-dark").list_entries(shipped.data, None)
    units = [dict(entries[i % len(entries)].values, name=f"Unit {i}") for i in range(UNITS)]

    def made(slug: str) -> Any:
        doc = {
            "format": "muster.army/1",
            "ruleset": "into-the-dark",
            "name": f"Bench {slug}",
            "army_list": slug,
            "units": units,
        }
        return services.create_army(doc, owner=user)

    armies = {"shipped list": made(shipped.slug), "player's list": made(own.slug)}
    rows = []
    medians = {}
    for label, army in armies.items():
        lookup = army_lookup(army)
        samples = []
        for _ in range(ROUNDS):
            started = time.perf_counter()
            rules.check_document(army.document, lookup)
            samples.append(time.perf_counter() - started)
        client = Client()
        client.force_login(user)
        opens, queries = [], 0
        for _ in range(OPENS):
            documents.forget_checks()
            with CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                assert client.get(f"/armies/{army.pk}/").status_code == 200
                opens.append(time.perf_counter() - started)
            queries = len(captured)
        medians[label] = _median_ms(samples)
        rows.append(
            {
                "list": label,
                "pins": ", ".join(f"{s}@{n}" for s, n in army.list_pins.items()),
                "check median ms": medians[label],
                "builder open median ms": _median_ms(opens),
                "builder open queries": queries,
            }
        )
    ratio = medians["player's list"] / medians["shipped list"]
    return {
        "rows": rows,
        "notes": [f"ratio (player's list / shipped list, check median): {ratio:.2f}"],
    }
