"""My armies, creating, duplicating and deleting armies, and the catalog's New army buttons."""

import json
import re

from django.contrib.auth.models import User
from django.test import Client

import rules
from armybuilder.armies import services
from armybuilder.armies.changes import pipeline
from armybuilder.armies.changes.commands import SetValue
from armybuilder.armies.models import Army
from armybuilder.catalog.selectors import lists_for
from tests.support import army, example


def row(page: str, pk: int) -> str:
    return re.search(rf'<tr id="army-{pk}">(.*?)</tr>', page, re.S).group(1)


def test_my_armies_shows_rule_set_points_and_a_legal_badge(owner_client, user):
    legal = services.create_army(example("into-the-dark-source-examples.json"), owner=user)
    illegal = services.create_army(
        army("into-the-dark", [{"name": "Archers", "training": "missile"}], points_limit=40),
        owner=user,
    )
    matrix = services.create_army(example("feudal-2017-roll-4.json"), owner=user)
    page = owner_client.get("/armies/").content.decode()
    assert "Into the Dark" in row(page, legal.pk) and "581 / 1000 pts" in row(page, legal.pk)
    assert '<span class="badge legal">Legal</span>' in row(page, legal.pk)
    assert "66 / 40 pts" in row(page, illegal.pk)
    assert '<span class="badge illegal">Illegal</span> <small>2 errors</small>' in row(
        page, illegal.pk
    )
    assert "matrix row 4" in row(page, matrix.pk)
    assert page.index(f'id="army-{matrix.pk}"') < page.index(
        f'id="army-{legal.pk}"'
    )  # newest first


def test_my_armies_says_an_empty_army_has_no_units_yet_not_legal(owner_client, user):
    empty = services.create_army(army("into-the-dark", []), owner=user)
    line = row(owner_client.get("/armies/").content.decode(), empty.pk)
    assert '<span class="badge">No units yet</span>' in line and "badge legal" not in line


def test_my_armies_reads_army_lists_once_per_rule_set(
    owner_client, user, django_assert_max_num_queries
):
    for _ in range(10):
        services.create_army(example("into-the-dark-source-examples.json"), owner=user)
    # session, user, armies, one list query per rule set on the page, the new-army form's lists
    with django_assert_max_num_queries(6):
        assert owner_client.get("/armies/").status_code == 200


def test_create_an_army_with_rule_set_list_and_limit(owner_client, user):
    response = owner_client.post(
        "/armies/new/",
        {
            "ruleset": "into-the-dark",
            "army_list": "norman-1066",
            "points_limit": "800",
            "name": "Normans",
        },
    )
    created = Army.objects.get(owner=user)
    assert response["Location"] == f"/armies/{created.pk}/"
    assert (
        created.document["army_list"] == "norman-1066" and created.document["points_limit"] == 800
    )
    assert created.document["name"] == "Normans" and created.document["units"] == []


def test_a_new_army_gets_a_name_from_its_rule_set(owner_client, user):
    owner_client.post("/armies/new/", {"ruleset": "feudal-2017", "points_limit": "500"})
    created = Army.objects.get(owner=user)
    title = rules.get_ruleset("feudal-2017").title
    assert created.document["name"] == f"New {title} army"
    assert created.document["points_limit"] is None  # no points in this rule set


def test_create_refuses_a_list_of_another_rule_set_and_names_the_lists(owner_client):
    response = owner_client.post(
        "/armies/new/", {"ruleset": "into-the-dark", "army_list": "bretons"}
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "&#x27;bretons&#x27; is not an army list of Into the Dark" in page
    assert Army.objects.count() == 0
    response = owner_client.post("/armies/new/", {"ruleset": "chess"})
    assert response.status_code == 400 and "Select a valid choice." in response.content.decode()


def test_the_army_list_select_follows_the_rule_set(owner_client):
    first = rules.all_rulesets()[0].slug
    page = owner_client.get("/armies/new/").content.decode()
    for army_list in lists_for(first):  # the lists of the rule set selected at first
        assert f'<option value="{army_list.slug}">' in page
    page = owner_client.get("/armies/new/?ruleset=feudal-2017").content.decode()
    assert 'hx-get="/armies/new/lists/"' in page
    assert '<option value="bretons">' in page
    fragment = owner_client.get("/armies/new/lists/?ruleset=into-the-dark").content.decode()
    assert fragment.lstrip().startswith('<div class="control" id="list-select">')
    assert '<option value="norman-1066">' in fragment and "bretons" not in fragment
    empty = owner_client.get("/armies/new/lists/?ruleset=nonsense").content.decode()
    assert '<option value="">— none: build freely —</option>' in empty


def test_duplicate_from_my_armies_makes_a_copy_to_edit(owner_client, user):
    original = services.create_army(example("into-the-dark-source-examples.json"), owner=user)
    response = owner_client.post(f"/armies/{original.pk}/duplicate/")
    copy = Army.objects.exclude(pk=original.pk).get()
    assert response["Location"] == f"/armies/{copy.pk}/"
    assert copy.document["name"] == "Copy of Worked examples from Into the Dark"


def test_the_delete_page_still_asks_without_javascript_and_the_post_deletes(owner_client, user):
    saved = services.create_army(army("into-the-dark", []), owner=user)
    confirm = owner_client.get(f"/armies/{saved.pk}/delete/")
    assert "Delete “Test army”?" in confirm.content.decode()
    assert "restore it from" in confirm.content.decode()
    assert Army.objects.get(pk=saved.pk).deleted_at is None
    response = owner_client.post(f"/armies/{saved.pk}/delete/")
    assert response["Location"] == "/armies/"
    assert Army.objects.get(pk=saved.pk).deleted_at is not None
    assert "Deleted <strong>Test army</strong>." in owner_client.get("/armies/").content.decode()


def test_a_visitor_can_start_building_without_an_account(client, db):
    page = client.get("/armies/new/").content.decode()
    assert '<select id="id_ruleset" name="ruleset"' in page
    response = client.post("/armies/new/", {"ruleset": "into-the-dark"})
    draft = Army.objects.get()
    assert draft.owner is None and draft.session_key
    assert response["Location"] == f"/armies/{draft.pk}/"
    assert "Your drafts" in client.get("/armies/").content.decode()


def test_rule_set_and_army_list_pages_offer_a_new_army(client, db):
    page = client.get("/rulesets/into-the-dark/").content.decode()
    assert (
        '<input type="hidden" name="ruleset" value="into-the-dark"><button type="submit">Start an army</button>'
        in page
    )
    page = client.get("/rulesets/into-the-dark/lists/norman-1066/").content.decode()
    assert '<input type="hidden" name="army_list" value="norman-1066">' in page
    client.post("/armies/new/", {"ruleset": "into-the-dark", "army_list": "norman-1066"})
    assert Army.objects.get().document["army_list"] == "norman-1066"


def test_an_army_whose_list_was_removed_still_opens_and_can_be_fixed(owner_client, user):
    from armybuilder.catalog.models import ArmyList

    saved = services.create_army(army("into-the-dark", [], army_list="swiss"), owner=user)
    ArmyList.objects.filter(ruleset="into-the-dark", slug="swiss").delete()
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    assert "This army no longer reads: army_list: &#x27;swiss&#x27; is not an army list" in page
    assert "Unreadable" in owner_client.get("/armies/").content.decode()
    response = owner_client.post(f"/armies/{saved.pk}/settings/", {"version": 1, "army_list": ""})
    assert response.status_code == 302
    saved.refresh_from_db()
    assert saved.document["army_list"] is None


def test_the_admin_validates_the_document_and_bumps_the_version(client, user):
    admin = User.objects.create_superuser("admin", password="a-long-Pass-123")
    client.force_login(admin)
    saved = services.create_army(army("into-the-dark", [{"name": "Knights"}]), owner=user)
    url = f"/admin/armies/army/{saved.pk}/change/"
    assert client.get("/admin/armies/army/").status_code == 200
    bad = army("into-the-dark", [{"name": "Knights", "figures": 0}])
    form = {"owner": user.pk, "document": json.dumps(bad), "share_token": ""}
    response = client.post(url, form)
    assert response.status_code == 200 and "units[0].figures" in response.content.decode()
    good = army("into-the-dark", [{"name": "Knights", "figures": 6}])
    response = client.post(url, {**form, "document": json.dumps(good)})
    assert response.status_code == 302
    saved.refresh_from_db()
    assert saved.version == 2 and saved.document["units"][0]["figures"] == 6
    assert saved.document["units"][0]["quality"] == "average"  # stored normalised


def test_the_army_version_answers_304_without_a_body_while_the_army_is_unchanged(
    owner_client, user, django_assert_max_num_queries
):
    saved = services.create_army(army("into-the-dark", [{"name": "Knights"}]), owner=user)
    url = f"/armies/{saved.pk}/version.json"
    first = owner_client.get(url)
    assert first.json() == {"version": saved.version}
    assert "no-store" in first["Cache-Control"]
    # an open builder asks every second: the session, the user, the army's version
    with django_assert_max_num_queries(3):
        unchanged = owner_client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert unchanged["ETag"] == first["ETag"]
    unit = saved.document["units"][0]["id"]
    pipeline.run(saved, SetValue(unit, "name", "Renamed on the phone"))
    saved.refresh_from_db()
    assert saved.version > first.json()["version"]
    moved = owner_client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert moved.status_code == 200 and moved.json() == {"version": saved.version}
    assert moved["ETag"] != first["ETag"]


def test_the_army_version_is_not_found_for_anyone_but_its_owner(owner_client, user):
    saved = services.create_army(army("into-the-dark", [{"name": "Knights"}]), owner=user)
    url = f"/armies/{saved.pk}/version.json"
    etag = owner_client.get(url)["ETag"]
    client = Client()  # a visitor signed in as no one
    assert client.get(url).status_code == 404
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404
    User.objects.create_user("mallory", password="a-long-Pass-123")
    client.login(username="mallory", password="a-long-Pass-123")
    assert client.get(url).status_code == 404
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404
