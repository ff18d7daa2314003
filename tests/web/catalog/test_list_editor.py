"""The list editor: a player writes a list field by field, each change a revision the rule
set's validator accepted, with undo; controls come from the rule set's list shape."""

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

import rules
from armybuilder.catalog.models import ArmyList

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def author():
    user = User.objects.create_user("ann")
    client = Client()
    client.force_login(user)
    return user, client


def new_list(client: Client, name: str = "Saxon raiders") -> ArmyList:
    response = client.post(
        "/rulesets/into-the-dark/new-list/",
        {"name": name, "period": "c. 800", "source_note": "mine"},
    )
    assert response.status_code == 302, response.content[:300]
    return ArmyList.objects.get(name=name)


def edit(client: Client, army_list: ArmyList, **data):
    url = f"/rulesets/into-the-dark/lists/{army_list.slug}/edit/"
    return client.post(url, data, headers=HX)


def test_a_new_list_is_the_players_private_list_at_revision_one(author):
    user, client = author
    made = new_list(client)
    assert made.author == user and made.status == "private" and made.latest_revision == 1
    assert made.period == "c. 800" and made.source_note == "mine"
    page = client.get(f"/rulesets/into-the-dark/lists/{made.slug}/edit/").content.decode()
    assert 'name="op" value="values"' in page and "Try it" in page


def test_each_field_change_is_a_revision_and_undo_brings_the_last_back(author):
    _, client = author
    made = new_list(client)
    assert edit(client, made, op="set", section="entries", index="0", field="name",
                value="Thegns").status_code == 200  # fmt: skip
    elite = json.dumps("elite")
    assert edit(client, made, op="values", section="entries", index="0", field="quality",
                value=[elite]).status_code == 200  # fmt: skip
    made.refresh_from_db()
    assert made.latest_revision == 3
    assert made.data["entries"][0]["name"] == "Thegns"
    assert made.data["entries"][0]["match"] == {"quality": ["elite"]}
    edit(client, made, op="undo")
    made.refresh_from_db()
    assert made.latest_revision == 4 and "quality" not in made.data["entries"][0]["match"]


def test_a_refused_change_names_the_field_and_saves_nothing(author):
    _, client = author
    made = new_list(client)
    response = edit(client, made, op="set", section="entries", index="0", field="min", value="5")
    assert response.status_code == 400  # min 5 > max 1: the rule set's validator
    page = response.content.decode()
    assert "Entry 1, At least: Entry 1, At most: at most 1 is fewer than at least 5." in page
    assert "entries[0]" not in page and 'value="5"' in page  # what was typed stays
    assert "Allowed here: 0 to 1." in page and "Use 1" in page  # the nearest valid value
    response = edit(client, made, op="set", section="entries", index="0", field="name", value="")
    assert response.status_code == 400
    assert "Entry 1, Name: required; it cannot be left empty." in response.content.decode()
    made.refresh_from_db()
    assert made.latest_revision == 1


def test_entries_are_added_and_removed_and_the_tiles_follow(author):
    _, client = author
    made = new_list(client)
    page = edit(client, made, op="add", section="entries").content.decode()
    made.refresh_from_db()
    assert [e["key"] for e in made.data["entries"]] == ["entry-1", "entry-2"]
    assert page.count("<li>1 × New entry</li>") == 2  # Try it: one unit of each
    edit(client, made, op="remove", section="entries", index="0")
    made.refresh_from_db()
    assert [e["key"] for e in made.data["entries"]] == ["entry-2"]
    response = edit(client, made, op="remove", section="entries", index="0")
    assert response.status_code == 400  # the last entry stays


def test_nobody_else_edits_the_list(author):
    _, client = author
    made = new_list(client)
    other = Client()
    other.force_login(User.objects.create_user("bob"))
    assert edit(other, made, op="meta", field="name", value="Mine now").status_code == 404
    made.refresh_from_db()
    assert made.name == "Saxon raiders"


def test_every_rule_set_has_a_list_editor_and_an_unknown_one_is_404(author):
    _, client = author
    for ruleset in rules.all_rulesets():
        assert ruleset.list_shape() is not None, ruleset.slug
        assert client.get(f"/rulesets/{ruleset.slug}/new-list/").status_code == 200
    assert client.get("/rulesets/no-such-rules/new-list/").status_code == 404


def test_a_dewitt_list_from_the_editor_restricts_the_armies_built_on_it(author):
    from armybuilder.armies.services import create_army
    from tests.support import army

    user, client = author
    response = client.post("/rulesets/dewitt-medieval/new-list/", {"name": "Free company"})
    made = ArmyList.objects.get(name="Free company")
    assert response["Location"] == f"/rulesets/dewitt-medieval/lists/{made.slug}/edit/"
    url = f"/rulesets/dewitt-medieval/lists/{made.slug}/edit/"
    page = client.get(url).content.decode()
    assert "Fewest stands" in page and "Longbow (+2)" in page
    client.post(url, {"op": "values", "section": "entries", "index": "0", "field": "weapons",
                      "value": [json.dumps("longbow")]}, headers=HX)  # fmt: skip
    client.post(url, {"op": "set", "section": "entries", "index": "0", "field": "max",
                      "value": "3"}, headers=HX)  # fmt: skip
    made.refresh_from_db()
    assert made.data["entries"][0]["match"] == {"weapons": ["longbow"]}
    bows = {"name": "Bows", "arm": "foot", "class": "light", "stands": 4, "weapons": ["longbow"]}
    built = create_army(
        army("dewitt-medieval", [bows, {**bows, "weapons": ["crossbow"]}], army_list=made.slug),
        owner=user,
    )
    page = client.get(f"/armies/{built.pk}/").content.decode()
    assert page.count('data-code="not-in-army-list"') == 1
