"""Malformed request headers answer 400 with a message, never 500 (armybuilder/headers.py)."""

import io

import pytest
from django.test.client import ClientHandler
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
