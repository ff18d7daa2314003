"""Lateness belongs to the player's own last submission: an organiser returning an
on-time army to draft after the deadline and submitting it again for them keeps it on
time; a player who never submitted is late when the organiser submits for them late."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.urls import reverse
from freezegun import freeze_time

from armybuilder.events import services
from armybuilder.events.selectors import held
from tests.web.events.helpers import DEADLINE, make_event, player, saved_army

pytestmark = pytest.mark.django_db
AFTER = DEADLINE + timedelta(hours=6)


def post(client, event, entrant, action, **data):
    url = reverse("events:entrant_action", args=[event.code, entrant.pk, action])
    return client.post(url, data)


def csv_rows(client, event):
    response = client.get(reverse("events:desk_csv", args=[event.code]))
    return {row["player"]: row for row in csv.DictReader(io.StringIO(response.content.decode()))}


def test_return_and_resubmit_on_their_behalf_after_the_deadline_keeps_the_player_on_time(client):
    organiser, bob = player("org"), player("bob")
    event = make_event(organiser)
    entrant = services.join(event, user=bob)
    with freeze_time(DEADLINE - timedelta(hours=1)):
        army = saved_army(bob, name="Bob's host")
        first = services.submit(entrant, army=army, by=bob)
    assert not first.late
    with freeze_time(AFTER):
        client.force_login(organiser)
        post(client, event, entrant, "return", submission=first.pk, version=first.version)
        assert held(entrant) is None
        post(client, event, entrant, "submit", army=army.pk)
        again = held(entrant)
        rows = csv_rows(client, event)
        desk = client.get(reverse("events:desk", args=[event.code])).content.decode()
    assert again.number == 2 and again.submitted_by == organiser and not again.late
    assert rows["bob"]["late"] == "no" and rows["bob"]["submitted by"] == "org"
    assert "0 late" in desk


def test_a_player_whose_own_last_submission_was_late_stays_late(client):
    organiser, bob = player("org"), player("bob")
    event = make_event(organiser)  # late submissions accepted
    entrant = services.join(event, user=bob)
    with freeze_time(AFTER):
        army = saved_army(bob, name="Bob's host")
        first = services.submit(entrant, army=army, by=bob)
        assert first.late
        services.return_to_draft(entrant, by=organiser, seen=(first.pk, first.version))
        again = services.submit(entrant, army=army, by=organiser, on_behalf=True)
    assert again.late
