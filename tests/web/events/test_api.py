"""The events API: the event, the entrant table and the approved armies after the reveal,
as muster.army/1 documents the parser reads back."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from freezegun import freeze_time

from armybuilder.catalog.services import check_document
from armybuilder.events import services
from armybuilder.events.models import Submission
from tests.web.events.helpers import DEADLINE, REVEAL, make_event, player, saved_army

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    organiser = player("org")
    event = make_event(organiser)
    for name, extra in (("alice", 0), ("bob", 4)):
        entrant = services.join(event, user=player(name))
        with freeze_time(DEADLINE - timedelta(hours=1)):
            services.submit(
                entrant,
                army=saved_army(entrant.user, name=f"{name}'s army", extra=extra),
                by=entrant.user,
            )
    Submission.objects.filter(entrant__user__username="alice").update(state=Submission.APPROVED)
    return event


def test_the_event_describes_its_lists_revisions_and_restrictions(client, event):
    data = client.get(reverse("api:event", args=[event.code])).json()
    assert data["points_limit"] == 600 and data["entrants"] == 2 and not data["revealed"]
    assert {item["slug"]: item["revision"] for item in data["lists"]} == {
        "viking": 1,
        "anglo-danish-1066": 1,
    }
    assert data["restrictions"] == [{"kind": "max_units", "count": 5, "text": "At most 5 units."}]


def test_the_organiser_reads_the_whole_entrant_table(client, event):
    client.force_login(event.organiser)
    rows = client.get(reverse("api:event_entrants", args=[event.code])).json()["entrants"]
    by_player = {row["player"]: row for row in rows}
    assert by_player["alice"]["status"] == "approved" and by_player["alice"]["valid"]
    assert not by_player["bob"]["valid"]
    cited = [p["rule"] for p in by_player["bob"]["problems"]]
    assert "Event restriction 1: At most 5 units." in cited


def test_entrants_read_the_approved_armies_as_army_files_after_the_reveal(client, event):
    bob = event.entrants.get(user__username="bob").user
    url = reverse("api:event_armies", args=[event.code])
    with freeze_time(REVEAL - timedelta(seconds=1)):
        client.force_login(bob)
        assert client.get(url).status_code == 404
    with freeze_time(REVEAL):
        client.force_login(bob)
        armies = client.get(url).json()["armies"]
        table = client.get(reverse("api:event_entrants", args=[event.code])).json()["entrants"]
    assert [a["player"] for a in armies] == ["alice"]
    document = armies[0]["document"]
    assert document["format"] == "muster.army/1" and document["list_revisions"] == {"viking": 1}
    parsed, report = check_document(document)
    assert parsed.name == "alice's army" and report.valid
    assert table == [
        {
            "player": "alice",
            "army": "alice's army",
            "total_points": report.total_points,
            "submission": armies[0]["submission"],
        }
    ]
