"""While the database (or Redis) cannot be reached, pages answer 503 with Retry-After and
the players' "back in a moment" page, whichever part of a request met the outage; the log
holds one line for the outage, not a stack per request; the first answered page ends it."""

import logging

import pytest
from django.db import OperationalError
from django.test import Client

from armybuilder import outage


@pytest.fixture
def broken_database(monkeypatch):
    """Every page's first query fails as it does while PostgreSQL is stopped."""
    from armybuilder.catalog import selectors

    original = selectors.list_counts
    down = {"now": True}

    def refuse(*args, **kwargs):
        if down["now"]:
            raise OperationalError('connection to server at "127.0.0.1", port 5432 failed')
        return original(*args, **kwargs)

    monkeypatch.setattr(selectors, "list_counts", refuse)
    monkeypatch.setattr(outage, "_current", None)
    return down


def outage_lines(caplog):
    return [r for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.django_db
def test_pages_answer_503_with_retry_after_and_back_in_a_moment_then_200(
    broken_database, monkeypatch, caplog, settings
):
    client = Client(raise_request_exception=False)
    caplog.handler.addFilter(outage.OneLinePerOutage())
    for _ in range(3):
        response = client.get("/")
        assert response.status_code == 503
        assert int(response["Retry-After"]) > 0
        assert "Back in a moment" in response.content.decode()
    lines = [r for r in outage_lines(caplog) if r.name == "django.request"]
    assert len(lines) == 1, [r.getMessage() for r in lines]
    assert lines[0].exc_info is None and "OperationalError" in lines[0].getMessage()

    broken_database["now"] = False  # the database is back
    caplog.clear()
    assert client.get("/").status_code == 200
    assert any("back: pages are answered again" in r.getMessage() for r in caplog.records)
    assert outage._current is None


def test_an_outage_reached_through_a_wrapped_cause_is_still_an_outage():
    try:
        try:
            raise OperationalError("server closed the connection unexpectedly")
        except OperationalError as exc:
            raise RuntimeError("while saving the session") from exc
    except RuntimeError as exc:
        assert outage.is_outage(exc)
    assert not outage.is_outage(ValueError("a bug"))


@pytest.mark.django_db
def test_a_bug_is_still_a_500_with_its_stack_logged(monkeypatch, caplog):
    from armybuilder.catalog import selectors

    def bug(*args, **kwargs):
        raise ValueError("a real bug")

    monkeypatch.setattr(selectors, "list_counts", bug)
    caplog.handler.addFilter(outage.OneLinePerOutage())
    response = Client(raise_request_exception=False).get("/")
    assert response.status_code == 500
    assert "Retry-After" not in response
    assert any(r.exc_info for r in caplog.records if r.name == "django.request")
