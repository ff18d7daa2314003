"""An opponent copies a shared army without an account: a draft, claimed at sign-up."""

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from armybuilder.armies.models import Army
from tests.support import example, shared_army

PASSWORD = "a-long-Pass-123"


@pytest.fixture
def shared(db):
    owner = User.objects.create_user("owner", password=PASSWORD)
    return shared_army(example("into-the-dark-source-examples.json"), owner=owner)


def test_the_share_page_tells_a_visitor_the_copy_needs_no_account(shared, client):
    page = client.get(f"/s/{shared.share_token}/").content.decode()
    assert f'href="/s/{shared.share_token}/copy/" aria-describedby="copy-help">' in page
    assert ">Copy this army to edit</a>" in page
    assert "No account needed" in page
    assert "log in or sign up first" not in page
    confirm = client.get(f"/s/{shared.share_token}/copy/").content.decode()
    assert "the copy is a draft in this browser" in confirm and ">Make my copy</button>" in confirm


def test_looking_at_a_shared_army_sets_no_cookie_and_holds_no_token(shared):
    visitor = Client(enforce_csrf_checks=True)
    response = visitor.get(f"/s/{shared.share_token}/")
    assert response.status_code == 200
    assert response.cookies == {} and not visitor.cookies
    page = response.content.decode()
    assert "csrfmiddlewaretoken" not in page and "X-CSRFToken" not in page
    # the confirmation page gives the token (and the cookie) that the copy needs
    confirm = visitor.get(f"/s/{shared.share_token}/copy/")
    assert "csrftoken" in visitor.cookies
    token = re.search(r'name="csrfmiddlewaretoken" value="(\w+)"', confirm.content.decode())
    copied = visitor.post(f"/s/{shared.share_token}/copy/", {"csrfmiddlewaretoken": token[1]})
    assert copied.status_code == 302 and Army.objects.filter(owner=None).count() == 1


def test_a_visitors_copy_is_claimed_when_they_sign_up(shared, client):
    response = client.post(f"/s/{shared.share_token}/copy/", follow=True)
    assert "it is your draft in this browser" in response.content.decode()
    draft = Army.objects.get(owner=None)
    client.post(
        "/accounts/signup/", {"username": "opponent", "password1": PASSWORD, "password2": PASSWORD}
    )
    draft.refresh_from_db()
    assert draft.owner == User.objects.get(username="opponent") and draft.session_key == ""
    assert draft.document == shared.document


def test_a_visitors_copies_count_against_the_draft_cap(shared, client, settings):
    settings.MUSTER_MAX_DRAFTS = 1
    client.post(f"/s/{shared.share_token}/copy/")
    response = client.post(f"/s/{shared.share_token}/copy/", follow=True)
    assert response.redirect_chain == [(f"/s/{shared.share_token}/", 302)]
    assert "You already have 1 drafts. Sign up" in response.content.decode()
    assert Army.objects.filter(owner=None).count() == 1


def test_a_signed_in_viewer_still_copies_into_the_account(shared):
    viewer = User.objects.create_user("viewer", password=PASSWORD)
    client = Client()
    client.force_login(viewer)
    client.post(f"/s/{shared.share_token}/copy/")
    assert Army.objects.get(owner=viewer).document == shared.document
    page = client.get(f"/s/{shared.share_token}/").content.decode()
    assert ">Copy to my armies</button>" in page


def test_the_share_page_names_the_army_list_and_links_it(client, db):
    owner = User.objects.create_user("owner", password=PASSWORD)
    document = example("into-the-dark-source-examples.json")
    document["army_list"] = "norman-1066"
    army = shared_army(document, owner=owner)
    page = client.get(f"/s/{army.share_token}/").content.decode()
    assert (
        '<a href="/rulesets/into-the-dark/lists/norman-1066/">'
        "List: Norman (Hastings, 1066), revision 1</a>" in page
    )
