"""With Redis configured, the limits and the log-in lock-out do not depend on it: Redis
stopped, they hold (fail closed, never open), and Redis started again empty forgets
nothing, because their counts live in the app's database (``accounts.counters``).

The test starts its own Redis on a free port and a real server process with REDIS_URL
pointing at it (so the site's cache is on that Redis, as in production), then stops
Redis and starts it again with nothing in it.
"""

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest
import redis

from tests.support import ROOT
from tests.web.test_throttle_across_processes import (
    PASSWORD,
    Servers,
    _clear_of_a_window_edge,
    _wait_until_up,
    free_port,
)

REDIS_DB = 6  # this file's own Redis database number (on its own Redis server)

pytestmark = [
    pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server"),
    pytest.mark.own_databases,
]


class OwnRedis:
    """A redis-server of the test's own, without persistence: started again, it is empty."""

    def __init__(self, port: int, log_path) -> None:
        self.port, self.log_path, self.process = port, log_path, None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/{REDIS_DB}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"],
            stdout=self.log_path.open("a"), stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if redis.Redis.from_url(self.url, socket_connect_timeout=1).ping():
                    return
            except redis.RedisError:
                time.sleep(0.1)
        pytest.fail(f"redis-server did not start: {self.log_path.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        self.process = None

    def answers(self) -> bool:
        try:
            return bool(redis.Redis.from_url(self.url, socket_connect_timeout=1).ping())
        except redis.RedisError:
            return False


@pytest.fixture
def site(tmp_path):
    """A server process on SQLite with its cache on the test's own Redis."""
    own = OwnRedis(free_port(), tmp_path / "redis.log")
    own.start()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "MUSTER_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="tests.server_settings",
        DJANGO_DEBUG="0",
        MUSTER_CLIENT_IP_HEADER="HTTP_X_REAL_IP",
        MUSTER_TASK_BACKEND="database",  # renders wait in the queue: no worker runs here
        MUSTER_VISITOR_LIMIT_PDF="30/600",
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",
        REDIS_URL=own.url,
    )
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    port = free_port()
    log_path = tmp_path / "server.log"
    with log_path.open("w") as log:
        server = subprocess.Popen(
            [*manage, "runserver", "--noreload", f"127.0.0.1:{port}"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        try:
            _wait_until_up(port, server, log_path)
            yield Servers([port]), own
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=10)
            own.stop()


def test_lock_out_and_limits_hold_with_redis_down_and_after_it_returns_empty(site):
    servers, own = site
    port = servers.ports[0]
    _clear_of_a_window_edge()
    form = {"username": "carol", "password1": PASSWORD, "password2": PASSWORD}
    assert servers.request(port, "POST", "/accounts/signup/", "10.7.0.1", form) == 302
    right = {"username": "carol", "password": PASSWORD}

    own.stop()
    assert not own.answers()
    # five wrong passwords lock the account: the right one is then refused
    wrong = {"username": "carol", "password": "not-it"}
    for n in range(5):
        assert servers.request(port, "POST", "/accounts/login/", f"10.7.1.{n}", wrong) == 200
    assert servers.request(port, "POST", "/accounts/login/", "10.7.2.1", right) == 429
    # PDF renders: 30 per 10 minutes from one address, 40 new sheets asked
    statuses = [new_sheet(servers, port, n, "10.7.3.1") for n in range(40)]
    assert sorted(statuses) == [202] * 30 + [429] * 10

    own.start()  # back, with nothing in it
    assert own.answers() and redis.Redis.from_url(own.url).dbsize() == 0
    assert servers.request(port, "POST", "/accounts/login/", "10.7.2.2", right) == 429
    assert new_sheet(servers, port, 40, "10.7.3.1") == 429
    # and an address that used nothing yet still gets its own allowance
    assert new_sheet(servers, port, 41, "10.7.3.2") == 202


def new_sheet(servers: Servers, port: int, n: int, address: str) -> int:
    """Ask the API for a sheet never asked for before: a render to queue."""
    army = {"format": "muster.army/1", "ruleset": "into-the-dark", "units": [], "name": f"A{n}"}
    return servers.request(port, "POST", "/api/v1/roster.pdf", address, [army])
