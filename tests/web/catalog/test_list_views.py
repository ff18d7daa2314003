"""The list page: who wrote it, its status and revision; the author's sharing buttons;
copying by anyone who can read it."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from armybuilder.catalog import services
from armybuilder.catalog.models import ArmyList

pytestmark = pytest.mark.django_db


def signed_in(name: str) -> tuple[User, Client]:
    user = User.objects.create_user(name)
    client = Client()
    client.force_login(user)
    return user, client


@pytest.fixture
def norman():
    return ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066")


def page_of(client: Client, army_list: ArmyList) -> str:
    url = f"/rulesets/{army_list.ruleset}/lists/{army_list.slug}/"
    return client.get(url).content.decode()


def test_a_compiled_list_says_muster_compiled_it_and_offers_a_copy(client, norman):
    html = page_of(client, norman)
    assert "Compiled by Muster from the published rules" in html
    assert "<dt>Revision</dt><dd>1</dd>" in html
    assert "Copy this list" in html and "Share by link" not in html


def test_the_author_shares_by_link_renews_the_link_and_makes_it_private(norman):
    ann, client = signed_in("ann")
    mine = services.copy_list(ann, army_list=norman).army_list
    html = page_of(client, mine)
    assert "<dd>ann</dd>" in html and "Private: only its author" in html
    base = f"/rulesets/into-the-dark/lists/{mine.slug}/"
    client.post(base + "status/", {"status": "link"})
    first = ArmyList.objects.get(pk=mine.pk).share_token
    assert first and f"/lists/shared/{first}/" in page_of(client, mine)
    client.post(base + "revoke/")
    second = ArmyList.objects.get(pk=mine.pk).share_token
    assert second and second != first
    assert Client().get(f"/lists/shared/{first}/").status_code == 404
    assert Client().get(f"/lists/shared/{second}/").status_code == 200
    client.post(base + "status/", {"status": "submitted"})
    assert ArmyList.objects.get(pk=mine.pk).status == "submitted"
    assert Client().get(f"/lists/shared/{second}/").status_code == 404


def test_nobody_but_the_author_sees_the_buttons_or_may_publish_by_them(norman):
    ann, _ = signed_in("ann")
    mine = services.copy_list(ann, army_list=norman).army_list
    services.set_status(ann, army_list=mine, status="link")
    _, bob = signed_in("bob")
    html = bob.get(f"/lists/shared/{mine.share_token}/").content.decode()
    assert "Share by link" not in html and "Copy this list" in html
    _, client = signed_in("carol")
    response = client.post(
        f"/rulesets/into-the-dark/lists/{mine.slug}/status/", {"status": "published"}
    )
    assert response.status_code == 404
    ann_client = Client()
    ann_client.force_login(ann)
    ann_client.post(f"/rulesets/into-the-dark/lists/{mine.slug}/status/", {"status": "published"})
    assert ArmyList.objects.get(pk=mine.pk).status == "link"  # staff publish, in the admin


def test_an_opponent_copies_a_list_shared_by_link_and_a_visitor_is_asked_to_sign_in(norman):
    ann, _ = signed_in("ann")
    mine = services.copy_list(ann, army_list=norman).army_list
    services.set_status(ann, army_list=mine, status="link")
    url = f"/lists/shared/{mine.share_token}/copy/"
    visitor = Client().post(url)
    assert visitor.status_code == 302 and "/login" in visitor["Location"]
    bob, client = signed_in("bob")
    response = client.post(url)
    copy = ArmyList.objects.get(author=bob)
    assert response["Location"] == f"/rulesets/into-the-dark/lists/{copy.slug}/"
    assert copy.data == mine.data and copy.status == "private"


def test_a_public_list_is_copied_from_its_copy_page(norman):
    bob, client = signed_in("bob")
    assert (
        "Copy to my lists"
        in client.get("/rulesets/into-the-dark/lists/norman-1066/copy/").content.decode()
    )
    client.post("/rulesets/into-the-dark/lists/norman-1066/copy/")
    assert ArmyList.objects.get(author=bob).data == norman.data


def test_only_a_signed_in_reader_who_is_not_the_author_is_remembered_by_the_link(norman):
    from armybuilder.catalog.models import SharedList

    ann, own_client = signed_in("ann")
    mine = services.set_status(
        ann, army_list=services.copy_list(ann, army_list=norman).army_list, status="link"
    )
    url = f"/lists/shared/{mine.share_token}/"
    assert Client().get(url).status_code == 200  # a visitor reads it, nothing remembered
    assert own_client.get(url).status_code == 200  # the author: it is already theirs
    assert not SharedList.objects.exists()
    bob, client = signed_in("bob")
    client.get(url)
    client.get(url)
    (shared,) = SharedList.objects.all()
    assert (shared.user, shared.army_list, shared.token) == (bob, mine, mine.share_token)
    assert client.get("/lists/shared/made-up-token/").status_code == 404
    assert SharedList.objects.count() == 1
