"""A game against an opponent's army as an event revealed it: offered on My games to the
event's entrants only, frozen from the submitted document (not the live army), and attached
to the event."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from freezegun import freeze_time

from armybuilder.armies.models import Army
from armybuilder.events import services as events
from armybuilder.events.models import Entrant, EventGame, Submission
from armybuilder.games import services as games
from armybuilder.games.models import Game
from tests.web.events.helpers import (
    AFTER_REVEAL,
    REVEAL,
    make_event,
    revealed_world,
    saved_army,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _sessions_reach_the_frozen_days(settings):
    settings.SESSION_COOKIE_AGE = 3 * 365 * 24 * 3600


@pytest.fixture
def world():
    return revealed_world()


def start(client, user, army, submission_pk):
    client.force_login(user)
    return client.post(reverse("games:mine"), {"army_a": army.pk, "event_army": submission_pk})


def test_a_game_from_a_revealed_army_freezes_the_document_the_event_shows(world, client):
    sub = world["bob_sub"]
    # bob edits his army after submitting: the game is against what the event revealed
    changed = {**world["bob_army"].document, "name": "Bob's new host", "units": []}
    Army.objects.filter(pk=world["bob_army"].pk).update(document=changed)
    with freeze_time(AFTER_REVEAL):
        response = start(client, world["alice"], world["alice_army"], sub.pk)
    assert response.status_code == 302
    game = Game.objects.get()
    side = game.side_b
    assert side["name"] == "Bob's huscarls" == sub.army_name
    assert side["document"] == sub.document
    assert side["list_revisions"] == sub.list_revisions and side["list_revisions"]
    assert side["lists_of"] == world["bob"].pk
    assert game.side_a["name"] == "Alice's host"
    assert game.name == "Alice's host v Bob's huscarls"
    assert EventGame.objects.get(game=game).event == world["event"]


def test_the_start_form_offers_revealed_armies_by_event_player_and_army_name(world, client):
    client.force_login(world["alice"])
    with freeze_time(AFTER_REVEAL):
        page = client.get(reverse("games:mine")).content.decode()
    offered = page.split('name="event_army"', 1)[1].split("</select>", 1)[0]
    assert '<optgroup label="Hastings Day">' in offered
    assert f'<option value="{world["bob_sub"].pk}">bob: Bob&#x27;s huscarls</option>' in offered
    assert "Alice&#x27;s host" not in offered  # her own army is among her armies already
    assert "anglo-danish-1066" not in page  # never a list's slug


def test_before_the_reveal_no_event_army_is_offered(world, client):
    client.force_login(world["alice"])
    with freeze_time(REVEAL - timedelta(minutes=1)):
        page = client.get(reverse("games:mine")).content.decode()
    assert 'name="event_army"' not in page and "Bob&#x27;s huscarls" not in page


def _hidden(world, how):
    """A submission alice may not choose, by ``how``."""
    if how == "not approved":
        Submission.objects.filter(pk=world["bob_sub"].pk).update(state=Submission.SUBMITTED)
        return world["bob_sub"].pk
    if how == "another event":
        other = make_event(world["organiser"], name="Other Day")
        entry = events.join(other, user=world["carol"])
        with freeze_time(other.deadline - timedelta(hours=1)):
            made = events.submit(entry, army=saved_army(world["carol"]), by=world["carol"])
        Submission.objects.filter(pk=made.pk).update(state=Submission.APPROVED)
        return made.pk
    if how == "her own":
        return world["alice_sub"].pk
    if how == "withdrawn entrant":
        Entrant.objects.filter(pk=world["bob_sub"].entrant_id).update(state=Entrant.WITHDRAWN)
        return world["bob_sub"].pk
    return {"made up": world["bob_sub"].pk + 1000, "not a number": "1 OR 1=1"}[how]


@pytest.mark.parametrize(
    "how",
    ["not approved", "another event", "her own", "withdrawn entrant", "made up", "not a number"],
)
def test_a_forged_post_for_an_army_not_offered_is_refused_and_makes_nothing(world, client, how):
    value = _hidden(world, how)
    with freeze_time(AFTER_REVEAL):
        response = start(client, world["alice"], world["alice_army"], value)
    assert response.status_code == 400
    assert "not among the revealed armies of your events" in response.content.decode()
    assert not Game.objects.exists() and not EventGame.objects.exists()


def test_an_army_not_yet_revealed_cannot_be_chosen(world, client):
    with freeze_time(REVEAL - timedelta(minutes=1)):
        response = start(client, world["alice"], world["alice_army"], world["bob_sub"].pk)
    assert response.status_code == 400
    assert not Game.objects.exists() and not EventGame.objects.exists()


def test_a_player_outside_the_event_cannot_choose_its_revealed_army(world, client):
    carols = saved_army(world["carol"], name="Carol's host")
    with freeze_time(AFTER_REVEAL):
        response = start(client, world["carol"], carols, world["bob_sub"].pk)
    assert response.status_code == 400
    assert not Game.objects.exists()


def test_a_share_link_and_two_of_my_armies_still_start_games_unattached(world, client):
    client.force_login(world["alice"])
    mine = world["alice_army"]
    with freeze_time(AFTER_REVEAL):
        response = client.post(reverse("games:mine"), {"army_a": mine.pk, "army_b": mine.pk})
    assert response.status_code == 302
    assert Game.objects.count() == 1 and not EventGame.objects.exists()


def test_a_side_from_an_event_says_so_and_its_links_carry_no_notes(world, client):
    sub = world["bob_sub"]
    secret = "Hold the hill whatever Alice does"
    Submission.objects.filter(pk=sub.pk).update(document={**sub.document, "notes": secret})
    with freeze_time(AFTER_REVEAL):
        assert start(client, world["alice"], world["alice_army"], sub.pk).status_code == 302
        game = Game.objects.get()
        event = world["event"].name
        assert game.side_b["from"] == f"Revealed at {event}"
        assert "from" not in game.side_a  # alice's own army
        assert game.side_b["document"]["notes"] == secret  # the owner keeps them
        token = games.set_link(game, which="view", on=True)
        watcher = Client()
        data = watcher.get(reverse("games:shared_export", args=[token])).json()
        page = watcher.get(reverse("games:shared", args=[token])).content.decode()
    assert data["sides"]["b"]["from"] == f"Revealed at {event}"
    assert secret not in json.dumps(data) and secret not in page
    assert f"Revealed at {event}" in page
