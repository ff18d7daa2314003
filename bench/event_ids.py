"""Hidden and made-up submission ids: an entrant who may not see a submission asks for
it, and for an id that never existed, interleaved, 200 requests each, on the page, the
army file and the API. Prints each median, their ratio (goal: within 10%, i.e. between
0.90 and 1.10) and the queries each ran. Measured, never asserted (the test suite asserts
only that the queries are the same: tests/web/events/test_selectors_timing.py)."""

from __future__ import annotations

import statistics
import time
from datetime import timedelta
from typing import Any

TITLE = "Event submission ids: hidden vs made up (same path, same cost)"
REQUESTS = 200
ROUTES = ("events:submission", "events:submission_file", "api:event_army")


def _world() -> tuple[Any, Any, int]:
    from django.contrib.auth.models import User
    from django.test import Client
    from django.utils import timezone

    from armybuilder.armies.making.lifecycle import create_army
    from armybuilder.catalog.models import ArmyList
    from armybuilder.events import services
    from armybuilder.events.models import Submission
    from rules.registry import get_ruleset

    now = timezone.now()
    organiser = User.objects.create_user("ids-organiser")
    viking = ArmyList.objects.get(ruleset="into-the-dark", slug="viking")
    fields = {
        "name": "Ids bench", "date": (now + timedelta(days=30)).date(), "place": "Hall",
        "time_zone": "UTC", "ruleset": "into-the-dark", "points_limit": None,
        "restrictions": [], "deadline": now + timedelta(days=20),
        "reveal_at": now + timedelta(days=21),
    }  # fmt: skip
    event = services.save_event(
        organiser, fields=fields, lists=[(viking, viking.latest_revision)], co_organisers=[]
    )
    alice, bob = User.objects.create_user("ids-alice"), User.objects.create_user("ids-bob")
    preset = get_ruleset("into-the-dark").unit_presets(viking.data)[0][1]
    army = create_army(
        {"format": "muster.army/1", "name": "Hidden host", "ruleset": "into-the-dark",
         "army_list": "viking", "units": [dict(preset)]},
        owner=alice,
    )  # fmt: skip
    hidden = services.submit(services.join(event, user=alice), army=army, by=alice)
    services.join(event, user=bob)
    client = Client()
    client.force_login(bob)
    assert Submission.objects.filter(pk=hidden.pk).exists()
    return event, client, hidden.pk


def run() -> dict[str, Any]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    event, client, hidden = _world()
    made_up = hidden + 100_000
    rows = []
    for route in ROUTES:
        times: dict[int, list[float]] = {hidden: [], made_up: []}
        queries: dict[int, int] = {}
        for _ in range(REQUESTS):
            for number in (hidden, made_up):
                url = reverse(route, args=[event.code, number])
                with CaptureQueriesContext(connection) as seen:
                    start = time.perf_counter()
                    client.get(url)
                    times[number].append((time.perf_counter() - start) * 1000)
                queries[number] = len(seen)
        hidden_ms, made_up_ms = statistics.median(times[hidden]), statistics.median(times[made_up])
        rows.append(
            {
                "route": route,
                "hidden median ms": f"{hidden_ms:.2f}",
                "made-up median ms": f"{made_up_ms:.2f}",
                "ratio": f"{hidden_ms / made_up_ms:.3f}",
                "within 10%": "yes" if abs(hidden_ms / made_up_ms - 1) <= 0.10 else "no",
                "queries (hidden / made up)": f"{queries[hidden]} / {queries[made_up]}",
            }
        )
    return {"title": TITLE, "rows": rows, "notes": [f"{REQUESTS} requests each, interleaved"]}
