"""In Chromium: the builder of a 30-unit army fetched and morphed into place (the page's
one redraw after any gap: another device's save, a reconnect, Undo, a roll).

A live server (this process, the bench's throwaway database) serves the builder; between
two redraws another writer changes one unit (its figures), so each morph has a real
difference to put in. The page's own clock times, for each redraw: parsing the fetched
page (the floor any redraw pays), then the morph of ``#builder`` (idiomorph, through the
page's own module ``static/js/changes/morph.js``; the open card's editor, fetched again
when its unit moved on, is not counted). Bytes: the page fetched, and the ``#builder``
part of it. Skipped when /usr/bin/chromium is missing.
"""

from __future__ import annotations

import os
import statistics
from typing import Any

from bench.browser import CHROMIUM, _server

TITLE = "In the browser: the builder fetched and morphed into place (30 units)"
SIZE = 30
REDRAWS = 15

# One redraw in the page: fetch, parse, morph; the page's clock, milliseconds.
REDRAW = """async () => {
  const url = performance.getEntriesByType("resource").map((e) => e.name)
    .find((name) => /\\/js\\/changes\\/morph(\\.[0-9a-f]+)?\\.js/.test(name));
  const morph = await import(url);
  const html = await (await fetch(location.pathname, { cache: "no-store" })).text();
  const started = performance.now();
  const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("builder");
  const parsed = performance.now();
  const done = morph.morphBuilder(document.importNode(fresh, true));
  const morphed = performance.now();
  await done;
  return { parse: parsed - started, morph: morphed - parsed,
           bytes: new TextEncoder().encode(html).length,
           builder: new TextEncoder().encode(fresh.outerHTML).length,
           version: document.getElementById("army-version").value };
}"""


def run() -> dict[str, Any] | None:
    if not CHROMIUM.exists():
        print("  skipped: Chromium is not installed at /usr/bin/chromium")
        return None
    from django.contrib.auth.models import User
    from django.test import Client
    from playwright.sync_api import expect, sync_playwright

    from armybuilder.armies import services
    from armybuilder.armies.changes import pipeline
    from armybuilder.armies.changes.commands import SetValue
    from bench.edits import UNITS

    user = User.objects.create_user("morpher")  # signed in by session cookie below
    units = [dict(UNITS[i % len(UNITS)], name=f"Unit {i}", figures=12) for i in range(SIZE)]
    document = {"format": "muster.army/1", "name": "Morphing", "ruleset": "into-the-dark",
                "units": units}  # fmt: skip
    army = services.create_army(document, owner=user)
    client = Client()
    client.force_login(user)
    server = _server()
    base = f"http://localhost:{server.port}"
    samples: list[dict[str, Any]] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
            # no service worker: its copies for offline (every card's editor) would be
            # fetched meanwhile, beside what is timed
            context = browser.new_context(service_workers="block")
            context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                                  "url": base}])  # fmt: skip
            page = context.new_page()
            page.goto(f"{base}/armies/{army.pk}/")
            opened = army.document["units"][0]["id"]
            page.locator(f"#unit-{opened} summary").click()  # a card the player has open
            expect(page.locator(f"#u-{opened}-name")).to_be_visible()
            busy = _requests_in_flight(page)
            for n in range(REDRAWS):
                while busy():  # the page's own fetches done: the database is this thread's
                    page.wait_for_timeout(20)
                _other_writer(army, pipeline, SetValue, n)
                sample = page.evaluate(REDRAW)
                assert sample["version"] == str(army.version), "the morph did not land"
                samples.append(sample)
            # the open card stayed open through every redraw
            expect(page.locator(f"#unit-{opened} details")).to_have_attribute("open", "")
            browser.close()
    finally:
        server.terminate()
    parse = statistics.median(s["parse"] for s in samples)
    morph = statistics.median(s["morph"] for s in samples)
    return {
        "rows": [
            {
                "case": f"parse the fetched page, {SIZE} units",
                "samples": len(samples),
                "median ms": parse,
                "max ms": max(s["parse"] for s in samples),
                "/ parse": 1.0,
                "KB": samples[-1]["bytes"] / 1024,
            },  # fmt: skip
            {
                "case": f"morph #builder into place, {SIZE} units",
                "samples": len(samples),
                "median ms": morph,
                "max ms": max(s["morph"] for s in samples),
                "/ parse": morph / parse if parse else None,
                "KB": samples[-1]["builder"] / 1024,
            },  # fmt: skip
        ],
        "notes": [
            "the page's clock; between two redraws another writer changed one unit's figures",
            "KB: the page fetched (parse row) and its #builder part (morph row)",
        ],
    }


def _requests_in_flight(page: Any) -> Any:
    """Whether the page has a request under way (the bench's server shares one database
    connection between its threads and this one: never both at once)."""
    flying: set[Any] = set()
    page.on("request", lambda request: flying.add(request))
    page.on("requestfinished", lambda request: flying.discard(request))
    page.on("requestfailed", lambda request: flying.discard(request))
    return lambda: bool(flying)


def _other_writer(army: Any, pipeline: Any, set_value: Any, n: int) -> None:
    """Another device's save: one unit's figures (Playwright's sync API keeps an event
    loop in this thread; Django would refuse the ORM here though nothing else runs in it)."""
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        army.refresh_from_db()
        unit = army.document["units"][n % SIZE]["id"]
        pipeline.run(army, set_value(unit, "figures", 10 + n % 2))
        army.refresh_from_db()
    finally:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
