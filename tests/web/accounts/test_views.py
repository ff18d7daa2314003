"""Accounts: sign up, log in, log out, change password; a visitor's drafts are claimed."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from armybuilder.armies.models import Army
from tests.support import item_url

PASSWORD = "a-long-Pass-123"
HX = {"HX-Request": "true"}


def sign_up(client: Client, username: str = "alice", **extra: str):
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD, **extra}
    return client.post("/accounts/signup/", data)


def build_draft(client: Client, name: str = "Visitor's Normans") -> Army:
    client.post("/armies/new/", {"ruleset": "into-the-dark", "name": name})
    draft = Army.objects.get(document__name=name)
    client.post(f"/armies/{draft.pk}/units/add/", {"version": 1}, headers=HX)
    client.post(
        item_url(draft, 0),
        {"version": 2, "f.name": "Knights", "f.quality": "fanatic", "f.mounted": "1"},
        headers=HX,
    )
    draft.refresh_from_db()
    return draft


def test_sign_up_with_username_and_password_logs_in(client, db):
    response = sign_up(client)
    assert response.status_code == 302 and response["Location"] == "/armies/"
    user = User.objects.get(username="alice")
    assert user.email == ""
    page = client.get("/armies/").content.decode()
    assert "My armies" in page and ">alice</a>" in page and "Log out" in page


def test_the_page_after_sign_up_offers_the_list_search_before_the_menus(client, db):
    response = sign_up(client)
    page = client.get(response["Location"]).content.decode()
    search = page.index('id="find-list"')
    assert 'role="search"' in page and 'id="find-results"' in page
    assert search < page.index('name="ruleset"')  # the search first, the menus after
    found = client.get("/armies/find/", {"q": "Irish"}).content.decode()
    assert "Irish" in found


def test_sign_up_takes_an_optional_email(client, db):
    sign_up(client, email="alice@example.org")
    assert User.objects.get().email == "alice@example.org"


def test_sign_up_problems_are_named_and_nothing_is_created(client, db):
    response = client.post(
        "/accounts/signup/", {"username": "bob", "password1": PASSWORD, "password2": "other"}
    )
    assert response.status_code == 400
    assert "The two password fields didn’t match." in response.content.decode()
    User.objects.create_user("carol", password=PASSWORD)
    response = sign_up(client, username="Carol")
    assert "A user with that username already exists." in response.content.decode()
    response = client.post("/accounts/signup/", {})
    assert response.content.decode().count("This field is required.") >= 3
    assert User.objects.count() == 1


def test_sign_up_follows_a_safe_next_and_ignores_another_site(client, db):
    response = sign_up(client, next="/rulesets/into-the-dark/")
    assert response["Location"] == "/rulesets/into-the-dark/"
    other = Client()
    response = sign_up(other, username="bob", next="https://evil.example/")
    assert response["Location"] == "/armies/"


def test_log_in_log_out_and_change_password(client, db):
    User.objects.create_user("alice", password=PASSWORD)
    page = client.get("/accounts/login/").content.decode()
    assert '<label for="id_username">' in page and '<label for="id_password">' in page
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response["Location"] == "/armies/"
    response = client.post(
        "/accounts/password/",
        {
            "old_password": PASSWORD,
            "new_password1": "Another-pass-456",
            "new_password2": "Another-pass-456",
        },
    )
    assert response["Location"] == "/accounts/password/done/"
    assert client.get("/armies/").status_code == 200  # still logged in after the change
    response = client.post("/accounts/logout/")
    assert response["Location"] == "/"
    assert "Log in" in client.get("/").content.decode()
    assert Client().login(username="alice", password="Another-pass-456")


def test_a_wrong_password_is_refused_politely(client, db):
    User.objects.create_user("alice", password=PASSWORD)
    response = client.post("/accounts/login/", {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password." in response.content.decode()


def test_account_pages_share_the_site_layout(client, db):
    User.objects.create_user("alice", password=PASSWORD)
    pages = ["/accounts/signup/", "/accounts/login/"]
    for url in pages:
        page = client.get(url).content.decode()
        assert '<header class="site">' in page and "/static/css/builder.css" in page
    client.login(username="alice", password=PASSWORD)
    for url in ("/accounts/password/", "/accounts/password/done/"):
        page = client.get(url).content.decode()
        assert '<header class="site">' in page and "/static/css/builder.css" in page
    assert client.get("/accounts/signup/")["Location"] == "/armies/"


def test_password_change_needs_a_login(client, db):
    response = client.get("/accounts/password/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


def test_a_visitors_draft_is_claimed_at_sign_up_and_nothing_is_lost(client, db):
    draft = build_draft(client)
    before = draft.document
    page = client.get("/armies/").content.decode()
    assert "Your drafts" in page and "Visitor&#x27;s Normans" in page
    response = sign_up(client)
    assert response.status_code == 302
    draft.refresh_from_db()
    user = User.objects.get(username="alice")
    assert draft.owner == user and draft.session_key == ""
    assert draft.document == before and draft.document["units"][0]["name"] == "Knights"
    page = client.get("/armies/").content.decode()
    assert "1 army you built before logging in is now in your account." in page
    assert client.get(f"/armies/{draft.pk}/").status_code == 200


def test_a_visitors_drafts_are_claimed_at_log_in(client, db):
    user = User.objects.create_user("alice", password=PASSWORD)
    first = build_draft(client, "First")
    second = build_draft(client, "Second")
    client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert set(Army.objects.filter(owner=user).values_list("pk", flat=True)) == {
        first.pk,
        second.pk,
    }
    assert not Army.objects.filter(owner__isnull=True).exists()


def test_logging_in_does_not_claim_another_visitors_drafts(db):
    someone, alice = Client(), Client()
    theirs = build_draft(someone, "Theirs")
    User.objects.create_user("alice", password=PASSWORD)
    alice.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    theirs.refresh_from_db()
    assert theirs.owner is None
    assert someone.get(f"/armies/{theirs.pk}/").status_code == 200


@pytest.mark.parametrize("url", ["/armies/", "/rulesets/into-the-dark/"])
def test_the_header_offers_start_building_and_account_links_back_to_the_page(client, db, url):
    page = client.get(url).content.decode()
    assert '<a href="/armies/new/">Start building</a>' in page
    assert f'<a href="/accounts/login/?next={url}">Log in</a>' in page
    assert f'<a href="/accounts/signup/?next={url}">Sign up</a>' in page
    assert sign_up(client, next=url)["Location"] == url


def test_the_headers_account_links_on_the_account_pages_lead_nowhere_back(client, db):
    page = client.get("/accounts/login/?next=/events/").content.decode()
    assert '<a href="/accounts/signup/">Sign up</a>' in page  # the header's
    assert '<a href="/accounts/signup/?next=/events/">Sign up</a>' in page  # the page's own


def test_abandoned_drafts_are_pruned_and_live_ones_kept(db):
    from datetime import timedelta
    from io import StringIO

    from django.core.management import call_command
    from django.utils import timezone

    keeper = Client()
    kept = build_draft(keeper, "Still in use")
    gone = build_draft(Client(), "Abandoned")
    owned = build_draft(Client(), "Owned later")
    owned.owner = User.objects.create_user("dora", password=PASSWORD)
    owned.session_key = ""
    owned.save()
    long_ago = timezone.now() - timedelta(days=60)
    Army.objects.update(updated=long_ago)
    from django.contrib.sessions.models import Session

    Session.objects.exclude(session_key=kept.session_key).delete()  # the others expired
    out = StringIO()
    call_command("prune_drafts", "--dry-run", stdout=out)
    assert out.getvalue().strip() == "would delete 1 abandoned draft"
    assert Army.objects.count() == 3
    call_command("prune_drafts", stdout=StringIO())
    assert set(Army.objects.values_list("pk", flat=True)) == {kept.pk, owned.pk}
    assert gone.pk not in set(Army.objects.values_list("pk", flat=True))


def test_a_visitor_keeps_at_most_the_draft_limit_and_is_told_to_sign_up(client, db, settings):
    settings.MUSTER_MAX_DRAFTS = 2
    for n in range(2):
        client.post("/armies/new/", {"ruleset": "into-the-dark", "name": f"Draft {n}"})
    refused = client.post("/armies/new/", {"ruleset": "into-the-dark", "name": "One too many"})
    assert refused.status_code == 400
    assert b"Sign up (it is free) to keep more" in refused.content
    first = Army.objects.get(document__name="Draft 0")
    duplicated = client.post(f"/armies/{first.pk}/duplicate/", follow=True)
    assert b"You already have 2 drafts" in duplicated.content
    assert Army.objects.filter(owner__isnull=True).count() == 2


def test_an_account_has_no_draft_limit(client, db, settings):
    settings.MUSTER_MAX_DRAFTS = 1
    sign_up(client)
    for n in range(3):
        client.post("/armies/new/", {"ruleset": "into-the-dark", "name": f"Army {n}"})
    assert Army.objects.filter(owner__username="alice").count() == 3
