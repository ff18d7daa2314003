"""Its author can always delete a list an event allows: the submissions already checked
against it keep that revision (the event's snapshot of it), and nothing new is built,
pinned or submitted on it."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from freezegun import freeze_time

from armybuilder.catalog import list_lifecycle
from armybuilder.catalog import services as catalog
from armybuilder.catalog.models import DELETED, ArmyList, ArmyListRevision, SharedList
from armybuilder.events import services
from armybuilder.events.models import AllowedList
from armybuilder.events.selectors import held
from rules import MalformedDocument
from tests.web.events.helpers import DEADLINE, list_army, make_event, player

pytestmark = pytest.mark.django_db
DAY = DEADLINE - timedelta(hours=5)


def own_viking(author):
    """The author's copy of the Viking list, under its own slug."""
    viking = ArmyList.objects.get(ruleset="into-the-dark", slug="viking")
    own = catalog.copy_list(author, army_list=viking).army_list
    catalog.set_status(author, army_list=own, status="link")
    return own


def army_on(owner, army_list, *, name="Host", extra=0):
    from armybuilder.armies.making.lifecycle import create_army

    document = list_army("viking", name=name, extra=extra)
    document["army_list"] = army_list.slug
    return create_army(document, owner=owner)


def test_a_list_an_event_allowed_with_nothing_submitted_on_it_is_gone_with_its_revisions():
    author, organiser = player("author"), player("org")
    own = own_viking(author)
    event = make_event(organiser)
    event.allowed_lists.create(army_list=own, revision=own.latest_revision)
    assert list_lifecycle.delete_list(author, own) == ""
    # past the days its author may undo it
    assert list_lifecycle.purge_deleted_lists(timezone.now() + timedelta(days=31)) == 1
    assert not ArmyList.objects.filter(pk=own.pk).exists()
    assert not ArmyListRevision.objects.filter(army_list_id=own.pk).exists()
    assert not AllowedList.objects.filter(event=event, army_list_id=own.pk).exists()


def test_submissions_keep_the_revision_of_a_list_its_author_deleted(client):
    author, organiser, entrant = player("author"), player("org"), player("bob")
    own = own_viking(author)
    event = make_event(organiser, restrictions=[], points_limit=None)
    event.allowed_lists.create(army_list=own, revision=own.latest_revision)
    for opened_the_link in (organiser, entrant):
        SharedList.objects.create(army_list=own, user=opened_the_link, token=own.share_token)
    with freeze_time(DAY):
        entry = services.join(event, user=entrant)
        submitted = services.submit(
            entry, army=army_on(entrant, own, name="Bob's host"), by=entrant
        )
    assert submitted.valid and submitted.list_revisions == {own.slug: own.latest_revision}

    kept = list_lifecycle.delete_list(author, own)
    assert kept == "1 army is built on it and 1 event submission checked against it"
    own.refresh_from_db()
    assert own.status == DELETED and own.share_token is None
    assert ArmyListRevision.objects.filter(army_list=own, number=own.latest_revision).exists()

    # nobody reads it any more, its author neither
    client.force_login(author)
    assert client.get(f"/rulesets/into-the-dark/lists/{own.slug}/").status_code == 404
    client.force_login(organiser)
    rules = json.loads(client.get(reverse("events:rules_file", args=[event.code])).content)
    assert own.slug not in [item["slug"] for item in rules["lists"]]

    # the organiser tightens the rules: the submission is checked again against the
    # revision it was made on, never marked outside the event's lists
    with freeze_time(DAY + timedelta(hours=1)):
        fields = {"restrictions": [{"kind": "max_units", "count": 30}]}
        readable = [(a.army_list, a.revision) for a in event.allowed_lists.all()]
        services.save_event(
            organiser,
            fields=fields,
            lists=[p for p in readable if p[0] != own],
            co_organisers=[],
            event=event,
        )
        now = held(entry)
        assert now.valid, now.problems
        assert AllowedList.objects.filter(event=event, army_list=own).exists()
        army = client.get(reverse("events:submission_file", args=[event.code, now.pk]))
    assert army.status_code == 200 and json.loads(army.content)["army_list"] == own.slug

    # and nothing new is built on it, nor submitted (an army already built on it is the
    # entrant's to keep, not the event's to take)
    with pytest.raises(MalformedDocument, match="is not an army list of Into the Dark"):
        army_on(entrant, own, name="Another")
    with freeze_time(DAY + timedelta(hours=2)), pytest.raises(services.Refused, match="deleted"):
        services.submit(entry, army=submitted.army, by=entrant)
