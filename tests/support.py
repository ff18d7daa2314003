"""Helpers the tests share: example documents (tests/data), army lists from fixtures."""

import copy
import json
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from rules.base import NamedLists

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
# Copied from the project's shared examples: the expected figures are facts from the sources.
EXAMPLES = DATA / "examples"
FIXTURES = ROOT / "fixtures"


def example(name: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


def expected() -> dict[str, Any]:
    return json.loads((EXAMPLES / "expected.json").read_text(encoding="utf-8"))


@cache
def _fixture_lists() -> dict[str, dict[str, Mapping[str, Any]]]:
    found: dict[str, dict[str, Mapping[str, Any]]] = {}
    for path in sorted(FIXTURES.glob("*.json")):
        for record in json.loads(path.read_text(encoding="utf-8")):
            fields = record["fields"]
            found.setdefault(fields["ruleset"], {})[fields["slug"]] = fields["data"]
    return found


@cache
def fixture_list_names() -> dict[str, dict[str, str]]:
    """{ruleset: {list slug: the list's name}} of fixtures/."""
    found: dict[str, dict[str, str]] = {}
    for path in sorted(FIXTURES.glob("*.json")):
        for record in json.loads(path.read_text(encoding="utf-8")):
            fields = record["fields"]
            found.setdefault(fields["ruleset"], {})[fields["slug"]] = fields["name"]
    return found


def fixture_lists(ruleset: str) -> NamedLists:
    """The engine's ListLookup over fixtures/ (with the lists' names, as the database's),
    for tests that need no database."""
    return NamedLists(
        copy.deepcopy(_fixture_lists().get(ruleset, {})), fixture_list_names().get(ruleset, {})
    )


def army(ruleset: str, units: list[dict[str, Any]], **top: Any) -> dict[str, Any]:
    """A minimal muster.army/1 document."""
    doc: dict[str, Any] = {"format": "muster.army/1", "name": "Test army", "ruleset": ruleset}
    doc.update(top)
    doc["units"] = units
    return doc


# A player's Dewitt list (the source prints none) and two units that fit it.
DEWITT_LIST = {
    "entries": [
        {
            "key": "knights",
            "name": "Knights",
            "match": {"arm": ["cavalry"], "class": ["heavy"], "weapons": ["lance"]},
            "min": 1,
            "max": 2,
            "min_stands": 2,
            "max_stands": 3,
        },
        {
            "key": "archers",
            "name": "Archers",
            "match": {"arm": ["foot"], "weapons": ["longbow", "bow"]},
            "min": 0,
            "max": 4,
        },
    ]
}
DEWITT_KNIGHT = {
    "name": "Knights",
    "arm": "cavalry",
    "class": "heavy",
    "weapons": ["lance"],
    "stands": 2,
}
DEWITT_ARCHER = {
    "name": "Bows",
    "arm": "foot",
    "class": "light",
    "weapons": ["longbow"],
    "stands": 6,
}


def shared_army(raw: Any, **kwargs: Any) -> Any:
    """A new army that its owner then shares by link (new armies are private)."""
    from armybuilder.armies import services

    created = services.create_army(raw, **kwargs)
    services.regenerate_share_token(created)
    return created


def item_id(saved: Any, index: int, kind: str = "units") -> str:
    """The stable id of the army's ``kind[index]`` as stored now (``saved``: an Army row)."""
    document = type(saved).objects.filter(pk=saved.pk).values_list("document", flat=True).get()
    return document[kind][index]["id"]


def item_url(saved: Any, index: int, kind: str = "units", tail: str = "") -> str:
    """The builder address of the army's ``kind[index]``: by its id, never its place."""
    return f"/armies/{saved.pk}/{kind[:-1]}/{item_id(saved, index, kind)}/{tail}"


def control(saved: Any, index: int, field: str, kind: str = "units") -> str:
    """The element id of a unit's (or general's) control, e.g. ``u-k7qm2xze-figures``."""
    return f"{kind[0]}-{item_id(saved, index, kind)}-{field}"


def unit_id(page: Any, index: int, kind: str = "units") -> str:
    """In a browser test: the id of the card drawn ``index``-th in the builder's list (it
    waits for that card to be drawn)."""
    card = page.locator(f"#{kind[:-1]}-list > li.item").nth(index)
    return str(card.get_attribute("id")).split("-", 1)[1]


def builder_with_editors(client: Any, saved: Any) -> str:
    """The builder page of ``saved`` with every card's editor, as a player sees it with each
    card opened: the page, then the editor each card brings when opened (``data-editor``)."""
    page = client.get(f"/armies/{saved.pk}/").content.decode()
    editors = re.findall(r'data-editor="([^"]+)"', page)
    hx = {"HX-Request": "true"}
    return page + "".join(client.get(url, headers=hx).content.decode() for url in editors)


# In a browser test: resolves once the service worker controls the page and keeps a copy of
# it with every card's editor in place (static/js/sw.js keepEditors), or false after 20 s.
KEPT_WITH_EDITORS = """async () => {
  await navigator.serviceWorker.ready;
  const page = location.origin + location.pathname;
  for (let i = 0; i < 200; i++) {
    if (navigator.serviceWorker.controller) {
      for (const name of await caches.keys()) {
        if (!name.startsWith("muster-pages-")) { continue; }
        const kept = await (await caches.open(name)).match(page);
        if (kept && !(await kept.text()).includes("pending-editor")) { return true; }
      }
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  return false;
}"""


def kept_with_editors(page: Any) -> None:
    """In a browser test: until the worker keeps this army page with every card's editor,
    so that without a connection any card opens (and a reload has every control)."""
    assert page.evaluate(KEPT_WITH_EDITORS), "the page was not kept with its editors"


def query_shape(sql: str) -> str:
    """A query with its literal values (ids, keys, the clock's moments) blanked: two
    requests that ask the same questions of the database have the same shapes."""
    return re.sub(r"'[^']*'|\b\d+\b", "?", sql)


def query_shapes(client: Any, urls: list[str]) -> tuple[list[int], list[str]]:
    """What each URL answers ``client`` and the shapes of the queries it asked."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    statuses, shapes = [], []
    for url in urls:
        with CaptureQueriesContext(connection) as asked:
            statuses.append(client.get(url).status_code)
        shapes += [query_shape(str(q["sql"])) for q in asked]
    return statuses, shapes


def needs_database(vendor: str) -> None:
    """Skip a race test written for ``vendor``'s database when the suite runs on another."""
    import pytest
    from django.db import connection

    if connection.vendor != vendor:
        pytest.skip(f"this race runs on {vendor}; the other database has its own test")


def race_on_a_sqlite_file(tmp_path: Path, race: str) -> Any:
    """The JSON a race of ``tests/web/armies/race_edits_sqlite_file.py`` prints, run in a
    child process against a SQLite file in ``tmp_path`` (the test database is in memory,
    where SQLite's shared cache refuses a second writer at once instead of making it wait)."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    module = "tests.web.armies.race_edits_sqlite_file"
    done = subprocess.run(
        [sys.executable, "-m", module, str(tmp_path / "r.db"), race],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
