"""The player's entry page says what applies to them: "Start one" only to a player with
no army, a confirmation for their message, and no "submit again" for a rolled force."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from freezegun import freeze_time

from armybuilder.events import services
from armybuilder.events.models import Entrant
from tests.web.events.helpers import DEADLINE, make_event, player, saved_army

pytestmark = pytest.mark.django_db
DAY = DEADLINE - timedelta(hours=2)


def entry(client, event):
    return client.get(reverse("events:entry", args=[event.code])).content.decode()


def test_start_one_is_offered_only_to_a_player_without_an_army(client):
    event, bob = make_event(player("org")), player("bob")
    services.join(event, user=bob)
    client.force_login(bob)
    with freeze_time(DAY):
        assert "No army yet?" in entry(client, event)
        saved_army(bob)
        page = entry(client, event)
    assert "No army yet?" not in page and "start another army" in page


def test_a_players_message_is_confirmed(client):
    event, bob = make_event(player("org")), player("bob")
    services.join(event, user=bob)
    client.force_login(bob)
    with freeze_time(DAY):
        sent = client.post(
            reverse("events:reply", args=[event.code]), {"text": "Is a ram allowed?"}, follow=True
        )
    page = sent.content.decode()
    assert "Sent to the organisers" in page and "Is a ram allowed?" in page


def test_a_rolled_force_is_not_offered_to_be_replaced(client):
    event = make_event(
        player("org"),
        ruleset="feudal-2017",
        lists=["north-welsh"],
        points_limit=None,
        restrictions=[],
        forces_rolled=True,
    )
    bob = player("bob")
    services.join(event, user=bob)
    client.force_login(bob)
    with freeze_time(DAY):
        client.post(reverse("events:roll", args=[event.code]), {"list": "north-welsh"})
        page = entry(client, event)
    assert "submit again to replace it" not in page
    assert "A rolled force is never rolled again, so it stays your submission." in page


def lock_buttons(client, event, entrant):
    desk = client.get(reverse("events:desk", args=[event.code])).content.decode()
    row = desk[desk.index(f'id="entrant-{entrant.pk}"') :]
    row = row[: row.index("</tr>")]
    return [word for word in ("Unlock", "Lock") if f">{word}</button>" in row]


def test_each_desk_row_shows_the_lock_action_that_applies(client):
    organiser, bob = player("org"), player("bob")
    event = make_event(organiser)
    entrant = services.join(event, user=bob)
    client.force_login(organiser)
    with freeze_time(DAY):
        assert lock_buttons(client, event, entrant) == ["Lock"]  # before the deadline
    with freeze_time(DEADLINE + timedelta(hours=1)):
        assert lock_buttons(client, event, entrant) == ["Unlock"]  # past it
        Entrant.objects.filter(pk=entrant.pk).update(lock=Entrant.OPEN)
        assert lock_buttons(client, event, entrant) == ["Lock"]
        Entrant.objects.filter(pk=entrant.pk).update(lock=Entrant.LOCKED)
        assert lock_buttons(client, event, entrant) == ["Unlock"]
