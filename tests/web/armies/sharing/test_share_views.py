"""Share links: read-only, no login, revocable; copy into your own account."""

import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from armybuilder.armies import services
from armybuilder.armies.models import Army
from tests.support import army, example, item_id, item_url, shared_army

PASSWORD = "a-long-Pass-123"
HX = {"HX-Request": "true"}


@pytest.fixture
def owner(db):
    return User.objects.create_user("owner", password=PASSWORD)


@pytest.fixture
def saved(owner):
    return shared_army(example("into-the-dark-source-examples.json"), owner=owner)


def test_a_shared_army_has_an_unguessable_share_token(saved):
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", saved.share_token)
    other = services.duplicate_army(saved, owner=saved.owner)
    assert other.share_token != saved.share_token


def test_the_share_page_shows_the_roster_totals_and_issues_without_login(saved, client):
    response = client.get(f"/s/{saved.share_token}/")
    page = response.content.decode()
    assert response.status_code == 200
    for name in ("Town Militia", "Knights", "Combat Archers", "Champion", "Count Odo"):
        assert f'class="item-name">{name}<' in page
    assert '<span class="total-points" id="total-points" data-points="581">581</span>' in page
    assert "No problems: this army is legal." in page
    assert "12 figures x 16 = 192" in page  # the breakdown
    assert '<span class="stat-label">code</span> LMM' in page  # the stat line


def test_the_share_page_is_read_only(saved, client):
    page = client.get(f"/s/{saved.share_token}/").content.decode()
    assert 'name="f.' not in page and "hx-post" not in page
    assert f"/armies/{saved.pk}/" not in page  # the database id is not given away
    assert re.findall(r"<form", page) == []  # a visitor's copy asks first, on its own page
    assert f'<a class="button" href="/s/{saved.share_token}/copy/"' in page


def test_the_share_page_lists_problems_with_links_to_the_units(owner, client):
    doc = army("into-the-dark", [{"name": "Archers", "training": "missile"}], points_limit=10)
    shared = shared_army(doc, owner=owner)
    page = client.get(f"/s/{shared.share_token}/").content.decode()
    assert (
        'data-code="missing-missile-weapon"' in page
        and f'href="#unit-{item_id(shared, 0)}"' in page
    )
    assert (
        'data-code="over-points-limit"' in page
        and f'<li class="item" id="unit-{item_id(shared, 0)}">' in page
    )


def test_open_graph_title_and_description_for_link_previews(saved, client):
    page = client.get(f"/s/{saved.share_token}/").content.decode()
    assert '<meta property="og:title" content="Worked examples from Into the Dark">' in page
    assert (
        '<meta property="og:description" content="Into the Dark · 4 units · 581 of 1000 points · legal">'
        in page
    )
    assert f'<meta property="og:url" content="http://testserver/s/{saved.share_token}/">' in page


def test_download_json_gives_the_document(saved, client):
    response = client.get(f"/s/{saved.share_token}/army.json")
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        'attachment; filename="worked-examples-from-into-the-dark.json"'
    )
    assert json.loads(response.content) == saved.document


def test_share_page_links_the_printable_sheets_by_token(saved, client):
    page = client.get(f"/s/{saved.share_token}/").content.decode()
    for path in ("roster.pdf", "qrs.pdf", "roster/", "army.json"):
        assert f'href="/s/{saved.share_token}/{path}"' in page


def test_the_builder_shows_the_link_with_a_copy_button(saved):
    client = Client()
    client.force_login(saved.owner)
    page = client.get(f"/armies/{saved.pk}/").content.decode()
    link = f"http://testserver/s/{saved.share_token}/"
    assert f'<input id="share-link" type="text" readonly value="{link}">' in page
    assert 'data-copy="#share-link"' in page


def test_regenerate_and_turn_off_answer_htmx_with_the_share_panel(saved):
    client = Client()
    client.force_login(saved.owner)
    old = saved.share_token
    response = client.post(f"/armies/{saved.pk}/share/regenerate/", headers=HX)
    body = response.content.decode()
    saved.refresh_from_db()
    assert body.lstrip().startswith('<section id="share"')
    assert saved.share_token != old and saved.share_token in body
    assert "the old link no longer works" in body
    body = client.post(f"/armies/{saved.pk}/share/off/", headers=HX).content.decode()
    assert "Sharing is off" in body and "Turn sharing on" in body
    body = client.post(f"/armies/{saved.pk}/share/regenerate/", headers=HX).content.decode()
    saved.refresh_from_db()
    assert saved.share_token and client.get(f"/s/{saved.share_token}/").status_code == 200


def test_a_visitor_copying_a_shared_army_gets_a_draft_without_logging_in(saved, client):
    response = client.post(f"/s/{saved.share_token}/copy/")
    draft = Army.objects.exclude(pk=saved.pk).get()
    assert response["Location"] == f"/armies/{draft.pk}/"
    assert draft.owner is None and draft.session_key
    assert draft.document == saved.document and draft.share_token != saved.share_token
    assert client.get(f"/armies/{draft.pk}/").status_code == 200  # the visitor edits it


def test_copy_to_my_armies_makes_a_fork_owned_by_the_viewer(saved):
    viewer = User.objects.create_user("viewer", password=PASSWORD)
    client = Client()
    client.post(
        "/accounts/login/",
        {"username": "viewer", "password": PASSWORD, "next": f"/s/{saved.share_token}/copy/"},
    )
    confirm = client.get(f"/s/{saved.share_token}/copy/")
    assert "Copy “Worked examples from Into the Dark” to your armies?" in confirm.content.decode()
    response = client.post(f"/s/{saved.share_token}/copy/")
    fork = Army.objects.get(owner=viewer)
    assert response["Location"] == f"/armies/{fork.pk}/"
    assert fork.document == saved.document and fork.share_token != saved.share_token
    client.post(item_url(fork, 0, "units", "delete/"), {"version": 1})
    saved.refresh_from_db()
    assert len(saved.document["units"]) == 4  # the original is untouched


def test_the_owner_sees_edit_instead_of_copy(saved):
    client = Client()
    client.force_login(saved.owner)
    page = client.get(f"/s/{saved.share_token}/").content.decode()
    assert "Edit (you own this army)" in page and "Copy to my armies" not in page


def test_the_link_preview_counts_one_problem_in_the_singular_and_an_empty_army_as_empty(
    owner, client
):
    doc = army("into-the-dark", [{"name": "Archers", "training": "missile"}], points_limit=1000)
    one = shared_army(doc, owner=owner)
    page = client.get(f"/s/{one.share_token}/").content.decode()
    assert '· 1 problem">' in page and "problem(s)" not in page
    empty = shared_army(army("into-the-dark", []), owner=owner)
    page = client.get(f"/s/{empty.share_token}/").content.decode()
    assert '0 units · 0 points · no units yet">' in page


def test_the_share_page_names_the_list_and_the_revision_the_army_is_checked_against(owner):
    from armybuilder.catalog import services as lists
    from armybuilder.catalog.models import ArmyList

    norman = ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066")
    mine = lists.copy_list(owner, army_list=norman).army_list
    lists.edit_list(owner, army_list=mine, name="Normans, my way")
    built = shared_army(army("into-the-dark", [], army_list=mine.slug), owner=owner)
    assert built.list_pins == {mine.slug: 2}
    lists.edit_list(owner, army_list=mine, name="Normans, later")  # revision 3: not this army's
    page = Client().get(f"/s/{built.share_token}/").content.decode()
    assert "List: Normans, my way, revision 2" in page
    assert mine.slug not in page  # a private list: named, never its slug or a link
    free = shared_army(army("into-the-dark", []), owner=owner)
    assert "List:" not in Client().get(f"/s/{free.share_token}/").content.decode()


def test_the_shared_roster_and_qrs_name_the_list_revision_the_army_is_checked_against(owner):
    from armybuilder.catalog import services as lists
    from armybuilder.catalog.models import ArmyList

    norman = ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066")
    lists.save_list(norman, name="Norman, revised")  # revision 2 is what a new army reads
    built = shared_army(army("into-the-dark", [], army_list=norman.slug), owner=owner)
    lists.save_list(norman, name="Norman, later")  # revision 3: not this army's
    for sheet in ("roster", "qrs"):
        page = Client().get(f"/s/{built.share_token}/{sheet}/").content.decode()
        assert "List: Norman, revised, revision 2" in page


def test_the_share_page_names_the_newer_revision_once_the_owner_accepts_it(owner):
    from armybuilder.catalog import services as lists
    from armybuilder.catalog.models import ArmyList

    norman = ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066")
    built = shared_army(army("into-the-dark", [], army_list=norman.slug), owner=owner)
    visitor = Client()
    assert (
        "List: Norman (Hastings, 1066), revision 1"
        in visitor.get(f"/s/{built.share_token}/").content.decode()
    )
    lists.save_list(norman, name="Norman, revised")
    services.accept_upgrade(Army.objects.get(pk=built.pk))
    page = visitor.get(f"/s/{built.share_token}/").content.decode()
    assert "List: Norman, revised, revision 2" in page
