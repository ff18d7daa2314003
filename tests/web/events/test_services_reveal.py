"""From the reveal every submission is final: nothing submitted, replaced, returned or
withdrawn, unless the organiser explicitly reopens the event (recorded and shown)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from freezegun import freeze_time

from armybuilder.events import services
from armybuilder.events.models import Entrant, Submission
from armybuilder.events.selectors import approved_submissions, held
from tests.web.events.helpers import DEADLINE, REVEAL, make_event, player, saved_army

pytestmark = pytest.mark.django_db
AFTER = REVEAL + timedelta(minutes=5)


@pytest.fixture
def world():
    organiser, bob = player("org"), player("bob")
    event = make_event(organiser, accept_late=True)
    entrant = services.join(event, user=bob)
    with freeze_time(DEADLINE - timedelta(hours=1)):
        first = services.submit(entrant, army=saved_army(bob, name="Approved host"), by=bob)
    Submission.objects.filter(pk=first.pk).update(state=Submission.APPROVED)
    return event, organiser, bob, entrant, first


def test_after_the_reveal_no_late_army_replaces_the_approved_one(world):
    event, organiser, bob, entrant, first = world
    with freeze_time(AFTER):
        with pytest.raises(services.Refused, match="final unless the organiser reopens"):
            services.submit(entrant, army=saved_army(bob, name="Swapped host"), by=bob)
        with pytest.raises(services.Refused, match="revealed"):
            services.submit(entrant, army=saved_army(organiser), by=organiser, on_behalf=True)
        assert [s.pk for s in approved_submissions(event)] == [first.pk]
        assert services.may_submit(Entrant.objects.get(pk=entrant.pk), AFTER) == (False, False)


def test_after_the_reveal_nothing_is_returned_withdrawn_or_decided(world):
    event, organiser, bob, entrant, first = world
    seen = (first.pk, first.version)
    with freeze_time(AFTER):
        with pytest.raises(services.Refused, match="reopen the event"):
            services.return_to_draft(entrant, by=organiser, seen=seen)
        with pytest.raises(services.Refused, match="reopen the event"):
            services.withdraw(entrant, by=organiser)
        with pytest.raises(services.Refused, match="reopen the event"):
            services.post_note(
                entrant, by=organiser, text="", state="needs_changes", runs_event=True, seen=seen
            )
        services.post_note(entrant, by=organiser, text="Well played.", runs_event=True, seen=seen)
    entrant.refresh_from_db()
    assert entrant.state == Entrant.ENTERED and held(entrant).state == Submission.APPROVED


def test_an_explicit_reopen_lets_a_submission_in_and_everyone_is_told(world, client):
    event, organiser, bob, entrant, first = world
    with freeze_time(AFTER):
        services.reopen(event, by=organiser, open_=True)
        event.refresh_from_db()
        made = services.submit(entrant, army=saved_army(bob, name="Swapped host"), by=bob)
        assert made.number == 2 and made.late
        client.force_login(bob)
        page = client.get(reverse("events:event", args=[event.code])).content.decode()
        assert "reopened submissions after the reveal" in page
        entry = client.get(reverse("events:entry", args=[event.code])).content.decode()
        assert "org</strong> reopened submissions after the reveal" in entry
        services.reopen(event, by=organiser, open_=False)
        event.refresh_from_db()
        with pytest.raises(services.Refused, match="final"):
            services.submit(entrant, army=saved_army(bob), by=bob)
    assert entrant.notes.filter(action="made the submissions final again").exists()


def test_the_reveal_is_read_on_the_servers_clock_to_the_second(world):
    event, organiser, bob, entrant, first = world
    with freeze_time(REVEAL - timedelta(seconds=1)):
        assert services.submit(entrant, army=saved_army(bob), by=bob).late
    with freeze_time(REVEAL), pytest.raises(services.Refused):
        services.submit(entrant, army=saved_army(bob), by=bob)


def test_a_withdrawal_asks_first_and_can_be_undone(world, client):
    event, organiser, bob, entrant, first = world
    client.force_login(organiser)
    with freeze_time(DEADLINE - timedelta(hours=2)):
        client.force_login(organiser)
        desk = client.get(reverse("events:desk", args=[event.code])).content.decode()
        assert '<summary class="danger">Withdraw…</summary>' in desk
        assert "Yes, withdraw bob" in desk
        url = reverse("events:entrant_action", args=[event.code, entrant.pk, "withdraw"])
        client.post(url)
        entrant.refresh_from_db()
        assert entrant.state == Entrant.WITHDRAWN
        desk = client.get(reverse("events:desk", args=[event.code])).content.decode()
        assert "Undo the withdrawal" in desk
        client.post(reverse("events:entrant_action", args=[event.code, entrant.pk, "reinstate"]))
    entrant.refresh_from_db()
    assert entrant.state == Entrant.ENTERED
    assert entrant.notes.filter(action__startswith="undid the withdrawal").exists()
