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
        name: (1_000_000, 3600) for name in ("pdf", "import", "create", "signup")
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

