"""A Redis that hangs costs a request a fraction of a second (armybuilder/ops/rediscache.py,
the timeouts in the settings): a real web server whose page cache and RQ queue are on a
Redis of the test's own, paused with SIGSTOP (it still accepts connections, it answers
nothing), answers its share page, an edit and ``/healthz`` within a second each (while
``/healthz/redis`` says 503), and uses its cache again once Redis is let go on (SIGCONT).

Only the ``redis-server`` this test started is paused, found by the pid it started.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from contextlib import suppress

import pytest
import redis

from armybuilder.ops import rediscache
from tests.support import ROOT
from tests.web.ops.redis_server import free_port, no_redis
from tests.web.ops.test_serve_two_nodes import SETUP, Browser

pytestmark = pytest.mark.own_databases

BUDGET = 1.0  # seconds a page or an edit may take while Redis hangs


class PausableRedis:
    def __init__(self, directory) -> None:
        self.port = free_port()
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(directory)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while True:
            try:
                redis.Redis.from_url(self.url(0), socket_connect_timeout=1).ping()
                return
            except redis.RedisError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise
                time.sleep(0.1)

    def url(self, db: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def pause(self) -> None:
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        self.resume()
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture
def site(tmp_path):
    if shutil.which("redis-server") is None:
        no_redis("no redis-server to start (the machine's own Redis is never paused)")
    own = PausableRedis(tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "MUSTER_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="tests.server_settings",
        DJANGO_DEBUG="0",
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",
        REDIS_URL=own.url(0),
        MUSTER_TASK_BACKEND="rq",
        MUSTER_QUEUE_URL=own.url(1),
        MUSTER_PRERENDER_DELAY="3",  # every edit queues its prerender on the paused Redis
        MUSTER_REDIS_AWAY_SECONDS="1",
        MUSTER_CLIENT_IP_HEADER="HTTP_X_REAL_IP",
        WEB_CONCURRENCY="1",
        MUSTER_ACCESS_LOG="",
    )
    manage = [sys.executable, str(ROOT / "manage.py")]
    log_path = tmp_path / "web.log"
    server = None
    try:
        subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
        made = subprocess.run([*manage, "shell", "-c", SETUP], cwd=ROOT, env=env, check=True,
                              capture_output=True, text=True)  # fmt: skip
        facts = json.loads(made.stdout.strip().splitlines()[-1])
        port = free_port()
        with log_path.open("w") as log:
            server = subprocess.Popen(
                [sys.executable, "-m", "armybuilder.ops.serve"], cwd=ROOT,
                env={**env, "MUSTER_BIND": f"127.0.0.1:{port}"}, stdout=log,
                stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        _wait_until_serving(port, server, log_path)
        yield port, facts, own
    finally:
        if server is not None:
            with suppress(ProcessLookupError):
                os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=10)
        own.stop()


def _wait_until_serving(port, server, log_path):
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and server.poll() is None:
        with suppress(OSError):
            if Browser("10.9.0.9").get(port, "/healthz")[0] == 200:
                return
        time.sleep(0.5)
    pytest.fail(f"the server did not start:\n{log_path.read_text()[-3000:]}")


def timed(call):
    began = time.monotonic()
    answer = call()
    return answer, time.monotonic() - began


def test_a_paused_redis_costs_a_page_and_an_edit_under_a_second_each(site):
    port, facts, own = site
    alice = Browser("10.9.0.1")
    alice.log_in(port, "alice")
    pk, share = facts["army"], f"/s/{facts['token']}/"
    units = json.loads(alice.get(port, f"/armies/{pk}/export.json")[2])["units"]

    def edit(n):
        version = json.loads(alice.get(port, f"/armies/{pk}/version.json")[2])["version"]
        return alice.post(port, f"/armies/{pk}/unit/{units[0]['id']}/",
                          {"version": version, "f.name": f"Paused {n}"},
                          **{"HX-Request": "true"})  # fmt: skip

    assert edit(0)[0] == 200
    assert alice.get(port, share)[0] == 200
    assert alice.get(port, share)[1]["X-Muster-Page-Cache"] == "hit"  # the cache works

    own.pause()
    try:
        pages, edits = [], []
        for n in range(1, 4):
            (status, _, body), seconds = timed(lambda: alice.get(port, share))
            assert status == 200 and f"Paused {n - 1}" in body.decode()
            pages.append(seconds)
            (status, _, _), seconds = timed(lambda n=n: edit(n))
            assert status == 200
            edits.append(seconds)
        assert max(pages) < BUDGET, pages
        assert max(edits) < BUDGET, edits
        # the load balancer's check keeps the host; Redis's own says it does not answer
        (status, _, _), seconds = timed(lambda: alice.get(port, "/healthz"))
        assert status == 200 and seconds < BUDGET
        (status, _, body), seconds = timed(lambda: alice.get(port, "/healthz/redis"))
        assert status == 503 and seconds < BUDGET
        assert json.loads(body)["cache"] == "error: ConnectionError"
    finally:
        own.resume()

    # let go on, Redis is used again once this process's "away" moment has passed
    deadline = time.monotonic() + 20
    while alice.get(port, share)[1].get("X-Muster-Page-Cache") != "hit":
        assert time.monotonic() < deadline, "the page cache was not used again"
        time.sleep(0.5)
    assert alice.get(port, "/healthz/redis")[0] == 200
    exported = json.loads(alice.get(port, f"/armies/{pk}/export.json")[2])
    assert exported["units"][0]["name"] == "Paused 3"  # every edit made while paused kept


def test_a_command_to_a_redis_found_away_fails_at_once_until_the_moment_passes(settings):
    settings.MUSTER_REDIS_AWAY_SECONDS = 0.5
    rediscache.forget()
    client = rediscache.BoundedRedis.from_url(
        f"redis://127.0.0.1:{free_port()}/0", socket_connect_timeout=0.2, socket_timeout=0.2
    )  # nothing listens there
    with pytest.raises(redis.ConnectionError):
        client.get("x")
    where = rediscache._where(client)
    assert rediscache.is_away(where)
    with pytest.raises(redis.ConnectionError, match="did not answer a moment ago"):
        client.get("x")
    time.sleep(0.6)
    assert not rediscache.is_away(where)
    rediscache.forget()


SETTINGS_REDIS_CLIENTS = """
import json
import django
django.setup()
import django_rq
from django.conf import settings
from django.core.cache import caches

cache_pool = caches["default"]._cache._get_connection_pool(True)
print(json.dumps({
    "cache": type(caches["default"]).__module__,
    "cache_kwargs": [cache_pool.connection_kwargs.get(k)
                     for k in ("socket_connect_timeout", "socket_timeout")],
    "queues": {name: [django_rq.get_connection(name).connection_pool.connection_kwargs.get(k)
                      for k in ("socket_connect_timeout", "socket_timeout")]
               for name in settings.RQ_QUEUES},
}))
"""


def test_every_redis_client_the_settings_make_has_connect_and_read_timeouts():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "MUSTER_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="armybuilder.settings",
        REDIS_URL="redis://127.0.0.1:1/0",  # nothing is asked of it: the clients are only made
        MUSTER_QUEUE_URL="redis://127.0.0.1:1/1",
        MUSTER_REDIS_TIMEOUT="0.3",
    )
    made = subprocess.run([sys.executable, "-c", SETTINGS_REDIS_CLIENTS], cwd=ROOT, env=env,
                          check=True, capture_output=True, text=True)  # fmt: skip
    clients = json.loads(made.stdout.strip().splitlines()[-1])
    assert clients["cache"] == "armybuilder.ops.rediscache"
    assert clients["cache_kwargs"] == [0.3, 0.3]
    assert clients["queues"] == {"default": [0.3, 0.3], "probe": [0.3, 0.3]}
