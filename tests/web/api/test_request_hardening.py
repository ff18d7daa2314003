"""Malformed headers answer 400, a slow body 408, weak passwords are refused."""

import io
import json
import socket

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.test import Client, RequestFactory
from django.test.client import ClientHandler
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder import requestsize
from armybuilder.accounts.passwords import GuessablePasswordValidator, RepeatedCharacterValidator
from armybuilder.api.views import check

pytestmark = pytest.mark.django_db

DOCUMENT = b'{"format": "muster.army/1", "name": "A", "ruleset": "into-the-dark", "units": []}'


def _wsgi(environ_extra: dict, body: bytes = DOCUMENT, path: str = "/api/v1/check"):
    """Call the WSGI application as a server would, headers exactly as given."""
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": path,
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.input": io.BytesIO(body),
        "wsgi.url_scheme": "http",
        "wsgi.errors": io.StringIO(),
        "CONTENT_TYPE": "application/json",
        "REMOTE_ADDR": "127.0.0.1",
        **environ_extra,
    }
    # Django's test handler: the real middleware chain, without closing the test's database
    response = ClientHandler()(environ)
    return response.status_code, response.content


@pytest.mark.parametrize("length", ["abc", "-5", "1e3", "12, 13", " ", "0x10", "١٢"])
def test_a_malformed_content_length_answers_400(length):
    status, content = _wsgi({"CONTENT_LENGTH": length})
    assert status == 400, content
    assert b"Content-Length" in content


def test_content_length_abc_on_a_page_answers_400_with_a_page():
    status, content = _wsgi({"CONTENT_LENGTH": "abc"}, path="/armies/import/")
    assert status == 400 and b"Malformed request" in content


def test_a_header_with_a_control_character_answers_400():
    status, content = _wsgi({"CONTENT_LENGTH": str(len(DOCUMENT)), "HTTP_X_THING": "a\x00b"})
    assert status == 400 and b"X-Thing header" in content


def test_a_well_formed_request_still_goes_through():
    status, content = _wsgi({"CONTENT_LENGTH": str(len(DOCUMENT))})
    assert status == 200, content


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    header=st.sampled_from(
        [
            "CONTENT_LENGTH",
            "CONTENT_TYPE",
            "HTTP_HOST",
            "HTTP_COOKIE",
            "HTTP_HX_REQUEST",
            "HTTP_ACCEPT_LANGUAGE",
            "HTTP_X_FORWARDED_FOR",
            "HTTP_REFERER",
            "HTTP_TRANSFER_ENCODING",
        ]
    ),
    value=st.text(st.characters(max_codepoint=255), max_size=40),
    path=st.sampled_from(["/api/v1/check", "/armies/import/", "/accounts/login/"]),
)
def test_no_header_value_makes_a_500(header, value, path):
    status, _ = _wsgi({"CONTENT_LENGTH": str(len(DOCUMENT)), header: value}, path=path)
    assert status < 500


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


# -- passwords -------------------------------------------------------------------------------


@pytest.mark.parametrize("password", ["uuuuuuuu", "abcabcabcabc", "1212121212", "aaaabbbb"])
def test_repeated_character_passwords_are_refused(password):
    with pytest.raises(ValidationError, match="repeats the same few characters"):
        RepeatedCharacterValidator().validate(password)


@pytest.mark.parametrize(
    "password", ["correcthorse", "password123", "qwertyuiop", "dragonmaster", "monkey2024"]
)
def test_dictionary_and_breached_passwords_are_refused(password):
    with pytest.raises(ValidationError, match="too easy to guess"):
        GuessablePasswordValidator().validate(password)


def test_a_password_made_of_the_username_is_refused():
    user = User(username="harold.godwinson")
    with pytest.raises(ValidationError):
        GuessablePasswordValidator().validate("harold.godwinson1", user)


@pytest.mark.parametrize("password", ["uuuuuuuu", "correcthorse"])
def test_sign_up_refuses_the_reported_passwords(password):
    response = Client().post(
        "/accounts/signup/", {"username": "newbie", "password1": password, "password2": password}
    )
    assert response.status_code == 400
    assert not User.objects.filter(username="newbie").exists()


def test_a_strong_password_signs_up():
    password = "Tr0ub4dor&3-hastings"
    response = Client().post(
        "/accounts/signup/", {"username": "newbie", "password1": password, "password2": password}
    )
    assert response.status_code == 302
