import threading

import pytest
from django.contrib.auth.models import User

from armybuilder.catalog.services import load_lists


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database holds every army list from fixtures/, as `make run` loads them."""
    with django_db_blocker.unblock():
        load_lists()


@pytest.fixture
def user(db):
    """A player with an account (alice)."""
    return User.objects.create_user("alice", password="a-long-Pass-123")


@pytest.fixture
def owner_client(client, user):
    """The test client logged in as ``user``."""
    client.force_login(user)
    return client


@pytest.fixture(autouse=True)
def _tasks_run_at_once(settings):
    """Queued tasks (PDF renders) run at once inside the request in most tests.

    tests/web/printing/test_print_queue.py runs the real database and Redis queues with a worker.
    """
    settings.TASKS = {"default": settings.TASK_BACKENDS["immediate"]}


# Hardening: the suite creates many armies and logs in often from one address,
# so tests get generous rate limits and a clean slate of counters; the limits themselves
# are tested with small ones (tests/web/ops/test_throttle.py).
@pytest.fixture(autouse=True)
def generous_rate_limits(settings):
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    settings.MUSTER_RATE_LIMITS = {
        name: (1_000_000, 3600)
        for name in ("pdf", "import", "create", "signup", "list-create", "list-import")
    }
    settings.MUSTER_LOGIN_LOCKOUT = {"account_failures": 1000, "address_failures": 1000}
    if isinstance(caches["default"], LocMemCache):
        # the shared database counters: count in the in-memory default cache instead (a
        # new CACHES setting would drop every cache connection, and what a test patched on one)
        settings.MUSTER_RATE_LIMIT_CACHE = "default"
    elif not isinstance(caches[settings.MUSTER_RATE_LIMIT_CACHE], LocMemCache):
        # REDIS_URL is set: count in memory rather than clear a Redis database per test
        local = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "rl"}
        settings.CACHES = {**settings.CACHES, "ratelimit-tests": local}
        settings.MUSTER_RATE_LIMIT_CACHE = "ratelimit-tests"
    caches[settings.MUSTER_RATE_LIMIT_CACHE].clear()


@pytest.fixture(autouse=True)
def _fresh_page_cache():
    """Each test starts with an empty in-memory cache: cached pages (ETag tests) and
    renders keyed by content must not come from an earlier test's data."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    if isinstance(caches["default"], LocMemCache):
        caches["default"].clear()


def _empties_the_tables(item: pytest.Item) -> bool:
    """A live-server or other transactional test flushes every table when it ends."""
    names = getattr(item, "fixturenames", ())
    marker = item.get_closest_marker("django_db")
    transactional = marker is not None and marker.kwargs.get("transaction", False)
    return "live_server" in names or "transactional_db" in names or bool(transactional)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """A live-server or transactional test empties every table when it ends; put the army
    lists back (as ``django_db_setup`` loaded them) for the tests that follow."""
    yield
    if nextitem is None or not _empties_the_tables(item):
        return
    from pytest_django.plugin import blocking_manager_key

    from armybuilder.catalog.services import load_lists

    with item.config.stash[blocking_manager_key].unblock():
        load_lists()


@pytest.fixture(scope="session")
def live_server(live_server):
    """On SQLite the test database lives in memory, and pytest-django hands the server's
    request threads the test's own connection. Two requests at once on that one connection
    (a page reloading while its leave-page flush is still saving) fail inside sqlite3 with
    "bad parameter or other API misuse". Requests therefore take turns, and the test body's
    own queries wait for the request in hand: one connection, one user at a time. A
    database with a connection per thread (PostgreSQL) is left to serve requests at once."""
    shared = list(live_server.thread.connections_override.values())
    if shared:
        turn = threading.RLock()
        httpd = live_server.thread.httpd
        httpd.set_app(_one_request_at_a_time(httpd.get_app(), turn))
        for connection in shared:
            connection.execute_wrappers.append(_waiting_for(turn))
    return live_server


def _one_request_at_a_time(app, turn: threading.RLock):
    def serve(environ, start_response):
        with turn:
            answer = app(environ, start_response)
            try:
                return [b"".join(answer)]  # read whole while this request has the connection
            finally:
                if hasattr(answer, "close"):
                    answer.close()

    return serve


def _waiting_for(turn: threading.RLock):
    def execute(run, sql, params, many, context):
        with turn:
            return run(sql, params, many, context)

    return execute
