"""Server time of one htmx unit edit on 6-, 30- and 300-unit armies, against a floor.

Each case posts 200 edits through Django's test client (the whole request: middleware,
session, the army's fetch, the engine's parse and check of the entire army, the versioned
UPDATE, and rendering the unit's summary with the out-of-band totals and issues), after a
short warm-up. The floor is a view that returns "ok" through the same middleware.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

TITLE = "One htmx unit edit (200 edits per case)"
EDITS = 200
WARM_UP = 10
SIZES = (6, 30, 300)
HX = {"HX-Request": "true"}

UNITS = [
    {"name": "Town Militia", "quality": "levy"},
    {"name": "Knights", "quality": "fanatic", "density": "loose", "armour": "mailed",
     "mounted": True},
    {"name": "Combat Archers", "quality": "elite", "density": "loose", "armour": "protected",
     "training": "cross_trained", "missile_weapon": "foot_bow"},
]  # fmt: skip


def summarise(samples: list[float]) -> tuple[float, float]:
    ms = sorted(s * 1000 for s in samples)
    return statistics.median(ms), statistics.quantiles(ms, n=100, method="inclusive")[94]


def time_floor(client: Any) -> list[float]:
    samples = []
    for i in range(WARM_UP + EDITS):
        started = time.perf_counter()
        response = client.post("/bench/floor/", {"version": i})
        elapsed = time.perf_counter() - started
        assert response.status_code == 200
        if i >= WARM_UP:
            samples.append(elapsed)
    return samples


def time_edits(client: Any, army: Any) -> tuple[list[float], int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    index = len(army.document["units"]) // 2
    url = f"/armies/{army.pk}/units/{index}/"
    version = army.version
    samples = []
    queries = 0
    for i in range(WARM_UP + EDITS):
        data = {"version": version, "f.figures": str(10 + i % 2)}  # a real change every time
        if i == WARM_UP:
            with CaptureQueriesContext(connection) as captured:
                response = client.post(url, data, headers=HX)
            queries = len(captured.captured_queries)
        else:
            started = time.perf_counter()
            response = client.post(url, data, headers=HX)
            elapsed = time.perf_counter() - started
            if i > WARM_UP:
                samples.append(elapsed)
        assert response.status_code == 200, response.content[:500]
        version += 1
    return samples, queries


def run() -> dict[str, Any]:
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client, override_settings

    from armybuilder.armies import services

    user = User.objects.create_user("bench")  # force_login needs no password
    client = Client()
    client.force_login(user)
    rows = []
    with override_settings(ROOT_URLCONF="bench._urls", DEBUG=False):
        floor = summarise(time_floor(client))
        rows.append({"case": "floor: minimal view", "units": "", "median ms": floor[0],
                     "p95 ms": floor[1], "median / floor": 1.0, "queries": ""})  # fmt: skip
        for size in SIZES:
            units = [
                dict(UNITS[i % 3], name=f"{UNITS[i % 3]['name']} {i + 1}") for i in range(size)
            ]
            document = {"format": "muster.army/1", "name": f"Bench {size}",
                        "ruleset": "into-the-dark", "units": units}  # fmt: skip
            army = services.create_army(document, owner=user)
            samples, queries = time_edits(client, army)
            median, p95 = summarise(samples)
            rows.append({"case": "htmx unit edit", "units": size, "median ms": median,
                         "p95 ms": p95, "median / floor": median / floor[0],
                         "queries": queries})  # fmt: skip
    database = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[1]
    return {
        "title": TITLE,
        "rows": rows,
        "notes": [
            f"database: {database}; times through django.test.Client, in-process (no network)",
            "queries: SQL statements for one edit (session, user, army, army lists, UPDATE)",
        ],
    }
