"""The client address behind a proxy (throttle.client_address): the header the proxy sets
is believed only from a trusted proxy (MUSTER_TRUSTED_PROXIES) and only when it holds an
IP address; a client talking to Muster directly cannot choose its address, so it can
neither spread its requests over made-up addresses nor lock another player out."""

import logging

import pytest
from django.test import Client, RequestFactory

from armybuilder import throttle


@pytest.fixture
def behind_proxy(settings):
    settings.MUSTER_CLIENT_IP_HEADER = "HTTP_X_REAL_IP"
    settings.MUSTER_TRUSTED_PROXIES = ["10.0.0.5", "192.168.7.0/24"]
    return settings


def address(remote, real_ip=None):
    extra = {} if real_ip is None else {"HTTP_X_REAL_IP": real_ip}
    return throttle.client_address(RequestFactory().get("/", REMOTE_ADDR=remote, **extra))


def test_the_header_from_a_trusted_proxy_names_the_client(behind_proxy):
    assert address("10.0.0.5", "203.0.113.9") == "203.0.113.9"
    assert address("192.168.7.200", "203.0.113.10") == "203.0.113.10"  # a trusted network
    assert address("10.0.0.5", "198.51.100.1, 203.0.113.9") == "203.0.113.9"  # the proxy's own
    assert address("10.0.0.5", "2001:db8:1:2::7") == "2001:db8:1:2::/64"
    assert address("10.0.0.5") == "10.0.0.5"  # no header: the proxy itself


def test_the_header_from_any_other_peer_is_ignored(behind_proxy, caplog):
    caplog.set_level(logging.INFO, logger="armybuilder.throttle")
    assert address("198.51.100.77", "203.0.113.9") == "198.51.100.77"
    assert "not a trusted proxy" in caplog.text


def test_a_header_that_is_not_an_address_is_ignored_and_logged(behind_proxy, caplog):
    for junk in ("not-an-ip", "", "203.0.113.9; drop table", "\u0661\u0662\u0663"):
        caplog.clear()
        assert address("10.0.0.5", junk) == "10.0.0.5"
        if junk:
            assert "not an IP address" in caplog.text


def test_without_a_configured_header_no_header_is_believed(settings):
    settings.MUSTER_CLIENT_IP_HEADER = ""
    assert address("127.0.0.1", "203.0.113.9") == "127.0.0.1"


def test_a_peer_that_is_not_an_address_is_one_unknown_client(behind_proxy):
    assert address("", "203.0.113.9") == "unknown"
    assert address("garbage") == "unknown"


DOC = {"format": "muster.army/1", "ruleset": "into-the-dark", "units": []}


@pytest.fixture
def two_pdfs(behind_proxy):
    """Two PDFs per visitor address; renders wait in the queue (none is made)."""
    behind_proxy.MUSTER_VISITOR_RATE_LIMITS = {
        **behind_proxy.MUSTER_VISITOR_RATE_LIMITS,
        "pdf": (2, 600),
    }
    behind_proxy.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}


def new_sheet(client: Client, n: int) -> int:
    army = {**DOC, "name": f"Army {n}"}  # a sheet not asked for before: a render to make
    return client.post("/api/v1/roster.pdf", army, content_type="application/json").status_code


@pytest.mark.django_db
def test_a_direct_client_sending_the_header_cannot_escape_the_pdf_limit(two_pdfs):
    statuses = []
    for n in range(4):  # a different made-up address each time, straight to Muster
        client = Client(REMOTE_ADDR="198.51.100.77", HTTP_X_REAL_IP=f"203.0.113.{n}")
        statuses.append(new_sheet(client, n))
    assert statuses == [202, 202, 429, 429]


@pytest.mark.django_db
def test_visitors_behind_the_trusted_proxy_each_have_their_own_limit(two_pdfs):
    statuses = []
    for n in range(4):  # four visitors, one proxy
        client = Client(REMOTE_ADDR="10.0.0.5", HTTP_X_REAL_IP=f"203.0.113.{n}")
        statuses.append(new_sheet(client, n))
    assert statuses == [202] * 4
