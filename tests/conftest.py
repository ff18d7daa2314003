import io
import sys
import threading
import time
import traceback
from contextlib import contextmanager

import pytest
from django.contrib.auth.models import User

from armybuilder.catalog.services import load_lists


@pytest.fixture(scope="session", autouse=True)
def _quick_passwords():
    """Passwords hashed with few iterations (tests/hashers.py) for the whole run."""
    from django.conf import settings
    from django.test import override_settings

    quick = override_settings(
        PASSWORD_HASHERS=[
            "tests.hashers.FewIterationsPBKDF2PasswordHasher",
            *settings.PASSWORD_HASHERS,
        ]
    )
    quick.enable()
    yield
    quick.disable()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """On a database server the test database's name is this run's own, so two runs at
    once on one PostgreSQL never share (or drop) each other's (tests/database_names.py)."""
    from django.conf import settings

    from tests.database_names import own_test_names, run_part

    own_test_names(settings.DATABASES, run_part())


@pytest.fixture(scope="session", autouse=True)
def _page_engine_off():
    """Pages carry no engine (the rules in the browser, armybuilder/pageengine.py) unless a
    test asks for it with ``page_engine``: a page that starts Pyodide spends seconds of CPU
    a journey about something else has no use for."""
    from django.test import override_settings

    off = override_settings(MUSTER_PAGE_ENGINE=False)
    off.enable()
    yield
    off.disable()


@pytest.fixture(scope="session")
def node_engine():
    """The rules engine as a page's worker runs it (Pyodide with the rules archive), under
    Node, started once per test session: ``node_engine.call("rules.page.<m>:<f>", **kw)``."""
    from tests.engine.node import start_node_engine

    try:
        engine = start_node_engine()
    except RuntimeError as missing:
        pytest.fail(str(missing))
    yield engine
    engine.close()


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

    tests/web/printing/test_tasks.py runs the real database and Redis queues with a worker.
    """
    settings.TASKS = {"default": settings.TASK_BACKENDS["immediate"]}


# Hardening: the suite creates many armies and logs in often from one address,
# so tests get generous rate limits and a clean slate of counters; the limits themselves
# are tested with small ones (tests/web/test_throttle.py).
@pytest.fixture(autouse=True)
def generous_rate_limits(settings):
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    names = ("pdf", "import", "create", "list-create", "list-import", "write")
    settings.MUSTER_RATE_LIMITS = {name: (1_000_000, 3600) for name in names}
    settings.MUSTER_VISITOR_RATE_LIMITS = {
        name: (1_000_000, 3600) for name in (*names, "signup", "signup-day")
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
    try:
        if nextitem is None or not _empties_the_tables(item):
            return
        from pytest_django.plugin import blocking_manager_key

        from armybuilder.catalog.services import load_lists

        with item.config.stash[blocking_manager_key].unblock():
            load_lists()
    finally:
        while _HELD:  # the live server may serve again (see _the_live_servers_connection)
            _HELD.pop().release()


@pytest.fixture(scope="session")
def live_server(django_db_setup, live_server):
    """On SQLite the test database lives in memory, and pytest-django hands the server's
    request threads the test's own connection. Two requests at once on that one connection
    (a page reloading while its leave-page flush is still saving) fail inside sqlite3 with
    "bad parameter or other API misuse". Requests therefore take turns, and the test body's
    own queries wait for the request in hand: one connection, one user at a time. A
    database with a connection per thread (PostgreSQL) is left to serve requests at once;
    only a test's end waits for those in hand (``_Quiet``).

    The test database must exist before the server starts (``django_db_setup`` first):
    started earlier, the server sees the development database's name, shares nothing, and
    its threads open connections of their own to the in-memory database, where one
    thread's write fails another's read ("database table is locked")."""
    shared = list(live_server.thread.connections_override.values())
    httpd = live_server.thread.httpd
    if shared:
        turn = live_server.muster_turn = _Turn()
        httpd.set_app(_one_request_at_a_time(httpd.get_app(), turn))
        for connection in shared:
            connection.execute_wrappers.append(_waiting_for(turn))
    else:
        quiet = live_server.muster_turn = _Quiet()
        httpd.set_app(quiet.serving(httpd.get_app()))
    return live_server


@pytest.fixture(autouse=True)
def _the_live_servers_connection(request):
    """A test with the live server reads and writes through the server's own (shared)
    connection. Once Playwright runs, its event loop makes Django keep this thread's
    connections per context, and the test body would otherwise open a second connection
    to the in-memory database, outside the turns ``live_server`` takes.

    When the test ends, the browser is closed but a request it sent may still be served.
    The tables are emptied on this thread's own connection, so the server is left to
    finish what it has in hand and then held (no request starts) until the tables are
    emptied and the lists loaded again (``pytest_runtest_teardown``)."""
    if "live_server" not in request.fixturenames:
        yield
        return
    server = request.getfixturevalue("live_server")
    if "playwright" in request.fixturenames:
        request.getfixturevalue("playwright")  # from here on, this context's connections
    from django.db import connections

    shared = server.thread.connections_override
    before = {alias: connections[alias] for alias in shared}
    for alias, connection in shared.items():
        connections[alias] = connection
    yield
    turn = getattr(server, "muster_turn", None)
    if turn is not None:
        turn.hold_when_quiet()
        _HELD.append(turn)
    for alias, connection in before.items():
        connections[alias] = connection


TURN_WAIT = 60  # seconds: far beyond any one request here; past it, something is stuck
_HELD: list["_Turn | _Quiet"] = []  # turns a finished test holds until its tables are emptied


class _Turn:
    """The live server's one connection, taken in turns, never waited for without end: a
    turn held too long fails the waiter with the holder's stack (where it is stuck)."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._holder: tuple[int, str] | None = None
        self._requests = 0  # requests being served or waiting for their turn
        self._count = threading.Lock()

    def _stuck(self, what: str) -> RuntimeError:
        held = self._holder
        stack = ""
        if held is not None and (frame := sys._current_frames().get(held[0])) is not None:
            stack = "".join(traceback.format_stack(frame))
        return RuntimeError(
            f"{what} waited {TURN_WAIT} s for the live server's database connection, "
            f"held by {held[1] if held else 'nobody known'}:\n{stack}"
        )

    @contextmanager
    def request(self):
        with self._count:
            self._requests += 1
        try:
            yield
        finally:
            with self._count:
                self._requests -= 1

    def hold_when_quiet(self) -> None:
        """Take the turn once no request is being served or waiting; kept until
        ``release``."""
        deadline = time.monotonic() + TURN_WAIT
        while self._lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
            if self._requests == 0:
                self._holder = (threading.get_ident(), "the end of a test")
                return
            self._lock.release()
            time.sleep(0.02)
            if time.monotonic() > deadline:
                break
        raise self._stuck("The end of the test")

    def release(self) -> None:
        self._holder = None
        self._lock.release()

    @contextmanager
    def __call__(self, what: str):
        if not self._lock.acquire(timeout=TURN_WAIT):
            raise self._stuck(what)
        outer = self._holder
        self._holder = (threading.get_ident(), what)
        try:
            yield
        finally:
            self._holder = outer
            self._lock.release()


class _Quiet:
    """A database with a connection per thread (PostgreSQL): requests are served at once,
    but a test's end waits until none is being served and holds new ones until the tables
    are emptied and the lists loaded again (``release``). A request a closed browser left
    behind (a roster its service worker asked for, rendering) would otherwise hold row
    locks as the tables are emptied: the flush's TRUNCATE and it deadlock."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._serving = 0
        self._held = False

    def serving(self, app):
        def serve(environ, start_response):
            # the body is read first: one a closed browser never finishes sending does not
            # count as a request being served
            _read_body(environ)
            with self._changed:
                self._changed.wait_for(lambda: not self._held, timeout=TURN_WAIT)
                self._serving += 1
            try:
                return _served_whole(app, environ, start_response)
            finally:
                with self._changed:
                    self._serving -= 1
                    self._changed.notify_all()

        return serve

    def hold_when_quiet(self) -> None:
        with self._changed:
            self._held = True
            if not self._changed.wait_for(lambda: self._serving == 0, timeout=TURN_WAIT):
                self._held = False
                self._changed.notify_all()
                raise RuntimeError(f"The end of the test waited {TURN_WAIT} s for requests")

    def release(self) -> None:
        with self._changed:
            self._held = False
            self._changed.notify_all()


def _one_request_at_a_time(app, turn: _Turn):
    def serve(environ, start_response):
        # The body is read before the turn is taken: a request the browser gave up on while
        # sending it (a save replaced in flight, a page closed or taken offline) must leave
        # only its own thread waiting, not every other request and the test body with it.
        with turn.request():
            _read_body(environ)
            what = f"the request {environ.get('REQUEST_METHOD')} {environ.get('PATH_INFO')}"
            with turn(what):
                return _served_whole(app, environ, start_response)  # while it has the connection

    return serve


def _read_body(environ) -> None:
    length = int(environ.get("CONTENT_LENGTH") or 0)
    if length > 0:
        environ["wsgi.input"] = io.BytesIO(environ["wsgi.input"].read(length))


def _served_whole(app, environ, start_response) -> list[bytes]:
    answer = app(environ, start_response)
    try:
        return [b"".join(answer)]
    finally:
        if hasattr(answer, "close"):
            answer.close()


def _waiting_for(turn: _Turn):
    def execute(run, sql, params, many, context):
        with turn(f"a query of {threading.current_thread().name}"):
            return run(sql, params, many, context)

    return execute


DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
}


def pytest_collection_modifyitems(config, items):
    """A test marked ``own_databases`` is left out of CI's second run (on PostgreSQL): it
    runs on databases it makes itself, whichever the suite is given. So it may never reach
    the configured one; one that asks for it is refused here."""
    for item in items:
        if item.get_closest_marker("own_databases") is None:
            continue
        asks = DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
        if asks or item.get_closest_marker("django_db") is not None:
            raise pytest.UsageError(
                f"{item.nodeid} is marked own_databases but uses the configured database"
            )
