"""Joining an event and submitting: locked snapshots checked on the server against the
event's pinned revisions and restrictions, decided by the server's clock."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from freezegun import freeze_time

from armybuilder.armies.models import Army
from armybuilder.catalog import services as catalog
from armybuilder.catalog.models import ArmyList
from armybuilder.events import services
from armybuilder.events.models import Entrant, Submission
from tests.web.events.helpers import DEADLINE, make_event, player, saved_army

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return player("org")


@pytest.fixture
def event(organiser):
    return make_event(organiser)


def submit_page(client, event, army):
    return client.post(reverse("events:submit", args=[event.code]), {"army": army.pk})


def test_a_player_joins_by_code_and_submits_a_locked_snapshot(client, event):
    bob = player("bob")
    client.force_login(bob)
    found = client.get(reverse("events:join"), {"code": event.code.lower()})
    assert found["Location"] == reverse("events:event", args=[event.code])
    client.post(reverse("events:enter", args=[event.code]))
    army = saved_army(bob)
    with freeze_time(DEADLINE - timedelta(hours=1)):
        response = submit_page(client, event, army)
    assert response.status_code == 302
    submission = Submission.objects.get(entrant__user=bob)
    assert submission.valid and not submission.late
    assert submission.list_revisions == {"viking": 1}
    assert len(submission.content_hash) == 64
    # the army changes afterwards; the submission does not
    Army.objects.filter(pk=army.pk).update(document={**army.document, "name": "Changed"})
    submission.refresh_from_db()
    assert submission.army_name == "Test army"
    page = client.get(reverse("events:entry", args=[event.code])).content.decode()
    assert "Submission 1" in page and "Test army" in page


def test_every_problem_is_cited_before_and_after_submitting(client, event):
    bob = player("bob")
    client.force_login(bob)
    services.join(event, user=bob)
    army = saved_army(bob, extra=4)  # 7 units: above the event's 5
    with freeze_time(DEADLINE - timedelta(hours=1)):
        preview = client.get(reverse("events:entry", args=[event.code]), {"army": army.pk})
        assert "Event restriction 1: At most 5 units." in preview.content.decode()
        submit_page(client, event, army)
    submission = Submission.objects.get(entrant__user=bob)
    assert not submission.valid
    cited = {p["rule"] for p in submission.problems if p["severity"] == "error"}
    assert "Event restriction 1: At most 5 units." in cited


def test_an_army_over_the_points_limit_is_refused_with_the_limit_cited(event):
    bob = player("bob")
    entrant = services.join(event, user=bob)
    army = saved_army(bob, slug="norman-1066", extra=2)  # Norman: not an allowed list
    with freeze_time(DEADLINE - timedelta(hours=1)):
        made = services.submit(entrant, army=army, by=bob)
    rules_cited = {p["rule"] for p in made.problems}
    assert "Event army lists" in rules_cited
    event.points_limit = 100
    event.save()
    with freeze_time(DEADLINE - timedelta(hours=1)):
        made = services.submit(entrant, army=saved_army(bob), by=bob)
    assert "Event points limit" in {p["rule"] for p in made.problems}


def test_resubmitting_keeps_every_submission_and_the_organiser_holds_the_newest(event):
    bob = player("bob")
    entrant = services.join(event, user=bob)
    with freeze_time(DEADLINE - timedelta(hours=2)):
        first = services.submit(entrant, army=saved_army(bob, name="First"), by=bob)
        second = services.submit(entrant, army=saved_army(bob, name="Second"), by=bob)
    assert (first.number, second.number) == (1, 2)
    assert Submission.objects.filter(entrant=entrant).count() == 2
    from armybuilder.events.selectors import held

    assert held(entrant) == second


def test_the_deadline_is_the_servers_clock_in_the_events_time_zone(client, organiser):
    """Deadline entered as 18:00 in New York is 22:00 UTC (summer time)."""
    client.force_login(organiser)
    viking = ArmyList.objects.get(ruleset="into-the-dark", slug="viking")
    response = client.post(
        reverse("events:new"),
        {
            "name": "Summer muster",
            "date": "2027-06-07",
            "place": "Club hall",
            "time_zone": "America/New_York",
            "ruleset": "into-the-dark",
            "points_limit": "600",
            "lists": [f"into-the-dark/viking/{viking.latest_revision}"],
            "deadline": "2027-06-01T18:00",
            "reveal_at": "2027-06-02T09:00",
            "max_units": "5",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    from armybuilder.events.models import Event

    event = Event.objects.get(name="Summer muster")
    assert event.deadline.isoformat() == "2027-06-01T22:00:00+00:00"
    bob = player("bob")
    entrant = services.join(event, user=bob)
    with freeze_time("2027-06-01T21:59:59Z"):
        on_time = services.submit(entrant, army=saved_army(bob), by=bob)
    with (
        freeze_time("2027-06-01T22:00:01Z"),
        pytest.raises(services.Refused, match="deadline has passed"),
    ):
        services.submit(entrant, army=saved_army(bob), by=bob)
    assert not on_time.late


def test_a_submission_racing_the_deadline_is_on_time_or_late_never_lost(event):
    bob = player("bob")
    entrant = services.join(event, user=bob)
    with freeze_time(DEADLINE):
        exactly = services.submit(entrant, army=saved_army(bob), by=bob)
    with freeze_time(DEADLINE + timedelta(microseconds=1)):
        after = services.submit(entrant, army=saved_army(bob), by=bob)
    assert (exactly.late, after.late) == (False, True)
    assert exactly.submitted_at == DEADLINE
    assert Submission.objects.filter(entrant=entrant).count() == 2


def test_an_unlocked_entrant_submits_on_time_past_a_closed_deadline_and_is_told_who_did_it(
    event, organiser
):
    event.accept_late = False
    event.save()
    bob = player("bob")
    entrant = services.join(event, user=bob)
    with freeze_time(DEADLINE + timedelta(hours=1)):
        with pytest.raises(services.Refused):
            services.submit(entrant, army=saved_army(bob), by=bob)
        services.set_lock(entrant, by=organiser, lock=Entrant.OPEN)
        entrant.refresh_from_db()
        made = services.submit(entrant, army=saved_army(bob), by=bob)
    assert not made.late  # the organiser let them: not late
    assert entrant.notes.filter(author=organiser, action="unlocked your submission").exists()


def test_a_full_event_puts_players_on_its_waiting_list_and_a_withdrawal_lets_one_in(
    event, organiser
):
    event.cap = 1
    event.save()
    first = services.join(event, user=player("bob"))
    second = services.join(event, user=player("cat"))
    assert (first.state, second.state) == (Entrant.ENTERED, Entrant.WAITING)
    services.withdraw(first, by=organiser)
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.state, second.state) == (Entrant.WITHDRAWN, Entrant.ENTERED)
    assert Entrant.objects.filter(pk=first.pk).exists()  # the record is kept


def test_the_event_checks_against_its_pinned_revision_after_the_list_changes(event):
    viking = ArmyList.objects.get(ruleset="into-the-dark", slug="viking")
    pinned = viking.latest_revision
    data = {**viking.data, "entries": [dict(e) for e in viking.data["entries"]]}
    data["entries"][0]["min"] = 3  # the new revision wants three units of hirdmen
    data["entries"][0]["max"] = 3
    catalog.save_list(viking, data=data)
    viking.refresh_from_db()
    assert viking.latest_revision == pinned + 1
    bob = player("bob")
    entrant = services.join(event, user=bob)
    army = saved_army(bob)
    assert army.list_pins == {"viking": pinned + 1}
    with freeze_time(DEADLINE - timedelta(hours=1)):
        made = services.submit(entrant, army=army, by=bob)
    assert made.valid, made.problems
    assert made.list_revisions == {"viking": pinned}


def test_an_army_on_another_revision_is_offered_the_diff_to_the_events(client, event):
    viking = ArmyList.objects.get(ruleset="into-the-dark", slug="viking")
    data = {**viking.data, "entries": [dict(e) for e in viking.data["entries"]]}
    data["entries"][0]["max"] = 1
    catalog.save_list(viking, data=data)
    bob = player("bob")
    services.join(event, user=bob)
    army = saved_army(bob)  # pinned to the newer revision
    client.force_login(bob)
    page = client.get(
        reverse("events:entry", args=[event.code]), {"army": army.pk}
    ).content.decode()
    assert "this event uses revision 1" in page
    assert "Hirdmen" in page
    client.post(reverse("events:pin", args=[event.code]), {"army": army.pk, "list": "viking"})
    army.refresh_from_db()
    assert army.list_pins == {"viking": 1}


def test_an_army_document_of_the_wrong_rule_set_is_not_offered(client, event):
    bob = player("bob")
    services.join(event, user=bob)
    client.force_login(bob)
    from armybuilder.armies.making.lifecycle import create_army
    from tests.support import DEWITT_KNIGHT, army

    other = create_army(army("dewitt-medieval", [DEWITT_KNIGHT]), owner=bob)
    with freeze_time(DEADLINE - timedelta(hours=1)):
        submit_page(client, event, other)
    assert not Submission.objects.exists()


def test_a_player_has_an_end_to_resubmitting_but_the_organiser_can_still_submit(
    event, organiser, monkeypatch
):
    monkeypatch.setattr(services, "MAX_SUBMISSIONS", 2)
    bob = player("bob")
    entrant = services.join(event, user=bob)
    army = saved_army(bob)
    with freeze_time(DEADLINE - timedelta(hours=1)):
        services.submit(entrant, army=army, by=bob)
        services.submit(entrant, army=army, by=bob)
        with pytest.raises(services.Refused, match="submitted 2 times"):
            services.submit(entrant, army=army, by=bob)
        services.submit(entrant, army=army, by=organiser, on_behalf=True)
    assert Submission.objects.filter(entrant=entrant).count() == 3
