"""Each process remembers the last check of the armies it served.

An entry is the army's stored document with its ``rules.CheckState``, for the army's
``pk`` at one ``version`` and ``updated``. Every write of a document moves ``updated``
(``save_document`` sets both, the admin's save moves ``updated``), so an entry answers
only for the row as this process last read or wrote it: another process's save, an admin
edit or a restore all miss, and a miss is simply the full parse and check. The army lists
are not part of the key: ``rules.recheck_document`` asks for them on every check (one
query, ``catalog.selectors.army_lookup``: the lists the army's owner may build on, and the
revisions the army is pinned to) and checks whole when they are not the ones the entry was
made with, so reloaded lists or an accepted upgrade never meet an old result.

The remembered document is shared by the requests of this process: like every stored
document it is never changed in place (a change copies it: ``documents.working_copy``).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import rules
from armybuilder.armies.models import Army, readable_document
from armybuilder.catalog import services
from armybuilder.catalog.selectors import army_lookup

# Remembered per process, the least recently used going first: at most this many armies,
# and this many units in all (a 300-unit army's entry is about a megabyte).
MAX_ARMIES = 256
MAX_UNITS = 10_000


@dataclass(frozen=True)
class Remembered:
    version: int
    updated: datetime
    document: dict[str, Any]
    state: rules.CheckState


_ENTRIES: OrderedDict[int, Remembered] = OrderedDict()
_LOCK = threading.Lock()
_units = 0  # units of the remembered armies, together


def recall(army: Army) -> Remembered | None:
    """The entry for ``army`` as it is (same pk, version and updated), else None."""
    if army.pk is None:
        return None
    with _LOCK:
        found = _ENTRIES.get(army.pk)
        if found is None or found.version != army.version or found.updated != army.updated:
            return None
        _ENTRIES.move_to_end(army.pk)
        return found


def remember(army: Army, document: dict[str, Any], state: rules.CheckState) -> None:
    """Keep ``state``, the check of ``document``, which ``army`` now stores."""
    if army.pk is None or army.updated is None:
        return
    entry = Remembered(army.version, army.updated, document, state)
    global _units
    with _LOCK:
        old = _ENTRIES.pop(army.pk, None)
        _units -= _size(old)
        _ENTRIES[army.pk] = entry
        _units += _size(entry)
        while len(_ENTRIES) > 1 and (len(_ENTRIES) > MAX_ARMIES or _units > MAX_UNITS):
            _, gone = _ENTRIES.popitem(last=False)
            _units -= _size(gone)


def _size(entry: Remembered | None) -> int:
    return len(entry.state.army.units) if entry is not None else 0


def forget_all() -> None:
    global _units
    with _LOCK:
        _ENTRIES.clear()
        _units = 0


def check(army: Army, raw: Any) -> rules.CheckState:
    """The check of ``raw``, a document for ``army`` (its stored one, or a change of it):
    from the army's remembered check when ``raw`` replaces one unit of it at most."""
    lookup = army_lookup(army)  # the army's pinned revisions, not the lists' latest
    found = recall(army)
    if found is None:
        return services.check_state(raw, lookup)
    return services.recheck_document(raw, lookup, found.document, found.state)


def attach_document(army: Army, text: str | None) -> None:
    """Give an army read without its ``document`` (``selectors.army_to_change``) the
    document: the remembered one when this process has the row as it is, else ``text``
    (the stored JSON) decoded and kept to the text rule as ``models.DocumentField`` does."""
    found = recall(army)
    if found is not None:
        army.document = found.document
        return
    army.document = readable_document(json.loads(text) if text is not None else None)
