"""A change to the event's rules re-checks every submission (in the worker), the desk
shows the new verdicts, and each player whose verdict changed is told why."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from freezegun import freeze_time

from armybuilder.events import services
from armybuilder.events.models import Submission
from armybuilder.events.selectors import held
from tests.web.events.helpers import DEADLINE, list_army, make_event, player, saved_army

pytestmark = pytest.mark.django_db
DAY = DEADLINE - timedelta(hours=5)


@pytest.fixture
def world():
    organiser = player("org")
    event = make_event(organiser, restrictions=[], points_limit=None)
    base = len(list_army("viking")["units"])
    entrants = {}
    with freeze_time(DAY):
        for name, extra in (("small", 0), ("mid", 1), ("big", 1)):
            user = player(name)
            entrants[name] = services.join(event, user=user)
            services.submit(
                entrants[name], army=saved_army(user, name=f"{name} host", extra=extra), by=user
            )
    return organiser, event, entrants, base


def tighten(event, organiser, count):
    fields = {"restrictions": [{"kind": "max_units", "count": count}]}
    lists = [(a.army_list, a.revision) for a in event.allowed_lists.all()]
    services.save_event(organiser, fields=fields, lists=lists, co_organisers=[], event=event)


def test_a_restriction_tightened_after_submissions_marks_the_illegal_ones(world, client):
    organiser, event, entrants, base = world
    assert all(held(e).valid for e in entrants.values())
    with freeze_time(DAY + timedelta(hours=1)):
        tighten(event, organiser, base)
        client.force_login(organiser)
        desk = client.get(reverse("events:desk", args=[event.code])).content.decode()
    assert "3 submitted · 0 late · 2 not legal" in desk
    assert held(entrants["small"]).valid and held(entrants["small"]).version == 1
    for name in ("mid", "big"):
        now = held(entrants[name])
        assert not now.valid and now.version == 2
        assert any("the event allows at most" in p["message"] for p in now.problems)
        note = entrants[name].notes.get()
        assert note.submission == now and f"At most {base} units." in note.text
        assert "not legal" in note.text
    assert not entrants["small"].notes.exists()  # nothing changed for them: not told


def test_loosening_the_restriction_again_makes_them_legal_and_says_so(world):
    organiser, event, entrants, base = world
    with freeze_time(DAY + timedelta(hours=1)):
        tighten(event, organiser, base)
        tighten(event, organiser, base + 5)
    big = held(entrants["big"])
    assert big.valid and big.version == 3
    assert "is now legal" in entrants["big"].notes.order_by("-pk").first().text


def test_a_change_that_does_not_touch_the_check_rechecks_nothing(world):
    organiser, event, entrants, base = world
    lists = [(a.army_list, a.revision) for a in event.allowed_lists.all()]
    services.save_event(
        organiser, fields={"place": "Elsewhere"}, lists=lists, co_organisers=[], event=event
    )
    assert Submission.objects.filter(version__gt=1).count() == 0
