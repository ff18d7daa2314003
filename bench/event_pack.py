"""Event pack benchmark: the pack of 24 approved submissions, uncached and cached.

Makes an event with 24 entrants, each with an approved Into the Dark army of 8 units,
then times ``events.pack.make_pack_pdf`` (what the worker runs) twice: with the PDF cache
emptied first (every roster rendered) and again (every roster taken from the cache, only
the cover rendered and the pages joined). Goal: cached at most 3 s. Measured, never
asserted.
"""

from __future__ import annotations

import io
import time
from datetime import timedelta
from typing import Any

TITLE = "Event pack: 24 approved rosters in one PDF"
ENTRANTS = 24


def _event() -> Any:
    from django.contrib.auth.models import User
    from django.utils import timezone

    from armybuilder.armies.making.lifecycle import create_army
    from armybuilder.catalog.models import ArmyList
    from armybuilder.events import services
    from armybuilder.events.models import Submission
    from rules.registry import get_ruleset

    organiser = User.objects.create_user("bench-organiser")
    now = timezone.now()
    viking = ArmyList.objects.get(ruleset="into-the-dark", slug="viking")
    event = services.save_event(
        organiser,
        fields={
            "name": "Bench muster",
            "date": (now + timedelta(days=30)).date(),
            "place": "Bench hall",
            "time_zone": "UTC",
            "ruleset": "into-the-dark",
            "points_limit": None,
            "restrictions": [],
            "deadline": now + timedelta(days=20),
            "reveal_at": now + timedelta(days=21),
        },
        lists=[(viking, viking.latest_revision)],
        co_organisers=[],
    )
    presets = get_ruleset("into-the-dark").unit_presets(viking.data)
    hird, bondi = presets[0][1], presets[1][1]
    for n in range(ENTRANTS):
        player = User.objects.create_user(f"bench-player-{n}")
        units = [dict(hird, name="Hirdmen"), *(dict(bondi, name=f"Bondi {i}") for i in range(7))]
        army = create_army(
            {
                "format": "muster.army/1",
                "name": f"Great Army {n + 1}",
                "ruleset": "into-the-dark",
                "army_list": "viking",
                "units": units,
            },
            owner=player,
        )
        services.submit(services.join(event, user=player), army=army, by=player)
    Submission.objects.filter(entrant__event=event).update(state=Submission.APPROVED)
    return event


def run() -> dict[str, Any]:
    from django.core.cache import cache
    from pypdf import PdfReader

    from armybuilder.events.pack import make_pack_pdf

    event = _event()
    cache.clear()
    rows = []
    for label in ("uncached", "cached"):
        start = time.perf_counter()
        pdf, reused = make_pack_pdf(event)
        seconds = time.perf_counter() - start
        rows.append(
            {
                "rosters": label,
                "submissions": ENTRANTS,
                "taken from cache": reused,
                "pages": len(PdfReader(io.BytesIO(pdf)).pages),
                "seconds": seconds,
            }
        )
    return {"title": TITLE, "rows": rows, "notes": ["goal: cached at most 3 s"]}


if __name__ == "__main__":
    from bench.__main__ import setup_django, teardown_django

    old = setup_django()
    try:
        for row in run()["rows"]:
            print(row)
    finally:
        teardown_django(old)
