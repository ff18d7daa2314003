"""An event shares the lists it pins with everyone in it, while it lasts: a list shared
by link with the organiser is read, opened and built on by the event's entrants, and
by no one else through the event."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from freezegun import freeze_time

from armybuilder.armies.models import Army
from armybuilder.catalog import services as catalog
from armybuilder.catalog.models import LINK, SharedList
from armybuilder.events import services
from tests.web.catalog.test_services_access import player_list
from tests.web.events.helpers import make_event, player

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    author, organiser, entrant, stranger = (player(n) for n in ("ann", "org", "eve", "sam"))
    shared = catalog.set_status(
        author, army_list=player_list(author, name="Ann's Wessex"), status=LINK
    )
    other = catalog.set_status(
        author, army_list=player_list(author, name="Ann's Mercia"), status=LINK
    )
    # the organiser opened the link the author gave them, as the share page records it
    SharedList.objects.create(army_list=shared, user=organiser, token=shared.share_token)
    event = make_event(organiser, lists=["viking", shared.slug])
    services.join(event, user=entrant)
    return {
        "author": author,
        "organiser": organiser,
        "entrant": entrant,
        "stranger": stranger,
        "shared": shared,
        "other": other,
        "event": event,
    }


def list_page(army_list):
    return reverse("catalog:army_list", args=[army_list.ruleset, army_list.slug])


def api(army_list):
    return f"/api/v1/lists/{army_list.ruleset}/{army_list.slug}"


def test_an_entrant_reads_a_link_shared_list_the_event_pins(world, client):
    shared, event = world["shared"], world["event"]
    client.force_login(world["entrant"])
    page = client.get(reverse("events:event", args=[event.code])).content.decode()
    assert f'href="{list_page(shared)}">Ann' in page
    opened = client.get(list_page(shared))
    assert opened.status_code == 200 and shared.share_token not in opened.content.decode()
    assert client.get(api(shared)).json()["name"] == "Ann's Wessex"
    entry = client.get(reverse("events:entry", args=[event.code])).content.decode()
    assert f'href="{list_page(shared)}"' in entry


def test_an_entrant_starts_an_army_on_the_pinned_list_without_its_share_link(world, client):
    shared = world["shared"]
    client.force_login(world["entrant"])
    start = client.get(reverse("armies:start", args=[shared.ruleset])).content.decode()
    assert "Lists of my events" in start and "Ann&#x27;s Wessex" in start
    assert shared.share_token not in start  # the link is the organiser's, not passed on
    made = client.post(
        reverse("armies:new"),
        {"ruleset": shared.ruleset, "army_list": shared.slug, "name": "Eve's fyrd"},
    )
    assert made.status_code == 302
    army = Army.objects.get(owner=world["entrant"])
    assert army.document["army_list"] == shared.slug


def test_only_the_pinned_lists_and_only_for_those_in_the_event(world, client):
    shared, other, event = world["shared"], world["other"], world["event"]
    client.force_login(world["entrant"])
    assert client.get(list_page(other)).status_code == 404  # the author's list not pinned
    assert client.get(api(other)).status_code == 404
    client.force_login(world["stranger"])
    assert client.get(list_page(shared)).status_code == 404
    assert client.get(api(shared)).status_code == 404
    page = client.get(reverse("events:event", args=[event.code])).content.decode()
    assert f'href="{list_page(shared)}"' not in page
    assert "enter the event to read them" in page


def test_a_withdrawn_entrant_no_longer_reads_it(world, client):
    entrant = world["entrant"]
    services.withdraw(world["event"].entrants.get(user=entrant), by=world["organiser"])
    client.force_login(entrant)
    assert client.get(list_page(world["shared"])).status_code == 404


def test_the_grant_ends_when_the_event_is_over(world, client):
    client.force_login(world["entrant"])
    with freeze_time(world["event"].date + timedelta(days=1)):
        assert client.get(list_page(world["shared"])).status_code == 200  # its day, somewhere
    with freeze_time(world["event"].date + timedelta(days=2)):
        assert client.get(list_page(world["shared"])).status_code == 404


def test_the_grant_ends_with_the_organisers_link(world, client):
    catalog.revoke_link(world["author"], army_list=world["shared"])
    client.force_login(world["entrant"])
    assert client.get(list_page(world["shared"])).status_code == 404


def test_an_entrant_cannot_copy_it_nor_pin_it_in_an_event_of_their_own(world, client):
    shared = world["shared"]
    client.force_login(world["entrant"])
    copy = reverse("catalog:list_copy", args=[shared.ruleset, shared.slug])
    assert client.post(copy).status_code == 404
    assert "Copy this list" not in client.get(list_page(shared)).content.decode()
    form = client.get(reverse("events:new")).content.decode()
    assert shared.slug not in form


def test_the_rules_file_carries_a_shared_lists_data_only_to_those_in_the_event(world, client):
    shared, event = world["shared"], world["event"]
    url = reverse("events:rules_file", args=[event.code])
    assert client.get(url).status_code == 404  # a visitor
    client.force_login(world["stranger"])
    assert client.get(url).status_code == 404
    client.force_login(world["entrant"])
    document = json.loads(client.get(url).content)
    assert shared.slug in {item["slug"] for item in document["lists"]}
    client.force_login(world["organiser"])
    assert client.get(url).status_code == 200
    with freeze_time(event.date + timedelta(days=2)):  # over: the entrants' grant ended
        assert client.get(url).status_code == 200
        client.force_login(world["entrant"])
        assert client.get(url).status_code == 404


def test_the_rules_file_of_public_lists_stays_anyones(client):
    event = make_event(player("org"))
    assert client.get(reverse("events:rules_file", args=[event.code])).status_code == 200


def test_the_event_form_says_what_ticking_a_shared_list_shares(world, client):
    client.force_login(world["organiser"])
    form = client.get(reverse("events:edit", args=[world["event"].code])).content.decode()
    assert "Ann&#x27;s Wessex, revision 1 (latest) — shared with you by link" in form
    assert "everyone in it may read it and build armies on it" in form
