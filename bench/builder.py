"""What opening the builder costs on 6-, 30- and 300-unit armies, and what the answers of
"add a unit" and of one field edit weigh.

Builder open: ``GET /armies/<pk>/`` as the player's browser asks for it (signed in, no
htmx), the whole request through django.test.Client (middleware, session, the army's fetch,
its check from this process's last check, the page drawn), OPENS times per size in turns
(each round in another order, so a busy machine slows each alike), after a short warm-up.
Its median is set against the floor, a view that returns "ok" through the same middleware.
KB is the HTML's size, uncompressed; queries the SQL statements of one open; cpu ms the
CPU time of one open (the server runs in this process: its own work, which a machine busy
with other jobs slows less than the wall-clock time).

Add a unit and a field edit are one operation each, posted to the operations endpoint as
the builder's client module sends them (``operate``); each answer's KB is the JSON the
browser receives, with the out-of-band HTML of what changed.
"""

from __future__ import annotations

import json
import statistics
import time
import uuid
from typing import Any

from bench.edits import HX, SIZES
from bench.edits import army_document as document

TITLE = "Builder open, add a unit, a field edit's answer"
OPENS = 20
ANSWERS = 5  # adds and field edits per size
WARM_UP = 3
GOAL_UNITS = 30
GOAL_MS = 50  # builder open for GOAL_UNITS units: server time
GOAL_KB = 150  # and its HTML


def kb(response: Any) -> float:
    return len(response.content) / 1024


def median_ms(samples: list[float]) -> float:
    return statistics.median(s * 1000 for s in samples)


def timed(call: Any) -> tuple[float, Any]:
    started = time.perf_counter()
    response = call()
    return time.perf_counter() - started, response


def cpu_timed(call: Any) -> tuple[float, float]:
    """Wall and CPU seconds of ``call``: the server runs in this process, so its CPU time
    is the request's own work, whatever else the machine is doing meanwhile."""
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return time.perf_counter() - wall, time.process_time() - cpu


def open_builder(client: Any, army: Any) -> Any:
    response = client.get(f"/armies/{army.pk}/")
    assert response.status_code == 200, response.status_code
    return response


# -- the two answers, through the endpoint this branch has for them ------------------------


def operate(client: Any, army: Any, operation: dict[str, Any]) -> Any:
    """One operation as the builder's client module sends it: JSON to the operations
    endpoint with a fresh one-time key, answered with out-of-band HTML of what changed."""
    army.refresh_from_db()
    body = {"operations": [{"key": uuid.uuid4().hex, "base_version": army.version, **operation}]}
    response = client.post(
        f"/armies/{army.pk}/operations/", json.dumps(body), "application/json", headers=HX
    )
    assert response.status_code == 200, response.content[:300]
    assert response.json()["results"][0]["status"] == "applied", response.content[:300]
    return response


def add_unit(client: Any, army: Any) -> Any:
    """ "Add unit": one ``add`` operation (the answer: the new card and the totals)."""
    return operate(client, army, {"op": "add", "field": "units", "value": {"preset": "blank"}})


def edit_field(client: Any, army: Any, figures: int) -> Any:
    """One field's save: a ``set`` of the middle unit's figures, made from its value."""
    army.refresh_from_db()
    unit = army.document["units"][len(army.document["units"]) // 2]
    return operate(
        client, army,
        {"op": "set", "target": unit["id"], "field": "figures", "value": figures,
         "from": unit["figures"]},
    )  # fmt: skip


def time_floor(client: Any) -> float:
    samples = []
    for i in range(WARM_UP + OPENS):
        elapsed, response = timed(lambda: client.get("/bench/floor/"))
        assert response.status_code == 200
        if i >= WARM_UP:
            samples.append(elapsed)
    return median_ms(samples)


def time_opens(
    client: Any, armies: dict[int, Any]
) -> tuple[dict[int, list[float]], dict[int, list[float]]]:
    """Wall and CPU seconds of each open, per size."""
    wall: dict[int, list[float]] = {size: [] for size in armies}
    cpu: dict[int, list[float]] = {size: [] for size in armies}
    order = list(armies)
    for _ in range(WARM_UP):
        for army in armies.values():
            open_builder(client, army)
    for n in range(OPENS):
        for size in order[n % len(order) :] + order[: n % len(order)]:
            elapsed, used = cpu_timed(lambda s=size: open_builder(client, armies[s]))
            wall[size].append(elapsed)
            cpu[size].append(used)
    return wall, cpu


def queries_of(call: Any) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        call()
    return len(captured.captured_queries)


def run() -> dict[str, Any]:
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client, override_settings

    from armybuilder.armies import services

    user, _ = User.objects.get_or_create(username="bench-builder")
    client = Client()
    client.force_login(user)
    rows = []
    with override_settings(ROOT_URLCONF="bench._urls", DEBUG=False):
        floor = time_floor(client)
        rows.append({"case": "floor: minimal view", "units": "", "median ms": floor,
                     "cpu ms": "", "/ floor": 1.0, "KB": "", "queries": ""})  # fmt: skip
        armies = {size: services.create_army(document(size), owner=user) for size in SIZES}
        sizes = {size: kb(open_builder(client, army)) for size, army in armies.items()}
        queries = {
            size: queries_of(lambda a=army: open_builder(client, a))
            for size, army in armies.items()
        }
        wall, cpu = time_opens(client, armies)
        for size, samples in wall.items():
            median = median_ms(samples)
            rows.append({"case": "builder open", "units": size, "median ms": median,
                         "cpu ms": median_ms(cpu[size]), "/ floor": median / floor,
                         "KB": sizes[size], "queries": queries[size]})  # fmt: skip
        for size in SIZES:
            # each add on an army of exactly ``size`` units (a fresh one each time)
            fresh = [services.create_army(document(size), owner=user) for _ in range(ANSWERS)]
            added = [timed(lambda a=a: add_unit(client, a)) for a in fresh]
            counted = queries_of(lambda a=fresh[0]: add_unit(client, a))
            median = median_ms([elapsed for elapsed, _ in added])
            rows.append({"case": "add a unit", "units": size, "median ms": median,
                         "cpu ms": "", "/ floor": median / floor,
                         "KB": statistics.median(kb(r) for _, r in added),
                         "queries": counted})  # fmt: skip
        for size, army in armies.items():
            edited = [
                timed(lambda a=army, i=i: edit_field(client, a, 12 + i % 2)) for i in range(ANSWERS)
            ]
            median = median_ms([elapsed for elapsed, _ in edited])
            rows.append({"case": "a field edit's answer", "units": size, "median ms": median,
                         "cpu ms": "", "/ floor": median / floor,
                         "KB": statistics.median(kb(r) for _, r in edited), "queries": ""})  # fmt: skip
    database = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[1]
    return {
        "title": TITLE,
        "rows": rows,
        "notes": [
            *goal(rows),
            "add a unit and a field edit: one operation each, POST /armies/<pk>/operations/ "
            "(htmx: the answer's out-of-band HTML of what changed)",
            f"database: {database}; times through django.test.Client, in-process (no network)",
        ],
    }


def goal(rows: list[dict[str, Any]]) -> list[str]:
    """The goal's line, beside the builder open of GOAL_UNITS units (when measured)."""
    found = [r for r in rows if r["case"] == "builder open" and r["units"] == GOAL_UNITS]
    if not found:
        return []
    row = found[0]
    met = row["median ms"] <= GOAL_MS and row["KB"] <= GOAL_KB
    return [
        f"goal, builder open for {GOAL_UNITS} units: <= {GOAL_MS} ms server time and "
        f"<= {GOAL_KB} KB of HTML; measured {row['median ms']:.0f} ms ({row['cpu ms']:.0f} ms "
        f"CPU), {row['KB']:.0f} KB: {'met' if met else 'not met'}"
    ]
