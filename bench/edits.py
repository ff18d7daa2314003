"""Server time of one htmx unit edit on 6-, 30- and 300-unit armies, against a floor.

Each case opens the builder page once, then posts 200 edits the way the browser sends
them (the three sizes in turns, so a busy machine slows each alike): one ``set``
operation as JSON to the operations endpoint (its one-time key, ``from`` the value the
change was made from, the page's ``base_version``, header HX-Request), a real change
every time (12 and 13 figures in turn). Each is the whole request: middleware, session,
the army's fetch, the check (from the army's last check when this process remembers
it), the versioned UPDATE and the revision, and the answer with the unit's summary and
the out-of-band totals and issues. A short warm-up comes first. The floor is a view that
returns "ok" through the same middleware. A 300-unit edit should cost at most 1.2x a
30-unit edit, in at most 11 statements: the re-check reads only the edited unit and the
army-wide checks, not every unit, and the one-time key is checked in the query that locks
the army's row and written to the ledger with the revision (``armybuilder.operations``).
"""

from __future__ import annotations

import json
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


def army_document(size: int) -> dict[str, Any]:
    """An Into the Dark army of ``size`` units, the three kinds above in turn."""
    units = [dict(UNITS[i % 3], name=f"{UNITS[i % 3]['name']} {i + 1}") for i in range(size)]
    return {"format": "muster.army/1", "name": f"Bench {size}", "ruleset": "into-the-dark",
            "units": units}  # fmt: skip


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


class Editor:
    """One army's page in the browser: posts its edits and keeps its version and value."""

    def __init__(self, client: Any, army: Any) -> None:
        self.client = client
        self.index = len(army.document["units"]) // 2
        self.unit = army.document["units"][self.index]["id"]  # a unit is named by its id
        self.url = f"/armies/{army.pk}/operations/"
        self.army = army.pk
        self.sent = 0
        self.cpu: list[float] = []  # the request's own CPU time of each edit (this thread)
        self.version = army.version
        self.current = army.document["units"][self.index]["figures"]
        page = client.get(f"/armies/{army.pk}/")  # the page, as a player opens it
        assert page.status_code == 200

    def edit(self) -> float:
        """One edit (a real change: 12 and 13 figures in turn); its time in seconds."""
        new = 13 if self.current == 12 else 12
        self.sent += 1
        operation = {"key": f"bench-{self.army}-{self.sent}", "army": self.army,
                     "base_version": self.version, "op": "set", "target": self.unit,
                     "field": "figures", "value": new, "from": self.current}  # fmt: skip
        body = json.dumps({"operations": [operation]})
        started, cpu = time.perf_counter(), time.thread_time()
        response = self.client.post(self.url, body, content_type="application/json", headers=HX)
        elapsed = time.perf_counter() - started
        self.cpu.append(time.thread_time() - cpu)
        assert response.status_code == 200, response.content[:500]
        result = response.json()["results"][0]
        assert result["status"] == "applied", result
        assert result["value"] == new, result
        self.version += 1
        self.current = new
        return elapsed

    def queries(self) -> int:
        """The SQL statements of one edit made while the player is editing (the one before
        it queued the army's prerender; see the notes)."""
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        self.edit()
        with CaptureQueriesContext(connection) as captured:
            self.edit()
        return len(captured.captured_queries)


def time_edits(editors: dict[int, Editor]) -> dict[int, list[float]]:
    """EDITS edits per army, taken in turns (each round in another order), so a machine
    busy with something else slows every size alike rather than whichever ran then."""
    samples: dict[int, list[float]] = {size: [] for size in editors}
    order = list(editors)
    for _ in range(WARM_UP):
        for editor in editors.values():
            editor.edit()
    for n in range(EDITS):
        for size in order[n % len(order) :] + order[: n % len(order)]:
            samples[size].append(editors[size].edit())
    return samples


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
                     "p95 ms": floor[1], "cpu ms": None, "median / floor": 1.0,
                     "queries": ""})  # fmt: skip
        editors = {}
        for size in SIZES:
            made = services.create_army(army_document(size), owner=user)
            editors[size] = Editor(client, made)
        queries = {size: editor.queries() for size, editor in editors.items()}
        for size, samples in time_edits(editors).items():
            median, p95 = summarise(samples)
            cpu = statistics.median(editors[size].cpu[-len(samples) :]) * 1000
            rows.append({"case": "htmx unit edit", "units": size, "median ms": median,
                         "p95 ms": p95, "cpu ms": cpu, "median / floor": median / floor[0],
                         "queries": queries[size]})  # fmt: skip
    database = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[1]
    medians = {row["units"]: row["median ms"] for row in rows if row["units"]}
    cpus = {row["units"]: row["cpu ms"] for row in rows if row["units"]}
    return {
        "title": TITLE,
        "rows": rows,
        "notes": [
            f"300/30 units: {medians[300] / medians[30]:.2f}x (goal at most 1.2x; in the "
            f"request's own CPU time, which other jobs on a busy machine disturb less: "
            f"{cpus[300] / cpus[30]:.2f}x)",
            f"database: {database}; times through django.test.Client, in-process (no network)",
            "queries: SQL statements for one edit (session, user, the rate limit's count, "
            "the army, BEGIN, the army's row locked with whether the operation's one-time "
            "key was applied, army lists, UPDATE, the revision, the key in the ledger, "
            "COMMIT); goal: at most 11 and 300/30 at most 1.2x",
            "the first edit after the army was still for MUSTER_PRERENDER_DELAY seconds "
            "also queues its prerender (one INSERT more); the edits after it in the burst "
            "leave that task to follow the army",
        ],
    }
