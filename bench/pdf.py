"""PDF benchmark: roster and QRS render times beside WeasyPrint's own floor.

``make bench`` runs it with the other benchmarks (``python -m bench``); alone it runs as
``python -m bench.pdf``. It prints, for Into the Dark armies of 6, 30 and 300 units, the
median time to make each sheet without the cache (check + template + WeasyPrint, under
the same time limit the site uses), its page count and its multiple of the floor — a
one-line document through WeasyPrint — and then the time of a cached request.
Timings are measured, not asserted: the tests never depend on them.
"""

from __future__ import annotations

import io
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

SIZES = (6, 30, 300)
SHEETS = ("roster", "qrs")


def _setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")
    import django

    django.setup()


def _median_ms(action: Callable[[], Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def army_of(size: int) -> dict[str, Any]:
    """An Into the Dark army of ``size`` varied units in divisions under their generals."""
    kinds = [
        {"figures": 12, "quality": "levy", "density": "close", "armour": "unarmoured"},
        {"figures": 12, "quality": "fanatic", "density": "loose", "armour": "mailed",
         "mounted": True},
        {"figures": 12, "quality": "elite", "density": "loose", "armour": "protected",
         "training": "cross_trained", "missile_weapon": "foot_bow"},
        {"figures": 16, "quality": "average", "density": "close", "armour": "armoured",
         "shieldwall": True},
        {"figures": 8, "quality": "average", "density": "open", "armour": "unarmoured",
         "training": "missile", "missile_weapon": "javelin", "skirmishers": True},
    ]  # fmt: skip
    per = max(5, -(-size // 50))  # divisions of five, at most 50 generals
    generals = [
        {"name": f"General {g + 1}", "rating": "average", "commanding": g == 0}
        for g in range(max(1, -(-size // per)))
    ]
    units = [
        dict(kinds[i % len(kinds)], name=f"Unit {i + 1}", division=f"General {i // per + 1}")
        for i in range(size)
    ]
    return {
        "format": "muster.army/1",
        "name": f"Benchmark host of {size}",
        "ruleset": "into-the-dark",
        "options": {"command_and_control": True},
        "generals": generals,
        "units": units,
        "notes": "Benchmark army.",
    }


def twelve_different_units() -> dict[str, Any]:
    """Twelve Into the Dark units no two alike: twelve roster cards, none grouped."""
    document = army_of(12)
    for n, unit in enumerate(document["units"]):
        unit["name"] = f"Unit number {n + 1} of the host"
        unit["figures"] = 8 + n
    return document


def _pages(pdf: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)


def run(runs: int | None = None) -> dict[str, Any]:
    """Measure and print; returns the numbers for a runner that wants them."""
    import weasyprint
    from django.core.cache import caches

    from armybuilder.printing import services

    runs = runs or int(os.environ.get("MUSTER_BENCH_RUNS", "3"))
    floor_ms = _median_ms(lambda: weasyprint.HTML(string="<p>Muster</p>").write_pdf(), max(runs, 5))
    print(f"PDF sheets — WeasyPrint {weasyprint.__version__}, median of {runs} runs")
    print(f"  floor (a one-line document through WeasyPrint): {floor_ms:8.1f} ms")
    print(
        f"  {'sheet':<7}{'units':>6}{'pages':>7}{'uncached ms':>13}{'x floor':>9}{'cached ms':>11}"
    )
    results: dict[str, Any] = {"floor_ms": floor_ms, "sheets": []}
    for size in SIZES:
        document = army_of(size)
        for sheet in SHEETS:

            def uncached(document: dict[str, Any] = document, sheet: str = sheet) -> bytes:
                html = services.army_sheet_html(document, sheet=sheet, for_pdf=True)
                return services.render_pdf(html)

            pdf = uncached()
            ms = _median_ms(uncached, runs)
            key_pdf = services.army_sheet_pdf(document, sheet=sheet)  # fills the cache
            cached_ms = _median_ms(
                lambda d=document, s=sheet: services.army_sheet_pdf(d, sheet=s), 5
            )
            pages = _pages(pdf)
            print(
                f"  {sheet:<7}{size:>6}{pages:>7}{ms:>13.1f}{ms / floor_ms:>9.1f}{cached_ms:>11.2f}"
            )
            results["sheets"].append(
                {
                    "sheet": sheet,
                    "units": size,
                    "pages": pages,
                    "ms": ms,
                    "x_floor": ms / floor_ms,
                    "cached_ms": cached_ms,
                    "bytes": len(key_pdf.pdf),
                }
            )
    backend = type(caches["default"]).__name__
    print(f"  cached: a repeat request for the same army, sheet and paper ({backend})")
    different = twelve_different_units()
    for paper in ("a4", "letter"):
        pages = _pages(services.army_sheet_pdf(different, sheet="roster", paper=paper).pdf)
        print(f"  roster of 12 different units on {paper}: {pages} pages (goal: 2)")
        results[f"twelve_different_{paper}_pages"] = pages
    return results


if __name__ == "__main__":
    _setup_django()
    run()
