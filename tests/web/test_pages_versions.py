"""Cached pages change with what they show (armybuilder/pages.py and each page's version function):
a list made private leaves its rule set's page, its list page and the list API at once, and
the share page of an army built on it no longer links it; an old ETag gets the new page."""

import pytest
from django.test import Client

from armybuilder.armies.models import Army, new_share_token
from armybuilder.catalog import services
from armybuilder.catalog.models import PRIVATE, PUBLISHED, ArmyList
from tests.support import example

RULESET = "feudal-2017"


def visitor() -> Client:
    client = Client()
    client.get("/")
    return client


@pytest.fixture
def published(db, user):
    """A player's list, approved into the public catalogue."""
    model = ArmyList.objects.filter(ruleset=RULESET, author__isnull=True).first()
    return ArmyList.objects.create(
        ruleset=RULESET, slug="alices-own-host-x7k2", name="Alice's Own Host",
        period=model.period, data=model.data, author=user, status=PUBLISHED,
    )  # fmt: skip


def test_a_list_made_private_leaves_the_rule_sets_page_at_once(published, user):
    client = visitor()
    url = f"/rulesets/{RULESET}/"
    before = client.get(url)
    assert "Alice&#x27;s Own Host" in before.content.decode()
    assert client.get(url, headers={"If-None-Match": before["ETag"]}).status_code == 304

    services.set_status(user, army_list=published, status=PRIVATE)

    after = client.get(url, headers={"If-None-Match": before["ETag"]})
    assert after.status_code == 200  # never the old page's 304
    assert after["ETag"] != before["ETag"]
    assert "Alice&#x27;s Own Host" not in after.content.decode()
    # published again (by staff): back on the page
    ArmyList.objects.filter(pk=published.pk).update(status=PUBLISHED)
    assert "Alice&#x27;s Own Host" in client.get(url).content.decode()


def test_a_list_made_private_is_gone_from_its_page_and_the_api_which_no_cache_may_keep(
    published, user
):
    client = visitor()
    page = f"/rulesets/{RULESET}/lists/{published.slug}/"
    api = f"/api/v1/lists/{RULESET}/{published.slug}"
    shown = client.get(page)
    assert shown.status_code == 200
    served = client.get(api)
    assert served.status_code == 200
    cache_control = served["Cache-Control"]
    assert "no-cache" in cache_control and "max-age" not in cache_control

    services.set_status(user, army_list=published, status=PRIVATE)

    assert client.get(page, headers={"If-None-Match": shown["ETag"]}).status_code == 404
    assert client.get(api, headers={"If-None-Match": served["ETag"]}).status_code == 404


def test_the_share_page_of_an_army_on_a_list_made_private_stops_linking_it(published, user):
    document = dict(example("dewitt-medieval-lance-and-bow.json"))
    document.update(ruleset=RULESET, army_list=published.slug)
    army = Army.objects.create(owner=user, document=document, share_token=new_share_token())
    client = visitor()
    url = f"/s/{army.share_token}/"
    link = f'href="/rulesets/{RULESET}/lists/{published.slug}/"'
    before = client.get(url)
    assert before.status_code == 200 and link in before.content.decode()

    services.set_status(user, army_list=published, status=PRIVATE)

    after = client.get(url, headers={"If-None-Match": before["ETag"]})
    assert after.status_code == 200
    assert link not in after.content.decode()


def test_a_list_page_naming_allies_stops_naming_one_made_private(db, user):
    # a rule set whose units may come from another list: each list's page names the others
    ruleset = "dark-ages-d5"
    shown = ArmyList.objects.filter(ruleset=ruleset, author__isnull=True).first()
    model = ArmyList.objects.filter(ruleset=ruleset).exclude(pk=shown.pk).first()
    ally = ArmyList.objects.create(
        ruleset=ruleset, slug="alices-allies-p3w9", name="Alice's Allies",
        period=model.period, data=model.data, author=user, status=PUBLISHED,
    )  # fmt: skip
    client = visitor()
    url = f"/rulesets/{ruleset}/lists/{shown.slug}/"
    before = client.get(url)
    assert "Alice&#x27;s Allies" in before.content.decode()

    services.set_status(user, army_list=ally, status=PRIVATE)

    after = client.get(url, headers={"If-None-Match": before["ETag"]})
    assert after.status_code == 200
    assert "Alice&#x27;s Allies" not in after.content.decode()
