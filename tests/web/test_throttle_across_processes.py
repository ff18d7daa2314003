"""The limits of docs/api.md hold exactly across web processes, as under ``make run`` (two
processes): two real servers share one database (SQLite file or PostgreSQL), where the
counters live also when REDIS_URL puts the cache on Redis, and requests alternate between
them, several at once.

Each scenario comes from its own client address (``MUSTER_CLIENT_IP_HEADER``), with the
visitors' limits set as an operator sets them, in the environment: PDF renders 30 per 10
minutes, sign-ups 5 per hour; and the shipped lock-out, 20 wrong passwords from one
address, 5 for one account.
"""

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from itertools import cycle

import pytest

from tests.support import ROOT
from tests.web.ops.redis_server import own_redis
from tests.web.scratch_postgres import own_database, postgres_answers, server_url

pytestmark = pytest.mark.own_databases

PASSWORD = "a-long-Pass-123"
PG_PREFIX = "muster_limits"  # made unique per run (scratch_postgres.own_database)
THREADS = 6


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Servers:
    """Two server processes on one store; ``ports`` alternate request by request."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self._csrf: str | None = None

    def request(self, port: int, method: str, path: str, address: str, form=None):
        """``form``: a dict posted as a form, or a list holding the one document posted
        as JSON (the API's, which takes no CSRF token)."""
        headers = {"X-Real-IP": address, "Host": "127.0.0.1"}
        body = None
        if isinstance(form, list):
            body = json.dumps(form[0])
            headers["Content-Type"] = "application/json"
        elif form is not None:
            token = self.csrf_token()
            body = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": token})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Cookie"] = f"csrftoken={token}"
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            return response.status
        finally:
            connection.close()

    def csrf_token(self) -> str:
        """One CSRF cookie serves both processes (it is not tied to a session)."""
        if self._csrf is None:
            connection = http.client.HTTPConnection("127.0.0.1", self.ports[0], timeout=60)
            connection.request("GET", "/accounts/login/", headers={"Host": "127.0.0.1"})
            response = connection.getresponse()
            response.read()
            cookie = response.getheader("Set-Cookie") or ""
            self._csrf = re.search(r"csrftoken=([^;]+)", cookie).group(1)
            connection.close()
        return self._csrf

    def many(self, requests: list[tuple[str, str, str, dict | list | None]]) -> list[int]:
        """Send ``requests`` several at a time, alternating the two processes."""
        jobs = list(zip(cycle(self.ports), requests, strict=False))
        with ThreadPoolExecutor(THREADS) as pool:
            return list(pool.map(lambda job: self.request(job[0], *job[1]), jobs))


def _wait_until_up(port: int, process: subprocess.Popen, log_path) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/accounts/login/", headers={"Host": "127.0.0.1"})
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.5)
    pytest.fail(f"the server on {port} did not start:\n{log_path.read_text()[-3000:]}")


STORES = ["sqlite", "postgres", "sqlite-redis"]


@pytest.fixture(params=STORES)
def servers(request, tmp_path):
    store = request.param
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "MUSTER_"))}
    env.pop("REDIS_URL", None)
    env.pop("DATABASE_URL", None)
    env.update(
        DJANGO_SETTINGS_MODULE="tests.server_settings",
        DJANGO_DEBUG="0",
        MUSTER_CLIENT_IP_HEADER="HTTP_X_REAL_IP",
        MUSTER_TASK_BACKEND="database",  # renders wait in the queue: no worker runs here
        MUSTER_VISITOR_LIMIT_PDF="30/600",
        MUSTER_VISITOR_LIMIT_SIGNUP="5/3600",
        DATABASE_URL=f"sqlite:///{tmp_path / 'shared.sqlite3'}",
    )
    stores = ExitStack()
    if store == "postgres":
        if not postgres_answers():
            pytest.skip(f"PostgreSQL does not answer at {server_url()}")
        env["DATABASE_URL"] = stores.enter_context(own_database(PG_PREFIX))
    if store.endswith("redis"):
        env["REDIS_URL"] = stores.enter_context(own_redis(tmp_path))[0]
    manage = [sys.executable, str(ROOT / "manage.py")]
    processes, logs = [], []
    try:
        subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
        ports = [free_port(), free_port()]
        for port in ports:
            log_path = tmp_path / f"server-{port}.log"
            logs.append(log_path.open("w"))
            processes.append(
                subprocess.Popen(
                    [*manage, "runserver", "--noreload", f"127.0.0.1:{port}"],
                    cwd=ROOT, env=env, stdout=logs[-1], stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )  # fmt: skip
        for port, process in zip(ports, processes, strict=True):
            _wait_until_up(port, process, tmp_path / f"server-{port}.log")
        yield Servers(ports)
    finally:
        for process in processes:
            os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
        for log in logs:
            log.close()
        stores.close()  # drops the database this test made, stops its Redis


def _clear_of_a_window_edge(seconds: int = 600, margin: float = 60) -> None:
    """Limits count in fixed windows (10 minutes for PDFs, an hour for sign-ups, both
    starting on the clock's multiples of 10 minutes): start well inside one, so the
    requests below are not split between two windows' counts."""
    left = seconds - time.time() % seconds
    if left < margin:
        time.sleep(left + 1)


def test_the_shipped_limits_hold_exactly_across_two_processes(servers):
    _clear_of_a_window_edge()
    # PDF renders: 30 per 10 minutes; 40 sheets never asked for before, 30 queued (202),
    # 10 refused.
    army = {"format": "muster.army/1", "ruleset": "into-the-dark", "units": []}
    sheets = [
        ("POST", "/api/v1/roster.pdf", "10.0.0.1", [{**army, "name": f"Army {n}"}])
        for n in range(40)
    ]
    statuses = servers.many(sheets)
    assert sorted(statuses) == [202] * 30 + [429] * 10

    # Sign-ups: 5 per hour; 14 tried, 5 accounts made.
    names = [f"limits{n}" for n in range(14)]
    sign_ups = [
        ("POST", "/accounts/signup/", "10.0.0.2", {"username": name, "password1": PASSWORD,
                                                  "password2": PASSWORD})
        for name in names
    ]  # fmt: skip
    statuses = servers.many(sign_ups)
    assert sorted(statuses) == [302] * 5 + [429] * 9
    made = [name for name, status in zip(names, statuses, strict=True) if status == 302]

    # One address: 20 wrong passwords (under 20 names) pass, then the address is locked in
    # both processes, even for an account's right password.
    wrong = [
        ("POST", "/accounts/login/", "10.0.0.3", {"username": f"ghost{n}", "password": "x"})
        for n in range(20)
    ]
    assert servers.many(wrong) == [200] * 20
    right = {"username": made[0], "password": PASSWORD}
    for port in servers.ports:
        assert servers.request(port, "POST", "/accounts/login/", "10.0.0.3", right) == 429

    # One account: 5 wrong passwords, from five addresses and both processes, lock it; its
    # right password, even under another spelling, is then refused by either process.
    victim = made[1]
    wrong = [
        ("POST", "/accounts/login/", f"10.0.1.{n}", {"username": victim, "password": "x"})
        for n in range(5)
    ]
    assert servers.many(wrong) == [200] * 5
    full_width = "".join(chr(ord(c) + 0xFEE0) for c in victim)
    for port in servers.ports:
        for spelling in (victim, full_width):
            form = {"username": spelling, "password": PASSWORD}
            assert servers.request(port, "POST", "/accounts/login/", "10.0.2.1", form) == 429

    # Another account, from a fresh address, still logs in (the locks are only these).
    other = {"username": made[2], "password": PASSWORD}
    assert servers.request(servers.ports[1], "POST", "/accounts/login/", "10.0.3.1", other) == 302
