"""What a browser may keep of a player's pages: no HTTP caching of private pages, the owner
each page was made for (the service worker's per-player offline copies), and a log-out that
tells the browser to drop everything it kept."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from armybuilder.armies import services
from armybuilder.ops.offline import OWNER_HEADER
from tests.support import army

PASSWORD = "a-long-Pass-123"


@pytest.fixture
def alice(db):
    return User.objects.create_user("alice", password=PASSWORD)


@pytest.fixture
def signed_in(client, alice):
    client.force_login(alice)
    return client


@pytest.fixture
def saved(alice):
    return services.create_army(army("into-the-dark", [{"name": "Knights"}]), owner=alice)


def cache_directives(response) -> set[str]:
    return {part.strip() for part in response["Cache-Control"].split(",")}


@pytest.mark.parametrize(
    "url",
    [
        "/armies/",
        "/armies/{pk}/",
        "/armies/{pk}/history/",
        "/armies/{pk}/export.json",
        "/armies/{pk}/version.json",
        "/accounts/password/",
        "/accounts/password/done/",
    ],
)
def test_a_players_private_pages_are_never_kept_by_http_caches(signed_in, saved, url):
    response = signed_in.get(url.format(pk=saved.pk))
    assert response.status_code == 200
    directives = cache_directives(response)
    assert {"private", "no-store"} <= directives
    assert not any(d.startswith("max-age") for d in directives)
    assert "public" not in directives


@pytest.mark.parametrize("url", ["/accounts/login/", "/accounts/signup/", "/armies/"])
def test_account_pages_and_a_visitors_drafts_are_never_kept_either(client, db, url):
    response = client.get(url)
    assert response.status_code == 200
    assert {"private", "no-store"} <= cache_directives(response)


def test_a_public_rule_set_page_keeps_its_own_caching(client, db):
    response = client.get("/")
    assert "no-store" not in response.get("Cache-Control", "")


def test_every_page_names_the_owner_it_was_made_for_without_naming_the_player(client, alice, saved):
    visitor = client.get("/")[OWNER_HEADER]
    assert visitor.startswith("v-")
    assert "Cookie" in client.get("/")["Vary"]
    client.force_login(alice)
    mine = client.get(f"/armies/{saved.pk}/")[OWNER_HEADER]
    assert mine.startswith("u-") and mine == client.get("/")[OWNER_HEADER]
    assert len(mine) == 26 and "alice" not in mine  # a keyed digest, not the account's id
    # the roster PDF of the army says whose it is too: the worker keeps it with the page
    assert client.get(f"/armies/{saved.pk}/roster.pdf")[OWNER_HEADER] == mine
    bob = User.objects.create_user("bob", password=PASSWORD)
    other = Client()
    other.force_login(bob)
    assert other.get("/")[OWNER_HEADER] not in {mine, visitor}


def test_the_public_json_api_names_no_owner_and_keeps_its_public_caching(client, db):
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert not response.has_header(OWNER_HEADER)
    assert "public" in response["Cache-Control"]


def test_two_visitors_sessions_are_two_owners(db):
    first, second = Client(), Client()
    for visitor in (first, second):
        session = visitor.session
        session["seen"] = True
        session.save()
        visitor.cookies["sessionid"] = session.session_key
    assert first.get("/")[OWNER_HEADER] != second.get("/")[OWNER_HEADER]


def test_log_out_tells_the_browser_to_clear_its_cache_and_storage(signed_in, saved):
    response = signed_in.post("/accounts/logout/")
    assert response.status_code == 302 and response["Location"] == "/"
    assert response["Clear-Site-Data"] == '"cache", "storage"'
    assert {"private", "no-store"} <= cache_directives(response)
    # signed out: the army is no longer this browser's to see
    assert signed_in.get(f"/armies/{saved.pk}/").status_code == 404


def test_a_log_out_refused_for_a_missing_csrf_token_clears_nothing(alice, saved):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    response = browser.post("/accounts/logout/")
    assert response.status_code == 403
    assert not response.has_header("Clear-Site-Data")
    assert browser.get(f"/armies/{saved.pk}/").status_code == 200
