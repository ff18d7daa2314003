"""schemathesis against /api/v1/openapi.json with negative data as well as positive (values
the description forbids): no 500, no answer outside the description, every request the
description forbids refused (4xx), and every request it allows accepted (no 400)."""

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from tests.web.api.fuzz_checks import NEGATIVE_CHECKS

# Random examples, half of them breaking the description (the coverage phase's boundary
# values run in test_openapi_fuzz.py), so the file stays near a minute.
CONFIG = SchemathesisConfig.from_str(
    """
[generation]
mode = "all"
[phases.coverage]
enabled = false
"""
)
# The description is fetched from the served URL (no database needed for it).
schema = schemathesis.openapi.from_wsgi(
    "/api/v1/openapi.json", get_wsgi_application(), config=CONFIG
)


@pytest.fixture(autouse=True)
def _renders_are_queued(db, settings):
    """Renders are queued (202), not run: the fuzzer exercises the API, not WeasyPrint."""
    settings.TASKS = {"default": settings.TASK_BACKENDS["database"]}


@pytest.fixture(autouse=True)
def _the_tests_connection_stays_open():
    """The fuzzer calls the WSGI application itself, so each request's end would close the
    test's database connection inside its transaction (PostgreSQL really closes it); as
    Django's test client does, the request signals leave connections alone meanwhile."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(
    max_examples=10,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_refuses_what_its_description_forbids_and_accepts_what_it_allows(case):
    case.call_and_validate(checks=NEGATIVE_CHECKS)
