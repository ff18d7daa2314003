"""The page's engine and the server agree on "Try it": an author's own copy of every fixture
list, and random edits of them, tried by the page's engine (Pyodide under Node, the files
a page loads, with what the editor's page carries) give the trial the server draws after
making those edits itself: the same units, points, errors and warnings, word for word,
and the same edits left out as the server refuses them, in the server's words.

MUSTER_PARITY_LIST_EDITS sets how many random edit runs (``make soak`` may run more); the
run prints the counts."""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Any

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from armybuilder.catalog import list_operations, services
from armybuilder.catalog.list_page_controls import editor_context
from armybuilder.catalog.models import ArmyList
from rules.list_document import ListDocument
from tests.rules.page.list_edits import operation

pytestmark = pytest.mark.django_db

EDIT_RUNS = int(os.environ.get("MUSTER_PARITY_LIST_EDITS", "40"))
TARGET = "rules.page.lists:try_list"
SEEN: Counter[str] = Counter()


def public_lists() -> list[tuple[str, str]]:
    return sorted(
        ArmyList.objects.filter(author=None)
        .exclude(ruleset="dewitt-medieval")
        .values_list("ruleset", "slug")
    )


def own_copy(user: Any, ruleset: str, slug: str) -> ArmyList:
    public = ArmyList.objects.get(ruleset=ruleset, slug=slug, author=None)
    listed = ListDocument(ruleset, slug, public.name, public.period, "", public.data)
    return services.create_list(user, listed=listed).army_list


def page_of(army_list: ArmyList) -> dict[str, Any]:
    """What the editor's page carries for its engine, as a browser reads it back (JSON)."""
    army_list.refresh_from_db()
    ruleset = rules.get_ruleset(army_list.ruleset)
    context = editor_context(ruleset, ruleset.list_shape(), army_list, None, "")
    carried = {name: context[name] for name in ("engine_list", "engine_trial", "engine_lists")}
    return json.loads(json.dumps(carried, cls=DjangoJSONEncoder))


def on_device(node_engine, page: dict[str, Any], operations: list[dict[str, Any]]) -> dict:
    return node_engine.call(
        TARGET,
        document=page["engine_list"],
        lists=page["engine_lists"],
        lists_key=",".join(page["engine_lists"]),
        operations=operations,
    )


def test_every_fixture_list_is_tried_on_the_device_as_the_server_tries_it(node_engine, user):
    lists = public_lists()
    assert len(lists) >= 30
    for ruleset, slug in lists:
        page = page_of(own_copy(user, ruleset, slug))
        answer = on_device(node_engine, page, [])
        assert answer["trial"] == page["engine_trial"], (ruleset, slug)
        assert answer["left_out"] == [] and answer["waits"] == ""


def test_random_edits_are_tried_on_the_device_as_the_server_makes_and_tries_them(
    node_engine, user, capsys
):
    lists = public_lists()
    differences: list[str] = []

    @settings(
        max_examples=EDIT_RUNS,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(data=st.data())
    def compare(data):
        ruleset, slug = data.draw(st.sampled_from(lists))
        army_list = own_copy(user, ruleset, slug)
        page = page_of(army_list)
        saved = page["engine_list"]["data"]
        count = data.draw(st.integers(1, 4))
        operations = [operation(data.draw, ruleset, saved, f"k{n}") for n in range(count)]
        refused = {}
        shape = rules.get_ruleset(ruleset).list_shape()
        for raw in operations:
            change = list_operations.change_of(raw)
            outcome = list_operations.run(
                user, army_list, rules.get_ruleset(ruleset), shape, change
            )
            SEEN[outcome.status] += 1
            if outcome.status != list_operations.APPLIED:
                refused[raw["key"]] = outcome.message
        server = page_of(army_list)["engine_trial"]
        device = on_device(node_engine, page, operations)
        left_out = {out["key"]: out["why"] for out in device["left_out"]}
        SEEN["edit runs"] += 1
        if device["trial"] != server or left_out != refused:
            differences.append(
                f"{ruleset}/{slug} after {operations}: server {server} refused {refused}; "
                f"device {device['trial']} left out {device['left_out']}"
            )

    compare()
    with capsys.disabled():
        print(f"\nTry it, device vs server: {dict(SEEN)}, {len(differences)} differences")
    assert differences == []
    assert SEEN["applied"] and SEEN["refused"] + SEEN["gone"]
