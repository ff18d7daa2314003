"""POST <list>/operations/: the list editor's operations, on the same protocol as an army's:
one-time keys, the base version, per-field conflicts from the value the page drew,
a revision per change, undo; an item named by its id only."""

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.catalog.models import ArmyList, ArmyListRevision
from tests.web.catalog.list_items import item_id

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann():
    client = Client()
    client.force_login(User.objects.create_user("ann"))
    return client


@pytest.fixture
def made(ann):
    response = ann.post("/rulesets/into-the-dark/new-list/", {"name": "Saxon raiders"})
    assert response.status_code == 302
    return ArmyList.objects.get(name="Saxon raiders")


def send(client, made, *operations):
    url = f"/rulesets/{made.ruleset}/lists/{made.slug}/operations/"
    response = client.post(url, {"operations": list(operations)}, content_type="application/json")
    made.refresh_from_db()
    return response


def op(key, made, **fields):
    """A `set` of the list's first entry by default, drawn from the page at revision 1."""
    return {"key": key, "base_version": 1, "op": "set", "section": "entries",
            "target": item_id(made, "entries", "0"), **fields}  # fmt: skip


def statuses(response):
    assert response.status_code == 200, response.content[:300]
    return [r["status"] for r in response.json()["results"]]


def test_a_set_is_one_revision_and_its_key_is_applied_once(ann, made):
    change = op("k-1", made, field="name", value="Thegns", **{"from": "New entry"})
    first = send(ann, made, change)
    assert statuses(first) == ["applied"] and first.json()["version"] == 2
    assert made.data["entries"][0]["name"] == "Thegns" and made.latest_revision == 2
    # sent again (a reload, a lost answer): answered, never applied twice
    again = send(ann, made, change)
    assert statuses(again) == ["duplicate"] and again.json()["version"] == 2
    assert ArmyListRevision.objects.filter(army_list=made).count() == 2
    assert 'id="list-editor"' in again.json()["html"]


def test_two_tabs_setting_one_field_of_one_entry_get_a_conflict_never_an_overwrite(ann, made):
    tab_a = op("a-1", made, field="name", value="Thegns", **{"from": "New entry"})
    tab_b = op("b-1", made, field="name", value="Fyrd", **{"from": "New entry"})
    assert statuses(send(ann, made, tab_a)) == ["applied"]
    answer = send(ann, made, tab_b)
    assert statuses(answer) == ["conflict"]
    result = answer.json()["results"][0]
    assert result["theirs"] == "Thegns" and result["field"] == "name"
    assert "Name: changed elsewhere meanwhile (now “Thegns”)" in result["message"]
    assert made.data["entries"][0]["name"] == "Thegns" and made.latest_revision == 2
    # the player keeps theirs: the same value sent again, made from what they were shown
    keep = op("b-2", made, field="name", value="Fyrd", base_version=2, **{"from": "Thegns"})
    assert statuses(send(ann, made, keep)) == ["applied"]
    assert made.data["entries"][0]["name"] == "Fyrd"


def test_two_tabs_changing_different_fields_of_one_entry_both_land(ann, made):
    tab_a = op("a-1", made, field="name", value="Thegns", **{"from": "New entry"})
    tab_b = op("b-1", made, field="max", value="3", **{"from": "1"})
    assert statuses(send(ann, made, tab_a)) == ["applied"]
    assert statuses(send(ann, made, tab_b)) == ["applied"]
    entry = made.data["entries"][0]
    assert (entry["name"], entry["max"]) == ("Thegns", 3) and made.latest_revision == 3


def test_ticked_values_changed_in_another_tab_are_a_conflict_of_that_field(ann, made):
    elite = json.dumps("elite")
    tab_a = op("a-1", made, op="values", field="quality", value=[elite], **{"from": []})
    tab_b = op("b-1", made, op="values", field="quality", value=[json.dumps("levy")],
               **{"from": []})  # fmt: skip
    assert statuses(send(ann, made, tab_a)) == ["applied"]
    answer = send(ann, made, tab_b)
    assert statuses(answer) == ["conflict"] and answer.json()["results"][0]["theirs"] == [elite]
    assert made.data["entries"][0]["match"]["quality"] == ["elite"]


def test_an_entry_is_reached_by_its_id_after_the_one_before_it_was_removed(ann, made):
    assert statuses(send(ann, made, op("add", made, op="add", target=""))) == ["applied"]
    first, second = item_id(made, "entries", "0"), item_id(made, "entries", "1")
    removed = op("rm", made, op="remove", target=first)
    renamed = op("set", made, target=second, field="name", value="Fyrd", **{"from": "New entry"})
    assert statuses(send(ann, made, removed, renamed)) == ["applied", "applied"]
    assert [(e["id"], e["name"]) for e in made.data["entries"]] == [(second, "Fyrd")]
    gone = send(ann, made, op("late", made, target=first, field="name", value="Lost"))
    assert statuses(gone) == ["gone"]
    assert "no longer there" in gone.json()["results"][0]["message"]


def test_undo_and_redo_by_operation_walk_the_revisions(ann, made):
    send(ann, made, op("k-1", made, field="name", value="Thegns", **{"from": "New entry"}))
    assert statuses(send(ann, made, {"key": "u-1", "op": "undo"})) == ["applied"]
    assert made.data["entries"][0]["name"] == "New entry" and made.latest_revision == 3
    assert statuses(send(ann, made, {"key": "r-1", "op": "redo"})) == ["applied"]
    assert made.data["entries"][0]["name"] == "Thegns" and made.latest_revision == 4
    refused = send(ann, made, {"key": "r-2", "op": "redo"})
    assert statuses(refused) == ["refused"]
    assert refused.json()["results"][0]["message"] == "Nothing to redo: nothing was undone."


def test_a_change_the_rule_set_refuses_is_said_at_its_field_and_saves_nothing(ann, made):
    answer = send(ann, made, op("k-1", made, field="min", value="7", **{"from": "0"}))
    assert statuses(answer) == ["refused"]
    assert "Entry 1, At least" in answer.json()["results"][0]["message"]
    assert 'aria-invalid="true"' in answer.json()["html"] and made.latest_revision == 1


@pytest.mark.parametrize(
    ("operation", "said"),
    [
        ({"op": "set"}, "key: 1 to 64 letters, digits, '-' or '_'"),
        ({"key": "k", "op": "move"}, "op: one of set, values, add, remove, meta, undo, redo"),
        ({"key": "k\x00", "op": "set"}, "key: 1 to 64 letters, digits"),
        ({"key": "k", "op": "set", "base_version": "2"}, "base_version: a whole number, 0 or"),
        ({"key": "k", "op": "set", "colour": "red"}, "colour: unknown key; allowed: key, "),
        ({"key": "k", "op": "set", "target": 3}, "target: must be text"),
        ({"key": "k", "op": "set", "value": {"a": 1}}, "value: text, or a list of texts"),
        ({"key": "k", "op": "set", "index": "0"}, "index: items are named by their id"),
    ],
)
def test_an_operation_that_does_not_read_is_refused_naming_its_field(ann, made, operation, said):
    response = send(ann, made, operation)
    assert response.status_code == 400 and said in response.json()["error"]
    assert made.latest_revision == 1


def test_another_players_list_has_no_operations_to_take(made):
    bob = Client()
    bob.force_login(User.objects.create_user("bob"))
    assert send(bob, made, op("k-1", made, field="name", value="Mine")).status_code == 404
    assert send(Client(), made, op("k-2", made, field="name", value="Mine")).status_code == 404
    assert made.latest_revision == 1


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    operation=st.fixed_dictionaries(
        {
            "key": st.text(min_size=1, max_size=8),
            "op": st.sampled_from(["set", "values", "add", "remove", "meta", "undo", "redo"]),
            "section": st.sampled_from(["entries", "limits", "", "nope"]),
            "target": st.sampled_from(["", "nope", "i2345678"]),
            "field": st.sampled_from(["name", "min", "max", "quality", "nope", "period"]),
            "value": st.one_of(st.text(max_size=8), st.lists(st.text(max_size=6), max_size=3)),
        },
        optional={"from": st.one_of(st.none(), st.text(max_size=6)), "base_version": st.integers()},
    )
)
def test_any_operation_is_answered_or_refused_never_an_error(ann, made, operation):
    response = send(ann, made, operation)
    assert response.status_code in (200, 400)
    assert ArmyList.objects.get(pk=made.pk).full_clean() is None
