"""Every organiser's decision names the submission (and version) it was made on; if the
entrant submitted again, or another organiser decided meanwhile, it is refused and nothing
changes. One thread per entrant spans all their submissions."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from freezegun import freeze_time

from armybuilder.events import services
from armybuilder.events.models import Submission
from armybuilder.events.selectors import held
from tests.web.events.helpers import DEADLINE, make_event, player, saved_army

pytestmark = pytest.mark.django_db
DAY = DEADLINE - timedelta(hours=3)


@pytest.fixture
def world():
    organiser, bob = player("org"), player("bob")
    event = make_event(organiser)
    entrant = services.join(event, user=bob)
    with freeze_time(DAY):
        first = services.submit(entrant, army=saved_army(bob, name="Five units"), by=bob)
    return event, organiser, bob, entrant, first


def decide(client, event, entrant, submission, version, state, text=""):
    url = reverse("events:entrant_action", args=[event.code, entrant.pk, "note"])
    data = {"submission": submission.pk, "version": version, "state": state, "text": text}
    return client.post(url, {**data, "back_to": submission.pk})


def test_an_approval_on_a_page_left_open_is_refused_after_a_resubmission(world, client):
    event, organiser, bob, entrant, first = world
    with freeze_time(DAY + timedelta(minutes=5)):
        client.force_login(organiser)
        page = client.get(reverse("events:submission", args=[event.code, first.pk]))
        assert 'name="version" value="1"' in page.content.decode()
        second = services.submit(entrant, army=saved_army(bob, name="Eight units", extra=3), by=bob)
        response = decide(client, event, entrant, first, 1, "approved", "Looks good")
        assert response.status_code == 302
        assert response["Location"].startswith(
            reverse("events:submission", args=[event.code, first.pk])
        )
        shown = client.get(response["Location"]).content.decode()
    assert "submitted again at" in shown and "look at the new one" in shown
    assert "Looks good" in shown  # the refused decision's message is kept in the form
    assert Submission.objects.get(pk=second.pk).state == Submission.SUBMITTED
    assert Submission.objects.get(pk=first.pk).state == Submission.SUBMITTED
    desk = client.get(reverse("events:desk", args=[event.code])).content.decode()
    assert "0 approved" in desk


def test_a_decision_on_a_version_another_organiser_changed_is_refused(world, client):
    event, organiser, bob, entrant, first = world
    co = player("co")
    event.co_organisers.add(co)
    with freeze_time(DAY + timedelta(minutes=5)):
        client.force_login(co)
        decide(client, event, entrant, first, 1, "needs_changes", "Too many")
        client.force_login(organiser)
        response = decide(client, event, entrant, first, 1, "approved")
        shown = client.get(response["Location"]).content.decode()
    assert "changed at" in shown and "Needs changes" in shown
    assert held(entrant).state == Submission.NEEDS_CHANGES and held(entrant).version == 2


def test_a_decision_without_the_submission_it_was_made_on_is_refused(world, client):
    event, organiser, bob, entrant, first = world
    client.force_login(organiser)
    with freeze_time(DAY):
        client.force_login(organiser)
        url = reverse("events:entrant_action", args=[event.code, entrant.pk, "return"])
        client.post(url)
    assert held(entrant) == first


def test_a_players_reply_stays_on_the_organisers_thread_after_a_resubmission(world, client):
    event, organiser, bob, entrant, first = world
    with freeze_time(DAY + timedelta(minutes=1)):
        client.force_login(bob)
        client.post(reverse("events:reply", args=[event.code]), {"text": "Is the ram legal?"})
        second = services.submit(entrant, army=saved_army(bob, name="Trimmed"), by=bob)
        client.force_login(organiser)
        page = client.get(reverse("events:submission", args=[event.code, second.pk]))
    text = page.content.decode()
    assert "Is the ram legal?" in text and "(about submission 1)" in text
    assert "No messages yet" not in text


def test_the_desk_messages_reminds_and_submits_for_an_entrant_who_has_not(world, client):
    event, organiser, bob, entrant, first = world
    cat = player("cat")
    missing = services.join(event, user=cat)
    built = saved_army(organiser, name="Built by the organiser")
    with freeze_time(DAY):
        client.force_login(organiser)
        desk = client.get(reverse("events:desk", args=[event.code])).content.decode()
        assert "Remind to submit" in desk and "Submit for cat" in desk
        for action, data in (
            ("remind", {}),
            ("note", {"text": "Your list, please"}),
            ("submit", {"army": built.pk}),
        ):
            url = reverse("events:entrant_action", args=[event.code, missing.pk, action])
            client.post(url, data)
    notes = [(n.action, n.text) for n in missing.notes.all()]
    assert notes[0][0] == "reminded you to submit" and "Submissions close" in notes[0][1]
    assert ("", "Your list, please") in notes
    assert held(missing).army_name == "Built by the organiser"
