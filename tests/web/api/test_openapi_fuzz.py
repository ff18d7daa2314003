"""schemathesis against /api/v1/openapi.json, in process: no 500, no answer outside it, and
no request it allows refused."""

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from tests.web.api.fuzz_checks import CHECKS

# The coverage phase (boundary values of every keyword: a thousand-odd requests for the army
# schema) runs on the check; the PDF endpoints read the same document with the same code,
# so random examples are enough for them and the file stays well under a minute.
CONFIG = SchemathesisConfig.from_str(
    """
[phases.coverage]
enabled = false
[[operations]]
include-path-regex = "^/api/v1/(check|rulesets.*|prints.*)$"
phases.coverage.enabled = true
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
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_answers_inside_its_description_and_accepts_what_it_allows(case):
    case.call_and_validate(checks=CHECKS)
