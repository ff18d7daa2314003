"""Approving: an army that is not legal is approved only after a warning and a second,
explicit step; an approved army made not legal by a change of the rules is flagged on the
desk, told to its player and marked in the pack; a decision already made is not posted
again."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.urls import reverse
from freezegun import freeze_time
from pypdf import PdfReader

from armybuilder.events import services
from armybuilder.events.models import Pack, Submission
from armybuilder.events.pack import cover_rows
from armybuilder.events.selectors import approved_submissions, held
from tests.web.events.helpers import DEADLINE, make_event, player, saved_army

pytestmark = pytest.mark.django_db
DAY = DEADLINE - timedelta(hours=3)


@pytest.fixture
def world():
    organiser, bob, amy = player("org"), player("bob"), player("amy")
    event = make_event(organiser)  # at most 5 units
    with freeze_time(DAY):
        bob_entry, amy_entry = services.join(event, user=bob), services.join(event, user=amy)
        too_big = services.submit(
            bob_entry, army=saved_army(bob, name="Bob's big host", extra=3), by=bob
        )
        fine = services.submit(amy_entry, army=saved_army(amy, name="Amy's host"), by=amy)
    assert not too_big.valid and fine.valid
    return event, organiser, bob_entry, too_big, amy_entry, fine


def decide(client, event, entrant, submission, state, text="", **extra):
    url = reverse("events:entrant_action", args=[event.code, entrant.pk, "note"])
    data = {"submission": submission.pk, "version": submission.version, "state": state}
    return client.post(url, {**data, "text": text, "back_to": submission.pk, **extra})


def test_approving_an_army_that_is_not_legal_warns_and_changes_nothing(world, client):
    event, organiser, bob_entry, too_big, _, _ = world
    client.force_login(organiser)
    with freeze_time(DAY + timedelta(minutes=5)):
        response = decide(client, event, bob_entry, too_big, "approved", "Fine by me")
        assert response["Location"].endswith("?confirm=approve#decide")
        page = client.get(response["Location"]).content.decode()
    assert Submission.objects.get(pk=too_big.pk).state == Submission.SUBMITTED
    assert not bob_entry.notes.exists()
    assert "Submission 1 is not legal" in page and "Nothing was changed" in page
    assert "Approve submission 1 although it is not legal" in page
    assert 'name="approve_not_legal" value="1"' in page
    assert "Fine by me" in page  # the message waits in the confirming form


def test_the_second_explicit_step_approves_it_and_the_desk_flags_it(world, client):
    event, organiser, bob_entry, too_big, _, _ = world
    client.force_login(organiser)
    with freeze_time(DAY + timedelta(minutes=5)):
        decide(client, event, bob_entry, too_big, "approved", "As agreed", approve_not_legal="1")
        desk = client.get(reverse("events:desk", args=[event.code])).content.decode()
    assert Submission.objects.get(pk=too_big.pk).state == Submission.APPROVED
    assert "1 approved (1 of them not legal)" in desk
    assert "approved, not legal" in desk


def test_a_legal_army_is_approved_in_one_step_and_only_once(world, client):
    event, organiser, _, _, amy_entry, fine = world
    client.force_login(organiser)
    with freeze_time(DAY + timedelta(minutes=5)):
        decide(client, event, amy_entry, fine, "approved")
        again = decide(client, event, amy_entry, Submission.objects.get(pk=fine.pk), "approved")
        shown = client.get(again["Location"]).content.decode()
    assert Submission.objects.get(pk=fine.pk).state == Submission.APPROVED
    assert amy_entry.notes.filter(action="approved").count() == 1
    assert "Submission 1 is already Approved: nothing was sent." in shown


def test_an_approved_army_made_not_legal_by_a_rule_change_is_flagged_told_and_marked(world, client):
    event, organiser, _, _, amy_entry, fine = world
    Submission.objects.filter(pk=fine.pk).update(state=Submission.APPROVED)
    lists = [(a.army_list, a.revision) for a in event.allowed_lists.all()]
    with freeze_time(DAY + timedelta(hours=1)):
        services.save_event(
            organiser,
            fields={"points_limit": fine.total_points - 1},
            lists=lists,
            co_organisers=[],
            event=event,
        )
        client.force_login(organiser)
        desk = client.get(reverse("events:desk", args=[event.code])).content.decode()
    now = held(amy_entry)
    assert now.state == Submission.APPROVED and not now.valid
    assert "1 approved (1 of them not legal)" in desk and "approved, not legal" in desk
    told = amy_entry.notes.get().text
    assert "is now not legal" in told and "It was approved" in told
    rows = cover_rows(event, approved_submissions(event))
    assert [row["legal"] for row in rows] == [False]
    client.post(reverse("events:pack", args=[event.code]))
    pack = Pack.objects.get(event=event)
    pdf = client.get(reverse("events:pack_pdf", args=[event.code, pack.pk])).content
    cover = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert "NOT LEGAL" in cover and "1 of them is not legal" in cover
