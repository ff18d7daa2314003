"""Every setting that changes a verdict re-checks: the points limit too, posted on the
event's form; while the worker re-checks, the pages say so rather than show half the new
verdicts; and each player reads the new verdict in words that fit what changed."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.urls import reverse
from freezegun import freeze_time

from armybuilder.events import services
from armybuilder.events.forms import EventForm
from armybuilder.events.models import Submission
from armybuilder.events.selectors import held
from armybuilder.events.tasks import recheck_submissions
from tests.web.events.helpers import DEADLINE, list_army, make_event, player, saved_army

pytestmark = pytest.mark.django_db
DAY = DEADLINE - timedelta(hours=5)


@pytest.fixture
def world():
    organiser = player("org")
    event = make_event(organiser, restrictions=[], points_limit=1000)
    entrants = {}
    with freeze_time(DAY):
        for name in ("small", "big"):
            user = player(name)
            entrants[name] = services.join(event, user=user)
            services.submit(entrants[name], army=saved_army(user, name=f"{name} host"), by=user)
    return organiser, event, entrants


def edit(client, event, **changes):
    form = client.get(reverse("events:edit", args=[event.code])).context["form"]
    data = {k: v for k, v in EventForm.initial_for(event).items() if v not in (None, False)}
    assert form is not None
    return client.post(reverse("events:edit", args=[event.code]), {**data, **changes})


def test_lowering_the_points_limit_on_the_form_rechecks_and_tells_the_player(world, client):
    organiser, event, entrants = world
    total = held(entrants["small"]).total_points
    client.force_login(organiser)
    with freeze_time(DAY + timedelta(hours=1)):
        assert edit(client, event, points_limit=str(total - 1)).status_code == 302
    now = held(entrants["small"])
    assert not now.valid and now.version == 2
    assert any(p["rule"] == "Event points limit" for p in now.problems)
    told = entrants["small"].notes.get().text
    assert f"points limit now {total - 1}" in told and "is now not legal" in told


def test_while_the_worker_rechecks_the_desk_says_so_instead_of_half_the_counts(
    world, client, monkeypatch
):
    organiser, event, entrants = world
    asked = []
    waiting = SimpleNamespace(enqueue=lambda *args: asked.append(args))
    monkeypatch.setattr(services, "recheck_submissions", waiting)
    lists = [(a.army_list, a.revision) for a in event.allowed_lists.all()]
    services.save_event(
        organiser, fields={"points_limit": 10}, lists=lists, co_organisers=[], event=event
    )
    client.force_login(organiser)
    with freeze_time(DAY + timedelta(hours=1)):
        desk = client.get(reverse("events:desk", args=[event.code])).content.decode()
        assert "Re-checking every submission" in desk and "not legal ·" not in desk
        entry_page = reverse("events:entry", args=[event.code])
        client.force_login(entrants["small"].user)
        assert "is being checked again" in client.get(entry_page).content.decode()
        recheck_submissions.call(*asked[0])
        client.force_login(organiser)
        desk = client.get(reverse("events:desk", args=[event.code])).content.decode()
    assert "Re-checking" not in desk and "2 not legal" in desk


def test_an_army_already_not_legal_is_told_it_is_still_not_legal(world):
    organiser, event, entrants = world
    lists = [(a.army_list, a.revision) for a in event.allowed_lists.all()]
    base = len(list_army("viking")["units"])
    with freeze_time(DAY + timedelta(hours=1)):
        services.save_event(
            organiser, fields={"points_limit": 10}, lists=lists, co_organisers=[], event=event
        )
        services.save_event(
            organiser,
            fields={"restrictions": [{"kind": "max_units", "count": base - 1}]},
            lists=lists,
            co_organisers=[],
            event=event,
        )
    last = entrants["small"].notes.order_by("-pk").first().text
    assert "is still not legal" in last and "now not legal" not in last
    assert f"At most {base - 1} units." in last and ".." not in last


def test_an_army_on_a_list_no_longer_allowed_keeps_its_points_on_the_desk(world, client):
    organiser, event, entrants = world
    total = held(entrants["small"]).total_points
    keep = [
        (a.army_list, a.revision) for a in event.allowed_lists.exclude(army_list__slug="viking")
    ]
    with freeze_time(DAY + timedelta(hours=1)):
        services.save_event(organiser, fields={}, lists=keep, co_organisers=[], event=event)
        client.force_login(organiser)
        desk = client.get(reverse("events:desk", args=[event.code])).content.decode()
    now = held(entrants["small"])
    assert not now.valid and now.total_points == total
    assert f'<td data-label="Points">{total}</td>' in desk
    assert Submission.objects.filter(total_points__isnull=True).count() == 0
