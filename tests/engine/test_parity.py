"""The browser's engine and the server agree: random armies of every rule set, checked by
the page's engine (Pyodide under Node, the files a page loads) and by the server's JSON API,
give the same report — points, legality, every problem's words, every stat line — and
documents the parser refuses are refused in the same words at the same place.

MUSTER_PARITY_ARMIES sets how many armies (``make soak`` runs the full set); the run prints
the counts."""

from __future__ import annotations

import json
import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.catalog.selectors import document_lookup, list_lookup
from rules.page.check import lists_json
from tests.engine.armies import armies

pytestmark = pytest.mark.django_db

ARMIES = int(os.environ.get("MUSTER_PARITY_ARMIES", "400"))  # make soak-engine: 2000
SEEN: Counter[str] = Counter()


def public_lists() -> dict[str, dict[str, dict]]:
    import rules

    return {
        ruleset.slug: dict(list_lookup(ruleset.slug))
        for ruleset in rules.all_rulesets()
        if list_lookup(ruleset.slug)
    }


def pages_lists(document) -> dict:
    """What a page carries for ``document``: its rule set's lists at its revisions."""
    if not isinstance(document, dict) or not isinstance(document.get("ruleset"), str):
        return {}
    slug = document["ruleset"]
    return {slug: lists_json(document_lookup(document)(slug))}


@pytest.fixture(scope="module")
def lists(django_db_blocker):
    with django_db_blocker.unblock():
        return public_lists()


def test_the_browsers_engine_checks_random_armies_exactly_as_the_server(
    node_engine, client, lists, capsys
):
    differences: list[str] = []

    @settings(
        max_examples=ARMIES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(document=st.data())
    def compare(document):
        army = document.draw(armies(lists))
        answer = client.post("/api/v1/check", json.dumps(army), content_type="application/json")
        assert answer.status_code in (200, 400), answer.content
        server = answer.json()
        browser = node_engine.call(
            "rules.page.check:report", document=army, lists=pages_lists(army)
        )
        if answer.status_code == 400:
            browser = browser.get("malformed", browser)
            SEEN["refused"] += 1
        else:
            SEEN["legal" if server["valid"] else "not legal"] += 1
            SEEN["problems"] += len(server["issues"])
            SEEN["units"] += len(server["units"])
        SEEN[army["ruleset"]] += 1
        if browser != server:
            differences.append(json.dumps({"army": army, "server": server, "browser": browser}))
        assert browser == server

    compare()
    with capsys.disabled():
        counts = ", ".join(f"{n} {what}" for what, n in sorted(SEEN.items()))
        print(f"\nengine parity: {ARMIES} armies, {len(differences)} differences ({counts})")
    assert not differences
    for slug in lists:
        assert SEEN[slug] > 0, f"no army of {slug} was checked"
    assert SEEN["not legal"] and SEEN["legal"] and SEEN["refused"]
