"""Access control: only the owner sees or changes an army; everyone else gets 404."""

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import Resolver404, resolve

from armybuilder.armies import services
from armybuilder.armies.models import Army
from tests.support import army, item_url, shared_army

HX = {"HX-Request": "true"}


@pytest.fixture
def owner(db):
    return User.objects.create_user("owner", password="a-long-Pass-123")


@pytest.fixture
def saved(owner):
    doc = army("into-the-dark", [{"name": "Knights", "quality": "fanatic", "mounted": True}])
    return shared_army(doc, owner=owner)


@pytest.fixture
def intruder(db):
    client = Client()
    client.force_login(User.objects.create_user("mallory", password="a-long-Pass-123"))
    return client


def owner_only_requests(saved: Army) -> list[tuple[str, str, dict]]:
    base = f"/armies/{saved.pk}/"
    unit = item_url(saved, 0)
    return [
        ("get", base, {}),
        ("post", unit, {"version": 1, "f.figures": "1"}),
        ("post", base + "units/add/", {"version": 1}),
        ("post", unit + "duplicate/", {"version": 1}),
        ("post", unit + "move/", {"version": 1, "direction": "down"}),
        ("post", unit + "delete/", {"version": 1}),
        ("post", base + "operations/", {}),
        ("post", base + "generals/add/", {"version": 1}),
        ("post", base + "settings/", {"version": 1, "name": "Mine now"}),
        ("get", base + "export.json", {}),
        ("get", base + "delete/", {}),
        ("post", base + "delete/", {}),
        ("post", base + "duplicate/", {}),
        ("post", base + "share/regenerate/", {}),
        ("post", base + "share/off/", {}),
    ]


def test_another_users_army_is_404_for_every_page_and_change(saved, intruder):
    for method, url, data in owner_only_requests(saved):
        response = getattr(intruder, method)(url, data)
        assert response.status_code == 404, (method, url)
        response = getattr(intruder, method)(url, data, headers=HX)
        assert response.status_code == 404, (method, url, "htmx")
    untouched = Army.objects.get(pk=saved.pk)
    assert untouched.version == 1 and untouched.document == saved.document
    assert untouched.share_token == saved.share_token
    assert Army.objects.count() == 1


def test_the_404_does_not_confirm_the_army_exists(saved, intruder):
    missing = intruder.get("/armies/999999/")
    theirs = intruder.get(f"/armies/{saved.pk}/")
    assert missing.status_code == theirs.status_code == 404

    def unmasked(body: bytes) -> str:  # the CSRF token is masked differently each time
        return re.sub(r"\b[A-Za-z0-9]{64}\b", "", body.decode())

    assert unmasked(missing.content) == unmasked(theirs.content)


def test_anonymous_visitors_get_404_for_a_users_army(saved, client):
    for method, url, data in owner_only_requests(saved):
        response = getattr(client, method)(url, data)
        assert response.status_code == 404, (method, url)
    assert Army.objects.get(pk=saved.pk).version == 1


def test_another_visitors_draft_is_404(db):
    first, second = Client(), Client()
    first.post("/armies/new/", {"ruleset": "into-the-dark", "name": "Mine"})
    draft = Army.objects.get()
    assert first.get(f"/armies/{draft.pk}/").status_code == 200
    assert second.get(f"/armies/{draft.pk}/").status_code == 404
    assert second.get("/armies/").content.decode().count("Mine") == 0


def printing_routes_exist() -> bool:
    try:
        resolve("/armies/1/roster.pdf")
    except Resolver404:
        return False
    return True


@pytest.mark.skipif(
    not printing_routes_exist(), reason="the printing app's PDF routes are not wired in yet"
)
def test_another_users_army_pdf_is_404(saved, intruder, client):
    for path in ("roster.pdf", "qrs.pdf", "roster/"):
        assert intruder.get(f"/armies/{saved.pk}/{path}").status_code == 404
        assert client.get(f"/armies/{saved.pk}/{path}").status_code == 404


def test_my_armies_lists_only_my_own(saved, intruder):
    page = intruder.get("/armies/").content.decode()
    assert "Knights" not in page and "Test army" not in page


def test_a_made_up_share_token_is_404(saved, client):
    assert client.get("/s/made-up-token-that-nobody-issued/").status_code == 404
    assert client.get("/s/made-up-token-that-nobody-issued/army.json").status_code == 404
    assert client.get(f"/s/{saved.share_token[:-1]}/").status_code == 404


def test_a_regenerated_token_kills_the_old_link(saved, client):
    old = saved.share_token
    assert client.get(f"/s/{old}/").status_code == 200
    owner_client = Client()
    owner_client.force_login(saved.owner)
    owner_client.post(f"/armies/{saved.pk}/share/regenerate/")
    saved.refresh_from_db()
    assert saved.share_token != old
    assert client.get(f"/s/{old}/").status_code == 404
    assert client.get(f"/s/{old}/army.json").status_code == 404
    assert client.get(f"/s/{saved.share_token}/").status_code == 200


def test_turning_sharing_off_kills_the_link(saved, client):
    old = saved.share_token
    owner_client = Client()
    owner_client.force_login(saved.owner)
    owner_client.post(f"/armies/{saved.pk}/share/off/")
    assert client.get(f"/s/{old}/").status_code == 404
    saved.refresh_from_db()
    assert saved.share_token is None


def test_every_post_needs_a_csrf_token(saved):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(saved.owner)
    for method, url, data in owner_only_requests(saved):
        if method == "post":
            assert strict.post(url, data).status_code == 403, url
    assert strict.post("/armies/new/", {"ruleset": "into-the-dark"}).status_code == 403
    assert strict.post("/armies/import/", {}).status_code == 403
    assert strict.post(f"/s/{saved.share_token}/copy/").status_code == 403
    page = strict.get(f"/armies/{saved.pk}/").content.decode()
    # htmx sends the token as a header on every request
    assert (
        "hx-headers='{&quot;X-CSRFToken&quot;: &quot;" in page
        or 'hx-headers=\'{"X-CSRFToken": "' in page
    )
    token = strict.cookies["csrftoken"].value
    response = strict.post(
        item_url(saved, 0),
        {"version": 1, "f.figures": "6"},
        headers={**HX, "X-CSRFToken": token},
    )
    assert response.status_code == 200


def test_another_user_cannot_re_roll_an_owners_feudal_force(owner, intruder, client):
    feudal = services.create_army(army("feudal-2017", []), owner=owner)
    for visitor in (intruder, client):
        for headers in ({}, HX):
            response = visitor.post(f"/armies/{feudal.pk}/roll/", {"version": 1}, headers=headers)
            assert response.status_code == 404
    feudal.refresh_from_db()
    assert feudal.version == 1 and feudal.document["units"] == []
    mine = Client()
    mine.force_login(owner)  # the same request from the owner rolls: the 404 was the rule
    assert mine.post(f"/armies/{feudal.pk}/roll/", {"version": 1}).status_code == 302
    feudal.refresh_from_db()
    assert feudal.version == 2 and len(feudal.document["units"]) == 6


def test_restoring_a_deleted_army_needs_a_csrf_token(saved, owner):
    mine = Client()
    mine.force_login(owner)
    mine.post(f"/armies/{saved.pk}/delete/")
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(owner)
    assert strict.post(f"/armies/{saved.pk}/restore/").status_code == 403
    assert Army.objects.get(pk=saved.pk).deleted_at is not None
    strict.get("/armies/")  # the page with the Restore button sets the token
    token = strict.cookies["csrftoken"].value
    restored = strict.post(f"/armies/{saved.pk}/restore/", headers={"X-CSRFToken": token})
    assert restored.status_code == 302
    assert Army.objects.get(pk=saved.pk).deleted_at is None
