"""Races between builder tabs, run against a real database by
tests/web/armies/changes/test_saving_concurrency.py: in that process on PostgreSQL, and in a
child process on a SQLite file (race_edits_sqlite_file.py), since the in-memory SQLite
test database serialises its connections on its own and so cannot show a race.

Each tab is its own test client (its own session and database connection) in a thread.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from armybuilder.armies import services
from armybuilder.armies.models import Army
from tests.support import item_id
from tests.web.armies.sending import send

HX = {"HX-Request": "true"}
FIGURES = 12


def _army(user: User, units: int) -> Army:
    document = {
        "format": "muster.army/1",
        "name": "Raced",
        "ruleset": "into-the-dark",
        "units": [{"name": f"Unit {i}", "quality": "levy"} for i in range(units)],
    }
    return services.create_army(document, owner=user)


def _tab(user: User) -> Client:
    tab = Client()
    tab.force_login(user)
    return tab


def field_change(
    tab: Client, army: Army, index: int | str, value: int, made_from: Any, version: int = 1
) -> Any:
    """A figures change of the unit at ``index`` now, or of the unit with that id."""
    unit = index if isinstance(index, str) else item_id(army, index)
    return send(tab, army, "set", unit, "figures", value, made_from, version)


def undo_target(response: Any) -> str:
    """The revision the page's Undo button names after this answer."""
    found = re.search(
        r'name="revision" id="undo-revision" value="([^"]*)"', response.content.decode()
    )
    assert found, "the answer names no revision for Undo"
    return found.group(1)


def _threads(count: int, work: Callable[[int], Any]) -> list[Any]:
    barrier = threading.Barrier(count)

    def run(i: int) -> Any:
        barrier.wait()
        try:
            return work(i)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(run, range(count)))


def writers_on_different_units(user: User, writers: int = 20, edits: int = 10) -> dict[str, int]:
    """``writers`` tabs, each changing its own unit ``edits`` times, all at once, each from
    a page drawn at version 1. How many answers were 200, and how many edits were kept."""
    army = _army(user, writers)
    tabs = [_tab(user) for _ in range(writers)]

    def write(i: int) -> list[int]:
        statuses, value = [], FIGURES
        for step in range(edits):
            new = 20 + step
            statuses.append(field_change(tabs[i], army, i, new, value).status_code)
            value = new
        return statuses

    statuses = [s for one in _threads(writers, write) for s in one]
    army.refresh_from_db()
    last = 20 + edits - 1
    kept = sum(1 for u in army.document["units"] if u["figures"] == last)
    return {
        "saved": statuses.count(200),
        "refused": len(statuses) - statuses.count(200),
        "units_with_every_edit": kept,
        "version": army.version,
    }


def undo_against_another_tabs_edit(user: User, trials: int = 100) -> dict[str, int]:
    """Tab A changes unit 2 and then undoes it while tab B changes unit 3, at once.
    A loss is B's saved value gone afterwards (or A's undo not taking back A's change)."""
    tab_a, tab_b = _tab(user), _tab(user)
    losses = undone = 0
    for trial in range(trials):
        army = _army(user, 4)
        made = field_change(tab_a, army, 2, 30, FIGURES)
        assert made.status_code == 200, made.status_code
        revision = undo_target(made)
        theirs = 40 + trial % 50

        def race(i: int, army: Army = army, revision: str = revision, theirs: int = theirs) -> int:
            if i == 0:
                return tab_a.post(
                    f"/armies/{army.pk}/undo/", {"revision": revision}, headers=HX
                ).status_code
            return field_change(tab_b, army, 3, theirs, FIGURES).status_code

        undo_status, edit_status = _threads(2, race)
        army.refresh_from_db()
        units = army.document["units"]
        if edit_status != 200 or units[3]["figures"] != theirs:
            losses += 1
        if undo_status == 200 and units[2]["figures"] == FIGURES:
            undone += 1
    return {"trials": trials, "losses": losses, "undone": undone}
