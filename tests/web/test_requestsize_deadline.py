"""A body that does not arrive in time answers 408 (armybuilder/requestsize.py): one shorter
than declared, or one trickling past the deadline, and the worker is freed."""

import json
import socket

import pytest
from django.test import RequestFactory

from armybuilder import requestsize
from armybuilder.api.views import check

pytestmark = pytest.mark.django_db

DOCUMENT = b'{"format": "muster.army/1", "name": "A", "ruleset": "into-the-dark", "units": []}'


class _StalledStream:
    """A client that declared more than it sends: the socket read times out."""

    def read(self, size=-1):
        raise TimeoutError("timed out")

    readline = read


class _FakeSocket:
    def __init__(self) -> None:
        self.timeouts: list[float | None] = [None]

    def gettimeout(self):
        return self.timeouts[-1]

    def settimeout(self, value):
        self.timeouts.append(value)


def test_a_body_shorter_than_declared_answers_408_and_frees_the_worker(settings):
    settings.MUSTER_BODY_READ_SECONDS = 3
    sock = _FakeSocket()
    request = RequestFactory().post("/api/v1/check", DOCUMENT, content_type="application/json")
    request._stream = _StalledStream()
    request.META["gunicorn.socket"] = sock
    response = check(request)
    assert response.status_code == 408
    assert "did not arrive within 3 seconds" in json.loads(response.content)["error"]
    assert sock.timeouts == [None, 3.0, None]  # the deadline was set on the socket, then undone


def test_a_body_that_trickles_past_the_deadline_answers_408(settings, monkeypatch):
    settings.MUSTER_BODY_READ_SECONDS = 5
    clock = iter(range(0, 1000, 4))  # every read takes 4 "seconds"
    monkeypatch.setattr(requestsize.time, "monotonic", lambda: next(clock))
    request = RequestFactory().post(
        "/api/v1/check", b" " * 200_000 + DOCUMENT, content_type="application/json"
    )
    response = check(request)
    assert response.status_code == 408


def test_socket_timeout_is_a_timeout_error():
    assert issubclass(socket.timeout, TimeoutError)  # what a stalled gunicorn read raises
