"""A list's history: undo and redo walk every revision back to the first, and the history
page says who changed what and when, with restore and compare."""

from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User
from django.test import Client

from armybuilder.catalog.list_history import Steps, steps
from armybuilder.catalog.models import ArmyList
from tests.web.catalog.list_items import by_id

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def revisions(*kinds: str) -> list[SimpleNamespace]:
    return [SimpleNamespace(number=n + 1, kind=kind) for n, kind in enumerate(kinds)]


def test_undo_steps_back_to_the_first_revision_and_redo_forward_again():
    assert steps(revisions("edit")) == Steps(undo=None, redo=None)
    assert steps(revisions("edit", "edit", "edit")).undo == 2
    after_two_undos = steps(revisions("edit", "edit", "edit", "undo", "undo"))
    assert (after_two_undos.undo, after_two_undos.redo) == (None, 2)
    redone = steps(revisions("edit", "edit", "edit", "undo", "undo", "redo"))
    assert (redone.undo, redone.redo) == (1, 3)


def test_a_change_after_an_undo_leaves_nothing_to_redo_and_a_restore_is_undone_like_a_change():
    assert steps(revisions("edit", "edit", "undo", "edit")).redo is None
    restored = steps(revisions("edit", "edit", "edit", "restore"))
    assert (restored.undo, restored.redo) == (3, None)


@pytest.fixture
def author():
    client = Client()
    client.force_login(User.objects.create_user("ann"))
    response = client.post("/rulesets/into-the-dark/new-list/", {"name": "Saxon raiders"})
    assert response.status_code == 302
    return client, ArmyList.objects.get(name="Saxon raiders")


def edit(client: Client, made: ArmyList, **data):
    url = f"/rulesets/into-the-dark/lists/{made.slug}/edit/"
    return client.post(url, by_id(made, data), headers=HX)


def test_undo_and_redo_in_the_editor_reach_the_list_as_first_written(author):
    client, made = author
    first = made.data
    edit(client, made, op="set", section="entries", index="0", field="name", value="Thegns")
    edit(client, made, op="set", section="entries", index="0", field="max", value="3")
    assert edit(client, made, op="undo").status_code == 200
    assert edit(client, made, op="undo").status_code == 200
    made.refresh_from_db()
    assert made.data == first and made.latest_revision == 5
    refused = edit(client, made, op="undo")
    assert refused.status_code == 400
    assert "Nothing to undo: this is the list as first written." in refused.content.decode()
    edit(client, made, op="redo")
    made.refresh_from_db()
    assert made.data["entries"][0]["name"] == "Thegns" and made.data["entries"][0]["max"] == 1


def test_the_history_says_who_changed_what_and_restores_and_compares(author):
    client, made = author
    edit(client, made, op="set", section="entries", index="0", field="name", value="Thegns")
    edit(client, made, op="set", section="entries", index="0", field="max", value="3")
    base = f"/rulesets/into-the-dark/lists/{made.slug}/history/"
    page = client.get(base).content.decode()
    assert page.count("<td>ann</td>") == 3
    assert "Name: New entry → Thegns" in page and "Units: at most 1 → at most 3" in page
    assert "entries" not in page.split("<h2>Revisions</h2>")[1]  # no keys, no paths
    restored = client.post(f"{base}1/restore/")
    assert restored.status_code == 302
    made.refresh_from_db()
    assert made.latest_revision == 4 and made.data["entries"][0]["name"] == "New entry"
    assert "Restored revision 1" in client.get(base).content.decode()
    compared = client.get(f"{base}compare/?a=3&b=now").content.decode()
    assert "Revision 3 → Now" in compared and "Name: Thegns → New entry" in compared
    assert client.get(f"{base}compare/?a=99&b=now").status_code == 400
    assert client.post(f"{base}99/restore/").status_code == 302
    made.refresh_from_db()
    assert made.latest_revision == 4


def test_nobody_else_reads_or_restores_the_history(author):
    client, made = author
    other = Client()
    other.force_login(User.objects.create_user("bob"))
    base = f"/rulesets/into-the-dark/lists/{made.slug}/history/"
    assert other.get(base).status_code == 404
    assert other.post(f"{base}1/restore/").status_code == 404
    assert other.get(f"{base}compare/?a=1").status_code == 404
