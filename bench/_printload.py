"""Pages while PDFs render (bench/load.py): the share page timed at rest, then while three
clients print one roster after another through the worker, in the same run.

Each printer posts a 30-unit roster under a new name (so every request is a real render,
never the stored one), polls its status URL until the PDF is there, and starts the next.
The share page is driven by ``ab`` the same way both times; the p99 ratio is the number
docs/measurements.md quotes (goal: at most 2x). Measured, never asserted.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

PRINTERS = 3


def _post_and_wait(base: str, document: dict[str, Any], stop: threading.Event) -> bool:
    request = urllib.request.Request(  # noqa: S310 (loopback)
        base + "/api/v1/roster.pdf",
        data=json.dumps(document).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:  # noqa: S310
            body = response.read()
            if response.status == 200:
                return True
    except urllib.error.HTTPError:
        return False
    status_url = base + json.loads(body)["status_url"]
    while not stop.is_set():
        try:
            with urllib.request.urlopen(status_url, timeout=60) as response:  # noqa: S310
                if response.status == 200:
                    response.read()
                    return True
        except urllib.error.HTTPError:
            return False
        time.sleep(0.2)
    return False


def _printer(base: str, number: int, stop: threading.Event, done: list[int]) -> None:
    from bench.pdf import army_of

    count = 0
    while not stop.is_set():
        document = army_of(30)
        document["name"] = f"Printer {number} army {count}"
        count += 1
        if _post_and_wait(base, document, stop):
            done.append(number)


def while_printing(
    base: str,
    env: dict[str, str],
    root: Path,
    measure: Callable[[], dict[str, Any]],
) -> list[dict[str, Any]]:
    """Two rows: the share page at rest, and while ``PRINTERS`` clients print."""
    at_rest = measure()
    worker = subprocess.Popen(  # noqa: S603 (our own worker, as make run starts it)
        [sys.executable, "manage.py", "muster_worker"], cwd=root, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    stop = threading.Event()
    done: list[int] = []
    printers = [
        threading.Thread(target=_printer, args=(base, n, stop, done), daemon=True)
        for n in range(PRINTERS)
    ]
    try:
        for thread in printers:
            thread.start()
        time.sleep(3)  # the worker is busy before timing starts
        printing = measure()
    finally:
        stop.set()
        for thread in printers:
            thread.join(timeout=60)
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
    rows = []
    for name, result in (("at rest", at_rest), (f"while {PRINTERS} clients print", printing)):
        rows.append(
            {
                "case": f"share page, {name}",
                "req/s": result["rps"],
                "p50": result["p50"],
                "p99": result["p99"],
                "x static": None,
                "non-2xx": result["non2xx"],
                "failed": result["failed"],
                "done": result["complete"],
            }
        )
    rows[-1]["case"] += f" ({len(done)} PDFs)"
    return rows


def p99_ratio(rows: list[dict[str, Any]]) -> float | None:
    rest, busy = rows[-2]["p99"], rows[-1]["p99"]
    return busy / rest if rest and busy else None
