"""Nothing a later request needs lives in one process: without Redis (the default `make
run`) the default cache is each process's own memory, which the worker and the other web
processes never see. A flyer kept there was made by the worker and never reached a page.

This reads every module of the web layer with ``ast`` and fails on a write to Django's
cache (``cache.set``/``add``/``set_many``/``get_or_set``/``incr``, or ``caches[...]``'s)
outside the few modules named below, each with why its writes are only a shortcut: what
it keeps is also kept in the database (or is a probe), so a miss in another process costs
time, never the result."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "armybuilder"
WRITES = {"set", "add", "set_many", "get_or_set", "incr", "decr", "touch"}

SHORTCUTS = {
    # rendered pages kept to answer again faster; a miss renders the page again
    "armybuilder/pages.py": "page cache",
    # the PDF cache in front of the Render rows, which hold every PDF
    "armybuilder/printing/services.py": "PDF cache",
    # /healthz writes and reads a probe key to say whether the cache answers
    "armybuilder/ops/health.py": "probe",
    # counters on the "ratelimit" cache, a database backend shared by every process
    "armybuilder/throttle.py": "counters (accounts.counters.CounterCache)",
    "armybuilder/accounts/lockout.py": "counters (accounts.counters.CounterCache)",
}


def _is_cache(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return node.id == "cache"
    if isinstance(node, ast.Subscript):  # caches["default"]
        return isinstance(node.value, ast.Name) and node.value.id == "caches"
    if isinstance(node, ast.Call):  # a helper returning the cache: _cache().set(...)
        return isinstance(node.func, ast.Name) and "cache" in node.func.id.lower()
    return False


def cache_writes(source: str) -> list[int]:
    """The lines of ``source`` that write to a Django cache."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in WRITES
            and _is_cache(node.func.value)
        ):
            found.append(node.lineno)
    return found


def test_the_finder_sees_a_write_to_the_cache_and_not_a_set_of_something_else():
    source = (
        "from django.core.cache import cache, caches\n"
        "cache.set('k', b'pdf', 60)\n"
        "caches['default'].add('q', 1)\n"
        "seen = set()\n"
        "seen.add(1)\n"
        "cache.get('k')\n"
    )
    assert cache_writes(source) == [2, 3]


def test_no_module_keeps_what_a_later_request_needs_in_a_processs_own_cache():
    offenders = []
    for path in sorted(WEB.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if "migrations" in path.parts or name in SHORTCUTS:
            continue
        offenders += [f"{name}:{line}" for line in cache_writes(path.read_text())]
    assert offenders == [], (
        "state a later request reads belongs in the database or the file storage, not the "
        f"per-process cache: {offenders}"
    )


def test_every_module_named_as_a_shortcut_still_writes_to_the_cache():
    stale = [name for name in SHORTCUTS if not cache_writes((ROOT / name).read_text())]
    assert stale == []
