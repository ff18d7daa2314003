"""One combat worked out: ``POST /api/v1/hits`` (server time, through the test client) and
the engine alone, against the minimal-view floor of bench/_urls.py, with the SQL it runs."""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

TITLE = "Working out one combat (POST /api/v1/hits and the engine)"
WARM_UP, ROUNDS = 20, 200
COMBATS = {
    "feudal-2017 mêlée": {"ruleset": "feudal-2017", "phase": "melee",
                          "attacker": {"type": "knights"}, "target": {"type": "serjeants"},
                          "modifiers": ["uphill_or_obstacle", "flank"], "die": 5},
    "dark-ages-d5 melee": {"ruleset": "dark-ages-d5", "phase": "melee",
                           "attacker": {"type": "warriors"}, "target": {"type": "infantry"},
                           "modifiers": ["uphill", "rear"], "die": 4},
    "into-the-dark melee": {"ruleset": "into-the-dark", "phase": "melee",
                            "attacker": {"quality": "elite"}, "target": {"armour": "armoured"},
                            "modifiers": ["charging", "flank"], "numbers": {"figures": 24},
                            "dice": [1, 2, 3, 4, 5, 6] * 2},
}  # fmt: skip


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def _timed(call: Any) -> list[float]:
    samples = []
    for i in range(WARM_UP + ROUNDS):
        started = time.perf_counter()
        call()
        if i >= WARM_UP:
            samples.append(time.perf_counter() - started)
    return samples


def run() -> dict[str, Any]:
    from django.db import connection
    from django.test import Client, override_settings
    from django.test.utils import CaptureQueriesContext

    from rules.combat_request import work_out

    client = Client()
    rows = []
    with override_settings(ROOT_URLCONF="bench._urls", DEBUG=False):
        floor = _median_ms(_timed(lambda: client.post("/bench/floor/", {})))
        rows.append({"case": "floor: minimal view", "median ms": floor, "/ floor": 1.0,
                     "engine ms": "", "queries": ""})  # fmt: skip
        for label, combat in COMBATS.items():
            body = json.dumps(combat)

            def post(body: str = body) -> None:
                response = client.post("/api/v1/hits", body, content_type="application/json")
                assert response.status_code == 200, response.content

            with CaptureQueriesContext(connection) as captured:
                post()
            median = _median_ms(_timed(post))
            engine = _median_ms(_timed(lambda combat=combat: work_out(combat)))
            rows.append({"case": label, "median ms": median, "/ floor": median / floor,
                         "engine ms": engine, "queries": len(captured)})  # fmt: skip
    return {
        "title": TITLE,
        "rows": rows,
        "notes": ["times through django.test.Client, in-process; engine ms: "
                  "rules.combat_request.work_out alone (parse, check, work out)"],
    }  # fmt: skip
