"""Share, rule-set and army-list pages: ETag and Last-Modified from the army or list
version, 304 on repeat, HTML cached per version and per visitor."""

import pytest
from django.test import Client

from armybuilder.armies import services
from armybuilder.armies.models import Army, new_share_token
from armybuilder.catalog.models import ArmyList
from tests.support import example


def visitor() -> Client:
    """A browser that has been here before (it holds a CSRF cookie)."""
    client = Client()
    client.get("/")
    assert "csrftoken" in client.cookies
    return client


@pytest.fixture
def saved(db, user):
    return Army.objects.create(
        owner=user,
        document=example("dewitt-medieval-lance-and-bow.json"),
        share_token=new_share_token(),  # shared by its owner
    )


def pages(saved):
    some_list = ArmyList.objects.filter(ruleset="feudal-2017").first()
    return [
        f"/s/{saved.share_token}/",
        "/rulesets/feudal-2017/",
        f"/rulesets/feudal-2017/lists/{some_list.slug}/",
    ]


def test_each_page_answers_304_for_its_etag_and_serves_cached_html(saved):
    client = visitor()
    for url in pages(saved):
        first = client.get(url)
        assert first.status_code == 200, url
        etag = first["ETag"]
        assert first["Last-Modified"]
        assert "no-cache" in first["Cache-Control"] and "private" in first["Cache-Control"]
        assert first["X-Muster-Page-Cache"] == "miss"
        again = client.get(url, headers={"If-None-Match": etag})
        assert again.status_code == 304, url
        assert again["ETag"] == etag
        assert again.content == b""
        cached = client.get(url)
        assert cached["X-Muster-Page-Cache"] == "hit"
        assert _without_tokens(cached.content) == _without_tokens(first.content)
        assert client.get(url, headers={"If-None-Match": '"other"'}).status_code == 200


def test_a_saved_edit_changes_the_share_pages_etag(saved, user):
    client = visitor()
    url = f"/s/{saved.share_token}/"
    before = client.get(url)
    document = dict(saved.document, name="Renamed host")
    services.save_document(saved, raw=document, version=saved.version)
    after = client.get(url, headers={"If-None-Match": before["ETag"]})
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert "Renamed host" in after.content.decode()


def test_an_edited_army_list_changes_its_pages_etags(saved):
    client = visitor()
    army_list = ArmyList.objects.filter(ruleset="feudal-2017").first()
    urls = ["/rulesets/feudal-2017/", f"/rulesets/feudal-2017/lists/{army_list.slug}/"]
    before = [client.get(url)["ETag"] for url in urls]
    army_list.name = "Renamed list"
    army_list.save()
    for url, etag in zip(urls, before, strict=True):
        response = client.get(url, headers={"If-None-Match": etag})
        assert response.status_code == 200
        assert "Renamed list" in response.content.decode()


def test_another_visitor_never_gets_my_cached_page(saved, user):
    mine = visitor()
    mine.force_login(user)
    url = f"/s/{saved.share_token}/"
    my_page = mine.get(url)
    assert user.username in my_page.content.decode()
    theirs = visitor()
    their_page = theirs.get(url, headers={"If-None-Match": my_page["ETag"]})
    assert their_page.status_code == 200
    assert their_page["ETag"] != my_page["ETag"]
    assert their_page["X-Muster-Page-Cache"] == "miss"
    assert user.username not in their_page.content.decode()
    assert mine.cookies["csrftoken"].value not in their_page.content.decode()


def _without_tokens(page: bytes) -> bytes:
    """The page with its CSRF tokens (masked afresh for every response) blanked out."""
    import re

    return re.sub(rb'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[A-Za-z0-9]+', rb"\1", page)


def _token_in(page: bytes) -> str:
    import re

    found = re.search(rb'name="csrfmiddlewaretoken" value="([A-Za-z0-9]+)"', page)
    assert found, "the page has a form with a CSRF token"
    return found.group(1).decode()


def test_first_visits_without_a_cookie_share_one_rendering_each_with_its_own_token(saved):
    from django.middleware.csrf import _unmask_cipher_token

    url = "/rulesets/feudal-2017/"  # its "Start an army" is a one-click form
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    one, two = first.get(url), second.get(url)
    assert one.status_code == two.status_code == 200
    assert one["X-Muster-Page-Cache"] == "miss" and two["X-Muster-Page-Cache"] == "hit"
    tokens = [_token_in(one.content), _token_in(two.content)]
    assert tokens[0] != tokens[1]
    for client, token in zip((first, second), tokens, strict=True):
        secret = client.cookies["csrftoken"].value  # each got its cookie, and a token of it
        assert _unmask_cipher_token(token) == secret
        assert _unmask_cipher_token(_token_in(client.get(url).content)) == secret
    # the token works: the page's start form posts with it
    started = second.post(
        "/armies/new/", {"csrfmiddlewaretoken": tokens[1], "ruleset": "feudal-2017"}
    )
    assert started.status_code == 302 and Army.objects.filter(owner=None).exists()
    assert "placeholder" not in one.content.decode() + two.content.decode()


def test_a_visitors_share_page_is_one_rendering_for_all_with_no_token_in_it(saved):
    url = f"/s/{saved.share_token}/"
    one, two = Client().get(url), Client().get(url)
    assert one["X-Muster-Page-Cache"] == "miss" and two["X-Muster-Page-Cache"] == "hit"
    assert one.content == two.content and b"csrf" not in one.content.lower()
    assert not one.cookies and not two.cookies


def test_a_browser_with_a_new_cookie_never_gets_a_304_for_a_page_with_its_old_token(saved):
    client = visitor()
    url = f"/s/{saved.share_token}/"
    etag = client.get(url)["ETag"]
    client.cookies["csrftoken"] = "x" * 32
    fresh = client.get(url, headers={"If-None-Match": etag})
    assert fresh.status_code == 200 and fresh["ETag"] != etag


def test_a_revoked_share_link_is_still_a_404(saved):
    client = visitor()
    token = saved.share_token
    assert client.get(f"/s/{token}/").status_code == 200
    Army.objects.filter(pk=saved.pk).update(share_token=None)
    assert client.get(f"/s/{token}/").status_code == 404


def test_a_deleted_armys_share_page_is_a_404_even_for_a_matching_etag(saved):
    from django.utils import timezone

    client = visitor()
    url = f"/s/{saved.share_token}/"
    etag = client.get(url)["ETag"]
    Army.objects.filter(pk=saved.pk).update(deleted_at=timezone.now())
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 404
