"""A render cut short by a database or queue outage goes back to the queue and is made once
the outage ends (printing/tasks.py): only the render's own failure is stored as failed.

The database "goes away" inside the making: every query the render makes from then on is
refused with the errors a stopped PostgreSQL gives (Django's ``execute_wrapper``, the hook
every query passes through), until the test lets it "come back". The worker is the real
one, on both queues (tests/web/printing/test_tasks.py)."""

import json
from contextlib import contextmanager

import pytest
from django.db import InterfaceError, OperationalError, connection

from armybuilder.printing import jobs, tasks
from armybuilder.printing.models import Render
from tests.support import example
from tests.web.ops.redis_server import module_redis  # noqa: F401 (the rq queue's Redis)
from tests.web.printing.test_tasks import post_roster, queue  # noqa: F401 (both queues)


@contextmanager
def database_away(error):
    def refuse(execute, sql, params, many, context):
        raise error

    with connection.execute_wrapper(refuse):
        yield


def away_inside_the_making(monkeypatch, error, wrap=None):
    """``tasks.make_pdf`` with the database away from its first query on (once)."""
    real, calls = tasks.make_pdf, []

    def make_pdf(spec):
        calls.append(spec)
        if len(calls) > 1:
            return real(spec)  # the outage is over
        with database_away(error):
            if wrap is None:
                return real(spec)
            try:
                return real(spec)
            except Exception as exc:
                raise wrap from exc

    monkeypatch.setattr(tasks, "make_pdf", make_pdf)
    return calls


def a_render_of_a_saved_army(client):
    accepted = post_roster(client, example("dewitt-medieval-lance-and-bow.json"))
    assert accepted.status_code == 202
    return accepted.json()["status_url"]


OUTAGES = {
    "stopped": OperationalError("server closed the connection unexpectedly"),
    "dropped": InterfaceError("connection already closed"),
}


@pytest.mark.parametrize("outage", OUTAGES)
@pytest.mark.django_db(transaction=True)
def test_a_render_the_database_left_mid_making_is_queued_again_and_made_when_it_returns(
    client,
    queue,  # noqa: F811
    monkeypatch,
    outage,
):
    calls = away_inside_the_making(monkeypatch, OUTAGES[outage])
    status_url = a_render_of_a_saved_army(client)

    queue()  # the worker takes it; the database goes away inside the making

    render = Render.objects.get()
    assert len(calls) == 1
    assert render.status == Render.QUEUED and render.error == ""  # not failed
    assert render.task_id == tasks.NOT_QUEUED  # for a heartbeat (or the next ask) to queue
    waiting = client.get(status_url)
    assert waiting.status_code == 202 and waiting.json()["status"] == "queued"

    # the database is back: a worker's heartbeat queues it again and a worker makes it
    assert jobs.requeue_lost() == 1
    queue()

    done = client.get(status_url)
    assert done.status_code == 200 and done.content.startswith(b"%PDF")
    assert len(calls) == 2


@pytest.mark.django_db(transaction=True)
def test_an_outage_that_reaches_the_worker_wrapped_in_another_error_is_still_no_failure(
    client,
    queue,  # noqa: F811
    monkeypatch,
):
    # e.g. a library that catches the database's error and raises its own from it
    away_inside_the_making(
        monkeypatch, OUTAGES["stopped"], wrap=RuntimeError("could not read the lists")
    )
    status_url = a_render_of_a_saved_army(client)
    queue()
    render = Render.objects.get()
    assert render.status == Render.QUEUED and render.error == ""
    assert jobs.requeue_lost() == 1
    queue()
    assert client.get(status_url).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_render_that_fails_on_its_own_is_stored_as_failed_with_its_reason(
    client,
    queue,  # noqa: F811
    monkeypatch,
):
    def broken(spec):
        raise ValueError("a bug in the sheet")

    monkeypatch.setattr(tasks, "make_pdf", broken)
    status_url = a_render_of_a_saved_army(client)
    queue()
    render = Render.objects.get()
    assert render.status == Render.FAILED
    assert render.error == "The PDF renderer stopped unexpectedly; please try again."
    assert jobs.requeue_lost() == 0  # a failure is the render's result: not queued again
    assert json.loads(client.get(status_url).content)["status"] == "failed"


@pytest.mark.django_db(transaction=True)
def test_a_render_the_queues_redis_left_mid_making_is_queued_again_and_made_when_it_returns(
    client,
    queue,  # noqa: F811
    monkeypatch,
):
    import redis

    real, calls = tasks.make_pdf, []

    def make_pdf(spec):
        calls.append(spec)
        if len(calls) == 1:
            raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379")
        return real(spec)

    monkeypatch.setattr(tasks, "make_pdf", make_pdf)
    status_url = a_render_of_a_saved_army(client)
    queue()
    render = Render.objects.get()
    assert render.status == Render.QUEUED and render.error == ""
    assert jobs.requeue_lost() == 1
    queue()
    assert client.get(status_url).status_code == 200 and len(calls) == 2
