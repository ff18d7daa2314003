"""The rules engine in the page (armybuilder/pageengine.py, static/js/engine/): what it
costs to bring to a phone, how long it takes to be ready, and how quick it is once there.

- Bytes: the runtime's files and the rules archive, raw and as served compressed (gzip at
  level 9 here; WhiteNoise also serves brotli where a browser asks for it).
- Under Node (the same runtime and archive): time to ready, then the check of a 6-, 30- and
  300-unit Into the Dark army in the page's engine, against the floor of the same run (an
  engine call that does nothing: ``rules.page.status:ping``), and, where the builder's
  module offers it, the re-check of one edited unit.
- In Chromium (a live server of this process): time to ready on a cold cache (a new
  browser context) and a warm one (a second page of that context), by the page's clock
  (``MusterEngine.readyMs``: runtime, archive and import), and from navigation.

Goals (docs/measurements.md): nothing blocks the first page or the first tap (the engine
starts when the page is idle); the re-check of one unit at 30 units at most 5 ms median.
"""

from __future__ import annotations

import gzip
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

TITLE = "The engine in the page: bytes, time to ready, check and re-check"
ROOT = Path(__file__).resolve().parent.parent
SIZES = (6, 30, 300)
REPEATS = 30
CHROMIUM = Path("/usr/bin/chromium")


def _bytes_rows() -> list[dict[str, Any]]:
    from armybuilder.pageengine import build_archive
    from armybuilder.runtime_pin import RUNTIME_PREFIX

    runtime = ROOT / "vendor" / RUNTIME_PREFIX
    files = {
        name: (runtime / name).read_bytes()
        for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                     "pyodide-lock.json")
    }  # fmt: skip
    files["rules archive"] = build_archive(ROOT / "rules")
    rows = [
        {"what": name, "KB": len(data) / 1024, "KB gzip": len(gzip.compress(data, 9)) / 1024}
        for name, data in files.items()
    ]
    rows.append(
        {
            "what": "all a phone downloads once",
            "KB": sum(r["KB"] for r in rows),
            "KB gzip": sum(r["KB gzip"] for r in rows),
        }
    )
    return rows


def _army(size: int) -> dict[str, Any]:
    """The 6-, 30- or 300-unit Into the Dark army of the server's edit bench, with its
    units' ids as a saved army has them."""
    from bench.edits import army_document
    from rules.document import with_ids

    return with_ids(army_document(size))


def _ping(engine: Any) -> float:
    engine.call("rules.page.status:ping")
    return engine.last_ms


def _node_rows() -> tuple[list[dict[str, Any]], float]:
    from tests.engine.node import start_node_engine

    engine = start_node_engine()
    try:
        floor = statistics.median(_ping(engine) for _ in range(REPEATS))
        rows = []
        for size in SIZES:
            document = _army(size)
            samples = []
            for _ in range(REPEATS):
                engine.call("rules.page.check:report", document=document)
                samples.append(engine.last_ms)
            median = statistics.median(samples)
            rows.append(
                {
                    "case": f"whole check, {size} units",
                    "median ms": median,
                    "x floor": median / floor,
                }
            )
        rows.extend(_recheck_rows(engine, floor))
        return rows, engine.ready_ms
    finally:
        engine.close()


def _recheck_rows(engine: Any, floor_ms: float) -> list[dict[str, Any]]:
    """The builder's re-check of one edited unit in the engine (rules/page/builder.py, the
    page's own path: the saved document sent once, then one operation renaming a unit, a
    new name each time so no memo answers it), timed inside the engine."""
    rows = []
    for size in SIZES:
        document = _army(size)
        key = f"bench-{size}"
        target = document["units"][size // 2]["id"]
        engine.call("rules.page.builder:report", army=key, version=1, document=document,
                    lists={}, lists_key="none")  # fmt: skip
        samples = []
        for n in range(REPEATS):
            op = {"key": f"k{n}", "op": "set", "target": target, "field": "name",
                  "value": f"Renamed {n}"}  # fmt: skip
            engine.call("rules.page.builder:report", army=key, version=1, operations=[op],
                        lists_key="none")  # fmt: skip
            samples.append(engine.last_ms)
        median = statistics.median(samples)
        rows.append(
            {
                "case": f"re-check of one unit, {size} units (engine's own time)",
                "median ms": median,
                "x floor": median / floor_ms if floor_ms else None,
            }
        )
    return rows


@contextmanager
def _chromium_with_engine() -> Iterator[tuple[Any, str]]:
    """Chromium and a live server (this process) whose pages carry the engine."""
    from django.test import override_settings
    from playwright.sync_api import sync_playwright

    from bench.browser import _server

    with override_settings(MUSTER_PAGE_ENGINE=True):
        server = _server()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=str(CHROMIUM),
                    args=["--no-sandbox", "--disable-background-networking"],
                )
                try:
                    yield browser, f"http://localhost:{server.port}"
                finally:
                    browser.close()
        finally:
            server.terminate()


def _chromium_rows() -> list[dict[str, Any]]:
    if not CHROMIUM.exists():
        return [{"case": "Chromium: not installed", "ready ms (page)": None}]
    rows = []
    with _chromium_with_engine() as (browser, base):
        context = browser.new_context()
        for case in ("cold cache", "warm cache"):
            page = context.new_page()
            began = time.perf_counter()
            page.goto(base + "/")
            interactive = (time.perf_counter() - began) * 1000
            page.wait_for_function(
                "() => window.MusterEngine && (MusterEngine.start(),"
                " ['ready', 'failed'].includes(MusterEngine.status))",
                timeout=120_000,
            )
            rows.append(
                {
                    "case": f"Chromium, {case}",
                    "page loaded ms": interactive,
                    "ready ms (page)": page.evaluate("MusterEngine.readyMs"),
                    "ready ms (from navigation)": (time.perf_counter() - began) * 1000,
                    "status": page.evaluate("MusterEngine.status"),
                }
            )
            page.close()
    return rows


# Installed in the page: from each keydown to the next drawing of the engine's figures.
TAP_TIMER = """() => {
  window.__exact = [];
  let pressed = null;
  document.addEventListener("keydown", () => { pressed = performance.now(); }, true);
  document.addEventListener("muster:exact", () => {
    if (pressed !== null) { window.__exact.push(performance.now() - pressed); pressed = null; }
  });
}"""
TAPS = 20


def _tap_rows() -> list[dict[str, Any]]:
    """Keystroke to exact figures on screen, 30 units, by the page's clock: a figure count
    typed into one unit, one digit at a time, each timed from keydown to the engine's
    figures drawn (the page's "muster:exact" event), the server's answer not waited for."""
    if not CHROMIUM.exists():
        return []
    from django.contrib.auth.models import User
    from django.test import Client
    from playwright.sync_api import expect

    from armybuilder.armies import services

    user = User.objects.create_user("engine-tapper")
    army = services.create_army(_army(30), owner=user)
    client = Client()
    client.force_login(user)
    with _chromium_with_engine() as (browser, base):
        context = browser.new_context(viewport={"width": 390, "height": 844})
        context.add_cookies([{"name": "sessionid", "url": base,
                              "value": client.cookies["sessionid"].value}])  # fmt: skip
        page = context.new_page()
        page.goto(f"{base}/armies/{army.pk}/")
        page.wait_for_function(
            "() => window.MusterEngine && MusterEngine.status === 'ready'"
            " && document.documentElement.dataset.exactFigures !== undefined",
            timeout=120_000,
        )
        unit = army.document["units"][15]["id"]
        page.locator(f"#unit-{unit} summary").click()
        box = page.locator(f"#u-{unit}-figures")
        expect(box).to_be_visible()
        page.evaluate(TAP_TIMER)
        for n in range(TAPS):
            box.fill("1")
            page.wait_for_timeout(150)
            box.press("3" if n % 2 else "2")
            page.wait_for_function(f"() => window.__exact.length > {n}", timeout=10_000)
        samples = page.evaluate("window.__exact")
    return [
        {
            "case": "Chromium: keystroke to exact figures, 30 units (page clock)",
            "median ms": statistics.median(samples),
            "max ms": max(samples),
        }
    ]


def run() -> dict[str, Any]:
    from armybuilder.pageengine import runtime_available

    if not runtime_available():
        print("  skipped: the runtime is not vendored (make vendor)")
        return {"rows": []}
    rows: list[dict[str, Any]] = [dict(r, case=f"bytes: {r.pop('what')}") for r in _bytes_rows()]
    node, ready = _node_rows()
    rows.append({"case": "Node: time to ready", "median ms": ready})
    rows.extend(node)
    rows.extend(_chromium_rows())
    rows.extend(_tap_rows())
    columns: list[str] = ["case"]
    for row in rows:
        columns.extend(key for key in row if key not in columns)
    return {
        "rows": [{column: row.get(column) for column in columns} for row in rows],
        "notes": [
            "x floor: against an engine call that does nothing, measured in the same run",
            "goals: the engine starts when the page is idle (never before the first tap);"
            " re-check of one unit at 30 units <= 5 ms median; keystroke to exact figures"
            " <= 50 ms median",
        ],
    }
