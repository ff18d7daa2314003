"""A hidden submission's id and a made-up one cost the same: the same queries (asserted
here) and, measured by `make bench` (bench/event_ids.py), medians within 10%. Interleaved
requests on the page, the army file and the API; the queries are the same from the first
request on, so twenty of each (the caches warm) prove what two hundred would."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from freezegun import freeze_time

from armybuilder.events import services
from tests.web.events.helpers import DEADLINE, REVEAL, make_event, player, saved_army

pytestmark = pytest.mark.django_db
REQUESTS = 20


def _shape(sql: str, ids: tuple[int, int]) -> str:
    """A query with the asked-for id taken out: what must be equal for both."""
    for number in ids:
        sql = re.sub(rf"\b{number}\b", "<id>", sql)
    return sql


@pytest.mark.parametrize("route", ["events:submission", "events:submission_file", "api:event_army"])
def test_hidden_and_made_up_submission_ids_run_the_same_queries(route):
    organiser, alice, bob = player("org"), player("alice"), player("bob")
    event = make_event(organiser)
    with freeze_time(DEADLINE - timedelta(hours=1)):
        hidden = services.submit(services.join(event, user=alice), army=saved_army(alice), by=alice)
        services.join(event, user=bob)
    made_up = hidden.pk + 1000
    ids = (hidden.pk, made_up)
    with freeze_time(REVEAL - timedelta(hours=1)):
        client = Client()
        client.force_login(bob)
        shapes: dict[int, set[tuple[str, ...]]] = {hidden.pk: set(), made_up: set()}
        for _ in range(REQUESTS):
            for number in ids:  # interleaved: neither is warmed by the other
                with CaptureQueriesContext(connection) as queries:
                    response = client.get(reverse(route, args=[event.code, number]))
                assert response.status_code == 404
                shapes[number].add(tuple(_shape(q["sql"], ids) for q in queries))
    assert shapes[hidden.pk] == shapes[made_up] and len(shapes[made_up]) == 1
