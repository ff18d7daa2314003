"""The organiser's desk: every entrant and their state, the CSV, the thread, and each
action on an entrant recorded with who did it and shown to the player."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.urls import reverse
from freezegun import freeze_time

from armybuilder.events import services
from armybuilder.events.models import Entrant, Submission
from armybuilder.events.selectors import held
from tests.web.events.helpers import DEADLINE, make_event, player, saved_army

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return player("org")


@pytest.fixture
def event(organiser):
    return make_event(organiser)


@pytest.fixture
def entrants(event):
    """fine (on time, legal), illegal (on time, 7 units), late (legal), missing."""
    names = {}
    for name in ("fine", "illegal", "late", "missing"):
        names[name] = services.join(event, user=player(name))
    with freeze_time(DEADLINE - timedelta(hours=1)):
        services.submit(
            names["fine"],
            army=saved_army(names["fine"].user, name="Fine army"),
            by=names["fine"].user,
        )
        services.submit(
            names["illegal"],
            army=saved_army(names["illegal"].user, name="Big army", extra=4),
            by=names["illegal"].user,
        )
    with freeze_time(DEADLINE + timedelta(hours=1)):
        services.submit(
            names["late"],
            army=saved_army(names["late"].user, name="Late army"),
            by=names["late"].user,
        )
    return names


def action(client, event, entrant, name, **data):
    """The action as the page posts it: naming the submission (and version) it shows."""
    shown = held(entrant)
    if shown is not None:
        data = {"submission": shown.pk, "version": shown.version, **data}
    return client.post(reverse("events:entrant_action", args=[event.code, entrant.pk, name]), data)


def test_the_desk_shows_each_entrants_state_problems_and_who_is_missing(
    client, organiser, event, entrants
):
    client.force_login(organiser)
    page = client.get(reverse("events:desk", args=[event.code])).content.decode()
    assert "4 entered · 3 submitted · 1 late · 1 not legal" in page
    assert "Missing a submission: missing." in page
    assert "Event restriction 1: At most 5 units." in page
    assert page.count('class="badge illegal late"') == 1


def test_the_csv_lists_every_entrant_with_their_state(client, organiser, event, entrants):
    client.force_login(organiser)
    response = client.get(reverse("events:desk_csv", args=[event.code]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    by_player = {row["player"]: row for row in rows}
    assert set(by_player) == {"fine", "illegal", "late", "missing"}
    assert by_player["late"]["late"] == "yes" and by_player["fine"]["late"] == "no"
    assert by_player["illegal"]["legal"] == "no"
    assert "At most 5 units" in by_player["illegal"]["problems"]
    assert by_player["missing"]["submitted"] == "missing"
    assert by_player["fine"]["list"].startswith("Viking") and by_player["fine"]["revision"] == "1"
    assert by_player["fine"]["submitted by"] == "fine" and by_player["missing"]["list"] == ""


def test_a_csv_cell_a_player_wrote_never_runs_as_a_formula(client, organiser, event):
    sly = services.join(event, user=player("sly"))
    with freeze_time(DEADLINE - timedelta(hours=1)):
        services.submit(sly, army=saved_army(sly.user, name="=HYPERLINK(1)"), by=sly.user)
    client.force_login(organiser)
    text = client.get(reverse("events:desk_csv", args=[event.code])).content.decode()
    assert "'=HYPERLINK(1)" in text


def test_the_checker_asks_for_changes_and_the_player_sees_it_and_resubmits(
    client, organiser, event, entrants
):
    illegal = entrants["illegal"]
    client.force_login(organiser)
    action(
        client, event, illegal, "note", text="Five units at most, please.", state="needs_changes"
    )
    assert held(illegal).state == Submission.NEEDS_CHANGES
    client.force_login(illegal.user)
    page = client.get(reverse("events:entry", args=[event.code])).content.decode()
    assert "Needs changes" in page and "Five units at most, please." in page
    client.post(reverse("events:reply", args=[event.code]), {"text": "Fixed it."})
    with freeze_time(DEADLINE - timedelta(minutes=5)):
        client.force_login(illegal.user)  # a session of that day
        client.post(
            reverse("events:submit", args=[event.code]), {"army": saved_army(illegal.user).pk}
        )
    newest = held(illegal)
    assert newest.number == 2 and newest.valid and newest.state == Submission.SUBMITTED
    client.force_login(organiser)
    action(client, event, illegal, "note", text="", state="approved")
    assert held(illegal).state == Submission.APPROVED


def test_only_organisers_set_a_state(client, event, entrants):
    fine = entrants["fine"]
    client.force_login(fine.user)
    response = action(client, event, fine, "note", text="", state="approved")
    assert response.status_code == 404
    assert held(fine).state == Submission.SUBMITTED


def test_each_organiser_action_is_recorded_with_who_and_shown_to_the_player(
    client, organiser, event, entrants
):
    co = player("co")
    event.co_organisers.add(co)
    fine, missing = entrants["fine"], entrants["missing"]
    client.force_login(co)
    action(client, event, fine, "lock")
    action(client, event, fine, "return")
    action(client, event, fine, "checkin")
    with freeze_time(DEADLINE + timedelta(hours=12)):  # past the deadline, before the reveal
        client.force_login(co)  # a session of that day
        action(client, event, missing, "submit", army=saved_army(co).pk)  # built by the co
    fine.refresh_from_db()
    assert fine.lock == Entrant.LOCKED and fine.checked_in and held(fine) is None
    behalf = held(missing)
    assert behalf is not None and behalf.submitted_by == co and behalf.late
    client.force_login(fine.user)
    page = client.get(reverse("events:entry", args=[event.code])).content.decode()
    for words in (
        "co</strong> locked your submission",
        "co</strong> returned your submission to draft",
        "co</strong> checked you in",
    ):
        assert words in page
    client.force_login(missing.user)
    page = client.get(reverse("events:entry", args=[event.code])).content.decode()
    assert "co</strong> submitted on your behalf" in page


def test_withdrawing_keeps_the_entrants_submissions(client, organiser, event, entrants):
    client.force_login(organiser)
    action(client, event, entrants["fine"], "withdraw")
    assert Submission.objects.filter(entrant=entrants["fine"]).count() == 1
    page = client.get(reverse("events:desk", args=[event.code])).content.decode()
    assert "withdrawn" in page


def test_a_locked_entrant_cannot_submit_before_the_deadline(event, organiser):
    bob = services.join(event, user=player("bob"))
    services.set_lock(bob, by=organiser, lock=Entrant.LOCKED)
    bob.refresh_from_db()
    with (
        freeze_time(DEADLINE - timedelta(hours=1)),
        pytest.raises(services.Refused, match="locked"),
    ):
        services.submit(bob, army=saved_army(bob.user), by=bob.user)
