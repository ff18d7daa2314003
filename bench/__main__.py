"""``make bench`` (``python -m bench [name ...]``): run every benchmark and print its table.

The runner sets Django up on a throwaway test database (created, loaded with the army
lists from ``fixtures/``, and destroyed afterwards: the development database is never
touched), then imports each ``bench/<name>.py`` that defines ``run()`` (modules whose
name starts with ``_`` are helpers) and prints what it returns.

Contract for a benchmark module::

    TITLE = "What this measures"            # optional
    def run() -> list[dict] | dict | None:   # rows with the same keys, in column order
        ...

``run()`` may use the ORM and ``django.test.Client`` freely. It returns the rows of one
table, or ``{"title": ..., "rows": [...], "notes": [...]}``, or None if it printed its
own report. Times are wall-clock milliseconds unless a column says otherwise.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def setup_django() -> Any:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")
    import django
    from django.conf import settings

    django.setup()
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    from django.test.utils import setup_databases

    old = setup_databases(verbosity=0, interactive=False)
    from armybuilder.catalog.services import load_lists

    load_lists()
    return old


def teardown_django(old: Any) -> None:
    from django.test.utils import teardown_databases

    teardown_databases(old, verbosity=0)


def modules(selected: list[str]) -> list[Any]:
    found = []
    for info in sorted(pkgutil.iter_modules([str(Path(__file__).parent)]), key=lambda i: i.name):
        if info.name.startswith("_") or (selected and info.name not in selected):
            continue
        module = importlib.import_module(f"bench.{info.name}")
        if callable(getattr(module, "run", None)):
            found.append(module)
    missing = set(selected) - {m.__name__.rsplit(".", 1)[1] for m in found}
    if missing:
        raise SystemExit(f"no benchmark named {', '.join(sorted(missing))}")
    return found


def cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    return "" if value is None else str(value)


def print_table(rows: list[dict[str, Any]], notes: list[str]) -> None:
    if rows:
        columns = list(rows[0])
        cells = [[cell(row.get(c)) for c in columns] for row in rows]
        widths = [max(len(c), *(len(r[i]) for r in cells)) for i, c in enumerate(columns)]
        print("  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)))
        print("  ".join("-" * w for w in widths))
        for r in cells:
            print(
                "  ".join(
                    v.rjust(w) if i else v.ljust(w)
                    for i, (v, w) in enumerate(zip(r, widths, strict=True))
                )
            )
    for note in notes:
        print(f"  {note}")


def main(argv: list[str]) -> None:
    """Run the named benchmarks (all without names) and print their tables."""
    old = setup_django()
    try:
        for module in modules(argv):
            name = module.__name__.rsplit(".", 1)[1]
            print(f"\n== {getattr(module, 'TITLE', name)} ==", flush=True)
            started = time.perf_counter()
            result = module.run()
            if isinstance(result, dict):
                print_table(list(result.get("rows", [])), list(result.get("notes", [])))
            elif result:
                print_table(list(result), [])
            print(f"  ({name}: {time.perf_counter() - started:.1f} s)")
    finally:
        teardown_django(old)


if __name__ == "__main__":
    main(sys.argv[1:])
