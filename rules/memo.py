"""Per-unit memos keyed by content: an edit re-checks a 300-unit army, but only the changed
unit is parsed and costed again.

Two bounded, thread-safe LRU memos:

- ``parsed_unit``: a raw unit object -> the rule set's parsed and normalised unit, keyed by
  the rule set, the army's options and the raw unit's canonical JSON. Only successes are
  kept (a failure re-runs, so its message names the right path).
- ``unit_results``: a normalised unit -> its cost and stat line, keyed by the rule set, the
  army apart from its units (options, list, generals, limit) and the unit's canonical JSON.
  A rule set's ``cost_unit`` and ``stats`` read the unit and that context, never the other
  units; ``check_unit`` (which may compare units) is not memoised.

Callers get copies of units and stat lines (``Cost`` is frozen), so nothing shared can be
changed through a result.
"""

from __future__ import annotations

import copy
import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

T = TypeVar("T")
MAX_ENTRIES = 20_000


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def unit_key(unit: Mapping[str, Any]) -> Any:
    """A cheap, exact key of a unit object: its items with each value's type as a frozenset
    (so 1, 1.0 and True stay apart: the strict parser treats them differently), or their
    repr when a value is a list or an object."""
    try:
        return ("set", frozenset((k, type(v), v) for k, v in unit.items()))
    except TypeError:  # an unhashable value (a list or an object)
        return ("repr", repr(sorted(unit.items())))


def digest(value: Any) -> str:
    return hashlib.blake2b(canonical(value).encode(), digest_size=16).hexdigest()


class _Memo:
    def __init__(self, size: int = MAX_ENTRIES) -> None:
        self._data: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def get_or_make(self, key: tuple[Any, ...], make: Callable[[], T]) -> T:
        with self._lock:
            found = self._data.get(key)
            if found is not None:
                self._data.move_to_end(key)
                return found
        value = make()
        with self._lock:
            self._data[key] = value
            if len(self._data) > self._size:
                self._data.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._data.clear()


_PARSED = _Memo()
_RESULTS = _Memo()


def _copy(unit: Mapping[str, Any]) -> dict[str, Any]:
    if any(isinstance(v, (dict, list)) for v in unit.values()):
        return copy.deepcopy(dict(unit))
    return dict(unit)


def parsed_unit(
    slug: str, options_key: str, raw: Any, make: Callable[[], Mapping[str, Any]]
) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        return dict(make())  # the parser's own message for a non-object
    if not all(isinstance(k, str) for k in raw):
        return dict(make())
    unit = _PARSED.get_or_make((slug, options_key, unit_key(raw)), lambda: _copy(make()))
    return _copy(unit)


def unit_results(
    slug: str, context_key: str, unit: Mapping[str, Any], make: Callable[[], tuple[Any, Any]]
) -> tuple[Any, dict[str, Any]]:
    cost, stats = _RESULTS.get_or_make((slug, context_key, unit_key(unit)), make)
    return cost, dict(stats) if stats else {}  # Cost is frozen; readers copy the stat line


def clear() -> None:
    _PARSED.clear()
    _RESULTS.clear()
