"""Events, players and armies for the event tests, made through the services."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth.models import User

from armybuilder.armies.making.lifecycle import create_army
from armybuilder.armies.models import Army
from armybuilder.catalog.models import ArmyList
from armybuilder.events import services
from armybuilder.events.models import Event
from rules.registry import get_ruleset
from tests.support import army, fixture_lists

DEADLINE = datetime(2027, 6, 1, 18, 0, tzinfo=UTC)
REVEAL = DEADLINE + timedelta(days=1)


def list_army(slug: str, *, name: str = "Test army", extra: int = 0) -> dict[str, Any]:
    """A legal Into the Dark army of ``slug``: each entry's minimum, from its preset; then
    ``extra`` more of the first entry's units."""
    data = fixture_lists("into-the-dark")[slug]
    presets = get_ruleset("into-the-dark").unit_presets(data)
    units = []
    for entry, (_, values) in zip(data["entries"], presets, strict=False):
        units.extend(dict(values) for _ in range(entry.get("min", 0)))
    units.extend(dict(presets[0][1]) for _ in range(extra))
    return army("into-the-dark", units, army_list=slug, name=name)


def player(name: str, **extra: Any) -> User:
    return User.objects.create_user(name, **extra)


def saved_army(owner: User, slug: str = "viking", **kwargs: Any) -> Army:
    return create_army(list_army(slug, **kwargs), owner=owner)


def make_event(organiser: User, **fields: Any) -> Event:
    values = {
        "name": "Hastings Day",
        "date": DEADLINE.date() + timedelta(days=7),
        "place": "Battle Abbey",
        "time_zone": "Europe/London",
        "ruleset": "into-the-dark",
        "points_limit": 600,
        "restrictions": [{"kind": "max_units", "count": 5}],
        "deadline": DEADLINE,
        "reveal_at": REVEAL,
        "accept_late": True,
        "cap": None,
        "public_after_reveal": False,
        "forces_rolled": False,
    }
    values.update(fields)
    lists = [
        (found, found.latest_revision)
        for found in ArmyList.objects.filter(
            ruleset=values["ruleset"],
            slug__in=fields.pop("lists", None) or ["viking", "anglo-danish-1066"],
        )
    ]
    values.pop("lists", None)
    return services.save_event(organiser, fields=values, lists=lists, co_organisers=[])


AFTER_REVEAL = REVEAL + timedelta(minutes=5)


def revealed_world() -> dict[str, Any]:
    """An event (organiser ``org``) with alice and bob entered, each with an approved army
    (submitted before the deadline), and carol, who is in no event: the clock must be set
    after ``REVEAL`` (``AFTER_REVEAL``) for the armies to be revealed."""
    from freezegun import freeze_time

    from armybuilder.events.models import Submission

    organiser, alice, bob, carol = (player(n) for n in ("org", "alice", "bob", "carol"))
    event = make_event(organiser)
    alice_entry, bob_entry = services.join(event, user=alice), services.join(event, user=bob)
    with freeze_time(DEADLINE - timedelta(hours=1)):
        alice_army = saved_army(alice, name="Alice's host")
        bob_army = saved_army(bob, "anglo-danish-1066", name="Bob's huscarls")
        alice_sub = services.submit(alice_entry, army=alice_army, by=alice)
        bob_sub = services.submit(bob_entry, army=bob_army, by=bob)
    Submission.objects.filter(pk__in=[alice_sub.pk, bob_sub.pk]).update(state=Submission.APPROVED)
    return {
        "event": event,
        "organiser": organiser,
        "alice": alice,
        "bob": bob,
        "carol": carol,
        "alice_army": alice_army,
        "bob_army": bob_army,
        "alice_sub": Submission.objects.get(pk=alice_sub.pk),
        "bob_sub": Submission.objects.get(pk=bob_sub.pk),
    }
