"""The list editor's "Try it" as the page's engine works it out (``rules.page.lists``): the
list as the page holds it (the saved list and the operations not yet answered), applied
with the server's own change of a list, and tried with the one copy of "Try it"."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules.list_changes import Posted, apply
from rules.list_document import ListDocument
from rules.list_ids import with_ids
from rules.list_trial import try_list as try_document
from rules.page import lists
from rules.page.check import lists_json
from tests.rules.page.list_edits import operation
from tests.support import fixture_lists

ITD = "into-the-dark"
RULESETS = ("into-the-dark", "feudal-2017", "dark-ages-2015", "dark-ages-d5")


def page_list(ruleset: str, slug: str) -> dict[str, Any]:
    """A list as the editor's page carries it: saved (its items with ids), at a revision."""
    return {"ruleset": ruleset, "slug": slug, "name": fixture_lists(ruleset).names[slug],
            "period": "", "family": None, "version": 3,
            "data": with_ids(fixture_lists(ruleset)[slug])}  # fmt: skip


def payload(ruleset: str) -> dict[str, Any]:
    return {ruleset: lists_json(fixture_lists(ruleset))}


def tried(document: dict[str, Any], operations: list[dict[str, Any]] = ()) -> dict[str, Any]:
    return lists.try_list(
        document=copy.deepcopy(document),
        lists=payload(document["ruleset"]),
        lists_key=document["ruleset"],
        operations=list(operations),
    )


def on_server(document: dict[str, Any], data: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the server's "Try it" finds for the list with ``data``."""
    listed = ListDocument(document["ruleset"], document["slug"], document["name"], "", "",
                          data if data is not None else document["data"])  # fmt: skip
    return try_document(listed, fixture_lists).to_json()


def entry_op(document: dict[str, Any], n: int, field: str, value: str, key: str = "k1"):
    target = document["data"]["entries"][n]["id"]
    return {"key": key, "op": "set", "section": "entries", "target": target, "field": field,
            "value": value}  # fmt: skip


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_saved_list_is_tried_as_the_server_tries_it(ruleset):
    for slug in fixture_lists(ruleset):
        document = page_list(ruleset, slug)
        answer = tried(document)
        assert answer["trial"] == on_server(document), slug
        assert answer["problems"] == [] and answer["left_out"] == [] and answer["waits"] == ""
        assert answer["version"] == 3


def test_a_waiting_change_is_tried_with_the_list_it_makes():
    document = page_list(ITD, "swiss")
    before = tried(document)["trial"]
    change = entry_op(document, 0, "min", "6")  # six pikemen at least
    answer = tried(document, [change])
    made, _ = apply(document["data"], rules.get_ruleset(ITD).list_shape(),
                    Posted("set", "entries", change["target"], "min", "6"))  # fmt: skip
    assert answer["trial"] == on_server(document, made)
    assert answer["trial"] != before
    assert dict(answer["trial"]["units"])["Pikemen"] >= 6


def test_a_change_the_list_refuses_is_left_out_in_the_validators_words():
    document = page_list(ITD, "swiss")
    refused = entry_op(document, 0, "min", "9", key="too-many")  # more than its maximum, 8
    later = entry_op(document, 1, "min", "2", key="later")
    answer = tried(document, [refused, later])
    assert answer["left_out"] == [
        {"key": "too-many", "why": "Entry 1, At least: at most 8 is fewer than at least 9."}
    ]
    assert answer["trial"] == tried(document, [later])["trial"]


def test_a_change_naming_an_item_that_is_gone_is_left_out_as_the_server_says():
    document = page_list(ITD, "swiss")
    gone = {**entry_op(document, 0, "min", "3"), "target": "inotthere"}
    answer = tried(document, [gone])
    assert answer["left_out"] == [
        {"key": "k1", "why": "That entry is no longer there: reload the page."}
    ]
    assert answer["trial"] == tried(document)["trial"]


def test_undo_waits_for_the_server_and_the_changes_before_it_are_tried():
    document = page_list(ITD, "swiss")
    change = entry_op(document, 0, "min", "6")
    answer = tried(
        document, [change, {"key": "u", "op": "undo"}, entry_op(document, 1, "min", "3")]
    )
    assert answer["waits"] == "undo"
    assert answer["trial"] == tried(document, [change])["trial"]


def test_the_lists_name_is_changed_by_a_waiting_meta_change():
    document = page_list(ITD, "swiss")
    renamed = {"key": "m", "op": "meta", "field": "name", "value": "  Bernese  "}
    listed, left_out, waits = lists.with_operations(lists.listed_of(document), [renamed])
    assert (listed.name, left_out, waits) == ("Bernese", [], "")
    empty = {"key": "m2", "op": "meta", "field": "name", "value": " "}
    _, left_out, _ = lists.with_operations(lists.listed_of(document), [empty])
    assert left_out == [{"key": "m2", "why": "Name: a list needs a name."}]


def test_the_lists_are_sent_once_and_kept_by_their_key():
    document = page_list(ITD, "swiss")
    first = tried(document)
    again = lists.try_list(document=document, lists_key=ITD)
    assert again == first
    with pytest.raises(lists.UnknownLists):
        lists.try_list(document=document, lists_key="never-sent")


@settings(
    max_examples=60,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.data())
def test_random_waiting_changes_are_tried_as_the_list_they_make_one_at_a_time(data):
    ruleset = data.draw(st.sampled_from(RULESETS))
    slug = data.draw(st.sampled_from(sorted(fixture_lists(ruleset))))
    document = page_list(ruleset, slug)
    operations = [operation(data.draw, ruleset, document["data"], f"k{n}") for n in range(3)]
    answer = tried(document, operations)
    # the same changes made one by one, each answered alone, end at the same list
    current = document
    for made in operations:
        step = lists.with_operations(lists.listed_of(current), [made])[0]
        current = {**current, "name": step.name, "data": dict(step.data)}
    assert answer["trial"] == on_server(current)
