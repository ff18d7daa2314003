"""In Chromium: keystroke to points on screen, and Print click to PDF in hand (30 units).

A live server (this process, the bench's throwaway database) serves the builder; Debian's
Chromium types a new figure count into one unit, one digit at a time, and the page itself
times each keystroke to the moment the army's total on screen changes (a MutationObserver,
so no polling from here adds to it). Goal: a median of at most 200 ms.

Then Print on the builder's print panel, timed from the click to the browser's download:
once straight after an edit (the roster is rendered on demand, here inside the request),
then PRINTS times with the army still for STILL seconds after an edit of its own. During
that wait this process does the worker's part: it runs the prerender the edit queued
(``printing.prerender``) once its delay is up, as ``muster_worker`` would. Goal for the
still army: a median of at most 300 ms. Skipped when /usr/bin/chromium is missing.
"""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path
from typing import Any

TITLE = "In the browser: keystroke to points, Print to PDF (30 units)"
PRINTS = 5
STILL = 5.0  # seconds the army is left alone before Print
IMMEDIATE = "django.tasks.backends.immediate.ImmediateBackend"
HELD = "bench._queue.HeldBackend"
CHROMIUM = Path("/usr/bin/chromium")
SIZE = 30
KEYSTROKES = 20

# Installed in the page: the time from each keydown to the next change of #total-points.
TIMER = """() => {
  window.__typing = [];
  let pressed = null;
  document.addEventListener("keydown", () => { pressed = performance.now(); }, true);
  new MutationObserver(() => {
    const total = document.getElementById("total-points");
    if (!total || total.textContent === window.__lastTotal) { return; }
    window.__lastTotal = total.textContent;
    if (pressed !== null) { window.__typing.push(performance.now() - pressed); }
    pressed = null;
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
  window.__lastTotal = document.getElementById("total-points").textContent;
}"""


def _server() -> Any:
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.db import connections
    from django.test.testcases import LiveServerThread

    shared = {}
    for conn in connections.all():
        if conn.vendor == "sqlite" and conn.is_in_memory_db():
            conn.inc_thread_sharing()
            shared[conn.alias] = conn
    server = LiveServerThread("localhost", StaticFilesHandler, shared, port=0)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    return server


def run() -> dict[str, Any] | None:
    if not CHROMIUM.exists():
        print("  skipped: Chromium is not installed at /usr/bin/chromium")
        return None
    from django.contrib.auth.models import User
    from django.test import Client, override_settings
    from playwright.sync_api import expect, sync_playwright

    from armybuilder.armies import services
    from bench.edits import UNITS

    user = User.objects.create_user("typist")  # signed in by session cookie below
    units = [dict(UNITS[i % len(UNITS)], name=f"Unit {i}", figures=12) for i in range(SIZE)]
    document = {"format": "muster.army/1", "name": "Typing", "ruleset": "into-the-dark",
                "units": units}  # fmt: skip
    army = services.create_army(document, owner=user)
    client = Client()
    client.force_login(user)
    server = _server()
    base = f"http://localhost:{server.port}"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
            context = browser.new_context()
            context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                                  "url": base}])  # fmt: skip
            page = context.new_page()
            page.goto(f"{base}/armies/{army.pk}/")
            index = SIZE // 2
            unit = army.document["units"][index]["id"]  # a unit is named by its id
            page.locator(f"#unit-{unit} summary").click()
            box = page.locator(f"#u-{unit}-figures")
            expect(box).to_be_visible()
            page.evaluate(TIMER)
            wrap = page.locator(f"#u-{unit}-figures-wrap")
            for n in range(KEYSTROKES):
                box.fill("1")  # one digit left: the next keystroke makes 12 or 13
                expect(wrap).to_have_attribute("data-state", "saved", timeout=10_000)
                box.press("3" if n % 2 else "2")
                expect(wrap).to_have_attribute("data-state", "saved", timeout=10_000)
            samples = page.evaluate("window.__typing")
            # just edited: rendered on demand, in the request (no worker process here)
            with override_settings(TASKS={"default": {"BACKEND": IMMEDIATE}}):
                _rename(page, unit, "Just edited")
                edited = _print(page)
            still = []
            with override_settings(TASKS={"default": {"BACKEND": HELD}}):
                for n in range(PRINTS):
                    _rename(page, unit, f"Still {n}")
                    _work_until(time.monotonic() + STILL)
                    still.append(_print(page))
            browser.close()
    finally:
        server.terminate()
    prints = [edited, *still]
    return {
        "rows": [
            {
                "case": f"keystroke to points, {SIZE} units",
                "samples": len(samples),
                "median ms": statistics.median(samples),
                "max ms": max(samples),
            },
            {
                "case": "Print to PDF, just edited",
                "samples": 1,
                "median ms": prints[0],
                "max ms": prints[0],
            },
            {
                "case": "Print to PDF, army still",
                "samples": len(still),
                "median ms": statistics.median(still),
                "max ms": max(still),
            },
        ],  # fmt: skip
        "notes": [
            "keystroke: goal median <= 200 ms (the page's own clock, keydown to new total)",
            "print: click on Print to the download starting (wall clock); just edited: "
            "rendered in the request; still: the army left alone "
            f"{STILL:g} s after an edit, its prerender run when due; goal median <= 300 ms",
        ],
    }


def _rename(page: Any, unit: str, name: str) -> None:
    """An edit of the open unit's name, until saved: a new version nobody printed yet."""
    from playwright.sync_api import expect

    box = page.locator(f"#u-{unit}-name")
    box.fill(name)
    box.press("Tab")
    wrap = page.locator(f"#u-{unit}-name-wrap")
    expect(wrap).to_have_attribute("data-state", "saved", timeout=10_000)


def _work_until(deadline: float) -> None:
    """The worker's part while the army is still: run each queued prerender when due."""
    from django.utils import timezone

    from bench._queue import HeldBackend

    # Playwright's sync API keeps an event loop in this thread: Django would refuse the ORM
    # here, though nothing else runs in it meanwhile (the documented escape)
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        while time.monotonic() < deadline:
            for result in HeldBackend.due(timezone.now()):
                result.task.call(*result.args, **result.kwargs)
            time.sleep(0.05)
    finally:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


def _print(page: Any) -> float:
    """Milliseconds from a click on Print (the roster, A4) to the download starting."""
    page.locator("#print-sheet").select_option("roster")
    started = time.perf_counter()
    with page.expect_download(timeout=60_000) as download:
        page.locator(".print-panel button[type=submit]").click()
    elapsed = (time.perf_counter() - started) * 1000
    download.value.cancel()
    page.locator("#print-status").evaluate("el => { el.textContent = ''; }")
    return elapsed
