"""No route that creates, copies, renders or sends mail is unlimited.

Every URL pattern the resolver knows is tried with sample values (``tests/web/routes.py``)
by the owner of the sample objects: first with the shipped limits, to find the GET routes
that make something (a render, an army, a list, an account, a mail), then with every limit
at zero, where each POST, and each of those GET routes, must be refused with 429 before it
does anything (a sheet's route once no render is stored: a stored one is served free).
A new route that takes a POST or makes something on GET fails here until it is limited.
"""

import pytest
from django.apps import apps
from django.core import mail
from django.test import Client

from armybuilder import throttle
from armybuilder.printing import jobs
from armybuilder.printing.models import Render
from tests.web.routes import (
    UNDELETE,
    all_routes,
    make_samples,
    sample_kwargs,
    signed_in,
    url_for,
)

pytestmark = pytest.mark.django_db

# Rows that are not something a request makes for a client: the limits' own counters,
# sessions (a visitor's first page), and the bookkeeping of reads (who opened a list's
# link: one row per reader and list, "Lists shared with me"; who opened a game's link: one
# row per player and game, in their My games).
NOT_MADE = {"accounts.counter", "sessions.session", "catalog.sharedlist", "games.gameseat"}
# The renders a route makes on GET are the ones this test must find, or it finds nothing.
RENDERING = {
    "printing:army_roster_pdf",
    "printing:army_qrs_pdf",
    "printing:shared_roster_pdf",
    "printing:shared_qrs_pdf",
    "printing:ruleset_qrs_pdf",
    "printing:army_print",
}


@pytest.fixture(autouse=True)
def _renders_wait_in_the_queue(settings):
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}


def rows() -> dict[str, int]:
    return {
        model._meta.label_lower: model.objects.count()
        for model in apps.get_models()
        if model._meta.label_lower not in NOT_MADE and model._meta.managed
    }


def urls(samples) -> list[tuple[str, str]]:
    found = []
    for route in all_routes():
        if route.route == UNDELETE:
            continue  # the same name as going back to a version (tried through that one)
        found.append((route.key, url_for(route, sample_kwargs(route, samples))))
    return found


@pytest.fixture
def renders_asked(monkeypatch) -> list[str]:
    """Every render a request asks for, stored already or not (a stored one still costs the
    lookup, and the same URL with another document or paper renders anew)."""
    asked: list[str] = []
    real = jobs._render_for

    def spy(key, *args, **kwargs):
        asked.append(key)
        return real(key, *args, **kwargs)

    monkeypatch.setattr(jobs, "_render_for", spy)
    return asked


def makes_something_on_get(client: Client, url: str, renders: list[str]) -> bool:
    before, sent, asked = rows(), len(mail.outbox), len(renders)
    client.get(url)
    client.get(url, headers={"HX-Request": "true"})
    return rows() != before or len(mail.outbox) != sent or len(renders) != asked


@pytest.fixture
def owner() -> Client:
    return signed_in("owner")


def test_every_route_that_makes_something_on_get_is_limited(owner, settings, renders_asked):
    samples = make_samples(owner)
    making = {
        key: url for key, url in urls(samples) if makes_something_on_get(owner, url, renders_asked)
    }
    assert set(making) >= RENDERING

    Render.objects.all().delete()  # a sheet counts when it is to be rendered
    settings.MUSTER_RATE_LIMITS = {name: (0, 3600) for name in throttle.DEFAULT_LIMITS}
    unlimited = [key for key, url in making.items() if owner.get(url).status_code != 429]
    assert not unlimited, f"these routes make something on GET without a limit: {unlimited}"


def test_every_route_refuses_a_post_once_its_limit_is_used(owner, settings):
    samples = make_samples(owner)
    settings.MUSTER_RATE_LIMITS = {name: (0, 3600) for name in throttle.DEFAULT_LIMITS}
    before = rows()
    # A route that answers 405 takes no POST at all: nothing of it to limit.
    unlimited = [
        key for key, url in urls(samples) if owner.post(url, {}).status_code not in (405, 429)
    ]
    assert not unlimited, f"these routes take a POST without a limit: {unlimited}"
    assert rows() == before


def test_creating_and_copying_lists_on_the_pages_count_as_list_creation():
    for name in ("catalog:list_new", "catalog:list_copy", "catalog:shared_list_copy"):
        assert throttle.rule_for(name, "POST") == "list-create"
    assert throttle.rule_for("printing:army_print", "GET") is None  # counted as it renders
    assert throttle.rule_for("armies:edit_item", "POST") == "write"
    assert throttle.rule_for("armies:builder", "GET") is None


def test_a_signed_in_players_changes_count_for_the_account_not_the_address(settings):
    settings.MUSTER_RATE_LIMITS = {**settings.MUSTER_RATE_LIMITS, "write": (2, 600)}
    settings.MUSTER_VISITOR_RATE_LIMITS = {**settings.MUSTER_VISITOR_RATE_LIMITS, "write": (2, 600)}

    def check(client: Client) -> int:  # a POST of no other limit: an empty document, 400
        return client.post("/api/v1/check", "{}", content_type="application/json").status_code

    first, second = signed_in("first"), signed_in("second")  # one club, one address
    for player in (first, second):
        assert [check(player) for _ in range(2)] == [400, 400]
    assert check(first) == 429
    refused = first.post("/api/v1/check", "{}", content_type="application/json").json()
    assert refused["error"].startswith("Too many requests from you for now.")
    visitor, other_visitor = Client(), Client()  # no account: the address counts
    assert [check(visitor) for _ in range(2)] == [400, 400]
    assert check(other_visitor) == 429
