"""Mystery armies: each entrant's force is rolled once on the server with a seed it keeps,
recorded on the submission, shown after the reveal and reproducible with `muster roll`."""

from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from freezegun import freeze_time

from armybuilder.events import services
from armybuilder.events.checking import check_for_event
from armybuilder.events.models import Roll, Submission
from tests.web.events.helpers import DEADLINE, REVEAL, make_event, player, saved_army

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return make_event(
        player("org"),
        ruleset="feudal-2017",
        lists=["north-welsh"],
        points_limit=None,
        restrictions=[],
        forces_rolled=True,
    )


def roll(client, event, slug="north-welsh"):
    return client.post(reverse("events:roll", args=[event.code]), {"list": slug}, follow=True)


def test_a_force_is_rolled_once_and_a_second_roll_is_refused(client, event):
    bob = player("bob")
    services.join(event, user=bob)
    client.force_login(bob)
    with freeze_time(DEADLINE - timedelta(hours=1)):
        roll(client, event)
        again = roll(client, event)
    assert "cannot be rolled again" in again.content.decode()
    (made,) = Submission.objects.filter(entrant__user=bob)
    record = Roll.objects.get(entrant__user=bob)
    assert made.roll_seed == record.seed and made.document == record.document
    assert made.submitted_by == bob


def test_the_service_refuses_a_second_roll_and_an_ordinary_submission(event):
    bob = player("bob")
    entrant = services.join(event, user=bob)
    with freeze_time(DEADLINE - timedelta(hours=1)):
        services.roll_force(entrant, army_list=event.allowed_lists.get().army_list, by=bob)
        with pytest.raises(services.Refused, match="rolled already"):
            services.roll_force(entrant, army_list=event.allowed_lists.get().army_list, by=bob)
        with pytest.raises(services.Refused, match="rolls each force"):
            services.submit(entrant, army=saved_army(bob), by=bob)
    assert Submission.objects.filter(entrant=entrant).count() == 1


def test_the_seed_is_shown_after_the_reveal_and_reproduces_the_roll(client, event):
    bob = player("bob")
    entrant = services.join(event, user=bob)
    with freeze_time(DEADLINE - timedelta(hours=1)):
        made = services.roll_force(entrant, army_list=event.allowed_lists.get().army_list, by=bob)
    client.force_login(bob)
    page = reverse("events:submission", args=[event.code, made.pk])
    with freeze_time(REVEAL - timedelta(minutes=1)):
        assert "Rolled with seed" not in client.get(page).content.decode()
    with freeze_time(REVEAL + timedelta(minutes=1)):
        shown = client.get(page).content.decode()
    revision = made.list_revisions["north-welsh"]
    command = f"--list north-welsh --revision {revision} --seed {made.roll_seed}"
    assert f'Rolled with seed <strong class="seed">{made.roll_seed}</strong>' in shown
    assert command in shown
    out = io.StringIO()
    call_command("muster", "roll", "feudal-2017", *command.replace("--", " --").split(), stdout=out)
    again = check_for_event(event, json.loads(out.getvalue()), owner_id=bob.pk)
    assert again.document == made.document


def test_a_rolled_force_cannot_be_returned_to_draft(event):
    bob = player("bob")
    entrant = services.join(event, user=bob)
    with freeze_time(DEADLINE - timedelta(hours=1)):
        services.roll_force(entrant, army_list=event.allowed_lists.get().army_list, by=bob)
    with pytest.raises(services.Refused, match="never rolled again"):
        services.return_to_draft(entrant, by=event.organiser)
