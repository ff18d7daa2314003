"""Two nodes, one site: two web servers (granian, as ``make run`` starts it) and two
``muster_worker`` processes on different ports, sharing one PostgreSQL and one Redis (the
page cache, the rate limits and the RQ queue), as docs/deploying.md's two-host deployment runs.
A player's edits, share pages, list changes and renders go through both nodes.

``make two-nodes`` runs this file. It needs a PostgreSQL server (``MUSTER_TEST_POSTGRES``,
default 127.0.0.1:5432; skipped without one), where it makes a database of its own under a
name no one else has and drops only that one, and a Redis (its own ``redis-server``, else
the machine's: tests/web/ops/redis_server.py).
"""

import http.client
import json
import os
import signal
import subprocess
import sys
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from http.cookies import SimpleCookie

import pytest

from tests.support import ROOT
from tests.web.ops.redis_server import free_port, own_redis
from tests.web.scratch_postgres import own_database, postgres_answers, server_url

pytestmark = pytest.mark.own_databases

PG_PREFIX = "muster_two_nodes"
PASSWORD = "a-long-Pass-123"
RULESET = "into-the-dark"
UNITS = 8

SETUP = f"""
import json
from django.contrib.auth.models import User
from armybuilder.armies import services
from armybuilder.catalog.models import PUBLISHED, ArmyList
from armybuilder.catalog.services import load_lists
from tests.support import army

load_lists()
alice = User.objects.create_user("alice", password={PASSWORD!r})
model = ArmyList.objects.filter(ruleset={RULESET!r}, author__isnull=True).first()
own = ArmyList.objects.create(
    ruleset=model.ruleset, slug="alices-warband-q8z1", name="Alice's Warband",
    period=model.period, data=model.data, author=alice, status=PUBLISHED,
)
document = army({RULESET!r}, [{{"name": f"Unit {{n}}"}} for n in range({UNITS})])
saved = services.create_army(document, owner=alice)  # its units get their ids
services.regenerate_share_token(saved)  # new armies are private: alice shares this one
print(json.dumps({{"army": saved.pk, "token": saved.share_token, "list": own.slug,
                  "list_name": own.name}}))
"""


class Browser:
    """One visitor (cookies, a client address) who may use either node."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.cookies: dict[str, str] = {}

    def request(self, port, method, path, form=None, headers=None):
        # one site name for both nodes, as a load balancer in front of them passes it on
        sent = {"Host": "127.0.0.1", "X-Real-IP": self.address, **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(
                {**form, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")}
            )
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            content = response.read()
        finally:
            connection.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            cookie = SimpleCookie()
            cookie.load(header)
            for name, morsel in cookie.items():
                self.cookies[name] = morsel.value
        return response.status, response.headers, content

    def get(self, port, path, **headers):
        return self.request(port, "GET", path, headers=headers)

    def post(self, port, path, form, **headers):
        if "csrftoken" not in self.cookies:
            self.get(port, "/accounts/login/")
        return self.request(port, "POST", path, form=form, headers=headers)

    def log_in(self, port, username):
        status, _, _ = self.post(port, "/accounts/login/", {"username": username,
                                                            "password": PASSWORD})  # fmt: skip
        assert status == 302, "logged in"


class Site:
    def __init__(self, ports, workers, facts, logs):
        self.ports = ports
        self.workers = workers
        self.facts = facts
        self.logs = logs


def _wait_healthy(port, processes, logs):
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if any(p.poll() is not None for p in processes):
            break
        with suppress(OSError):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/healthz/workers")  # its web and a worker answer
            if connection.getresponse().status == 200:
                return
        time.sleep(0.5)
    pytest.fail("a node did not come up:\n" + "\n".join(p.read_text()[-2000:] for p in logs))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    if not postgres_answers(server_url()):
        pytest.skip(f"two nodes share a PostgreSQL: none answers at {server_url()}")
    tmp_path = tmp_path_factory.mktemp("two-nodes")
    with own_redis(tmp_path) as (cache_url, queue_url), own_database(PG_PREFIX) as database:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "MUSTER_"))}
        env.update(
            DJANGO_SETTINGS_MODULE="tests.server_settings",
            DJANGO_DEBUG="0",
            DATABASE_URL=database,
            REDIS_URL=cache_url,
            MUSTER_TASK_BACKEND="rq",
            MUSTER_QUEUE_URL=queue_url,
            MUSTER_CLIENT_IP_HEADER="HTTP_X_REAL_IP",
            MUSTER_PRERENDER_DELAY="-1",
            MUSTER_VISITOR_LIMIT_IMPORT="30/3600",
            WEB_CONCURRENCY="1",
            MUSTER_ACCESS_LOG="",
        )
        manage = [sys.executable, str(ROOT / "manage.py")]
        processes, logs, files = [], [], []
        try:
            subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env,
                           check=True)  # fmt: skip
            made = subprocess.run([*manage, "shell", "-c", SETUP], cwd=ROOT, env=env,
                                  check=True, capture_output=True, text=True)  # fmt: skip
            facts = json.loads(made.stdout.strip().splitlines()[-1])
            ports = [free_port(), free_port()]

            def start(name, command, **extra):
                logs.append(tmp_path / f"{name}.log")
                files.append(logs[-1].open("w"))
                processes.append(
                    subprocess.Popen(command, cwd=ROOT, env={**env, **extra}, stdout=files[-1],
                                     stderr=subprocess.STDOUT, start_new_session=True)
                )  # fmt: skip
                return processes[-1]

            workers = []  # logs: web-a, worker-a, web-b, worker-b
            for node, port in zip("ab", ports, strict=True):
                start(f"web-{node}", [sys.executable, "-m", "armybuilder.ops.serve"],
                      MUSTER_BIND=f"127.0.0.1:{port}")  # fmt: skip
                workers.append(start(f"worker-{node}", [*manage, "muster_worker"]))
            for port in ports:
                _wait_healthy(port, processes, logs)
            yield Site(ports, workers, facts, logs)
        finally:
            for process in processes:
                with suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
            for process in processes:
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(timeout=10)
            for file in files:
                file.close()


def test_edits_sent_through_both_nodes_at_once_are_all_kept(site):
    alice = Browser("10.1.0.1")
    alice.log_in(site.ports[0], "alice")
    pk = site.facts["army"]
    version_url = f"/armies/{pk}/version.json"
    first = json.loads(alice.get(site.ports[1], version_url)[2])["version"]
    exported = json.loads(alice.get(site.ports[0], f"/armies/{pk}/export.json")[2])
    unit_ids = [u["id"] for u in exported["units"]]  # a unit is named by its id, not its place
    refused = []

    def edit(unit):  # each unit renamed through one node, its version read through the other
        port, other = site.ports[unit % 2], site.ports[1 - unit % 2]
        while True:
            version = json.loads(alice.get(other, version_url)[2])["version"]
            status, _, _ = alice.post(
                port, f"/armies/{pk}/unit/{unit_ids[unit]}/", {"version": version, "f.name": f"Kept {unit}"},
                **{"HX-Request": "true"},
            )  # fmt: skip
            if status == 200:
                return
            assert status == 409, status  # a stale version is refused, never applied blindly
            refused.append(unit)

    with ThreadPoolExecutor(UNITS) as pool:
        list(pool.map(edit, range(UNITS)))

    for port in site.ports:
        document = json.loads(alice.get(port, f"/armies/{pk}/export.json")[2])
        assert [u["name"] for u in document["units"]] == [f"Kept {n}" for n in range(UNITS)]
        assert json.loads(alice.get(port, version_url)[2])["version"] == first + UNITS
    print(f"{UNITS} edits kept; {len(refused)} stale attempts refused with 409 and sent again")


def test_a_list_made_private_on_one_node_is_gone_from_every_page_of_both_at_once(site):
    visitor, alice = Browser("10.2.0.1"), Browser("10.2.0.2")
    alice.log_in(site.ports[1], "alice")
    slug, name = site.facts["list"], site.facts["list_name"].replace("'", "&#x27;")
    ruleset_page = f"/rulesets/{RULESET}/"
    list_page = f"/rulesets/{RULESET}/lists/{slug}/"
    api = f"/api/v1/lists/{RULESET}/{slug}"
    visitor.get(site.ports[0], "/")  # a browser that has been here (its CSRF cookie)

    status, headers, body = visitor.get(site.ports[0], ruleset_page)
    assert status == 200 and name in body.decode()
    etag = headers["ETag"]
    # the other node serves the same version from the shared cache: same ETag, 304
    status, headers, _ = visitor.get(site.ports[1], ruleset_page, **{"If-None-Match": etag})
    assert status == 304 and headers["ETag"] == etag
    assert visitor.get(site.ports[1], ruleset_page)[1]["X-Muster-Page-Cache"] == "hit"
    list_etags = [visitor.get(port, list_page)[1]["ETag"] for port in site.ports]
    for port in site.ports:
        status, headers, _ = visitor.get(port, api)
        assert status == 200 and "max-age" not in headers["Cache-Control"]

    status, _, _ = alice.post(site.ports[1], list_page + "status/", {"status": "private"})
    assert status == 302

    # the very next request to either node: gone everywhere, old ETags included
    for port in site.ports:
        status, _, body = visitor.get(port, ruleset_page, **{"If-None-Match": etag})
        assert status == 200 and name not in body.decode()
        for old in list_etags:
            assert visitor.get(port, list_page, **{"If-None-Match": old})[0] == 404
        assert visitor.get(port, api)[0] == 404
        # its author still reads it, through either node
        assert alice.get(port, list_page)[0] == 200


def test_a_share_page_follows_edits_and_sharing_off_on_both_nodes(site):
    visitor, alice = Browser("10.3.0.1"), Browser("10.3.0.2")
    alice.log_in(site.ports[0], "alice")
    pk, share = site.facts["army"], f"/s/{site.facts['token']}/"
    visitor.get(site.ports[0], "/")  # a browser that has been here (its CSRF cookie)
    etags = []
    for port in site.ports:
        status, headers, _ = visitor.get(port, share)
        assert status == 200
        etags.append(headers["ETag"])
    assert etags[0] == etags[1]  # one page, one version, whichever node answers

    version = json.loads(alice.get(site.ports[0], f"/armies/{pk}/version.json")[2])["version"]
    exported = json.loads(alice.get(site.ports[0], f"/armies/{pk}/export.json")[2])
    first_unit = exported["units"][0]["id"]
    status, _, _ = alice.post(site.ports[0], f"/armies/{pk}/unit/{first_unit}/",
                              {"version": version, "f.name": "Renamed on a"},
                              **{"HX-Request": "true"})  # fmt: skip
    assert status == 200
    status, _, body = visitor.get(site.ports[1], share, **{"If-None-Match": etags[1]})
    assert status == 200 and "Renamed on a" in body.decode()

    assert alice.post(site.ports[1], f"/armies/{pk}/share/off/", {})[0] == 302
    for port in site.ports:
        assert visitor.get(port, share, **{"If-None-Match": etags[0]})[0] == 404


def _clear_of_a_window_edge(seconds: int = 600, margin: float = 20) -> None:
    """Limits count in fixed windows on the clock's multiples: start well inside one."""
    left = seconds - time.time() % seconds
    if left < margin:
        time.sleep(left + 1)


def test_rate_limits_are_counted_once_across_both_nodes(site):
    _clear_of_a_window_edge(3600)
    visitor = Browser("10.4.0.1")
    visitor.get(site.ports[0], "/accounts/login/")  # its CSRF cookie, before the threads
    # Imports: 30 per hour per visitor address (as the environment sets it); an empty form
    # is a cheap 400, counted like any import. 40 sent, alternating the nodes, two at a time.
    jobs = [site.ports[n % 2] for n in range(40)]
    with ThreadPoolExecutor(2) as pool:
        statuses = list(pool.map(lambda port: visitor.post(port, "/armies/import/", {})[0],
                                 jobs))  # fmt: skip
    assert sorted(statuses) == [400] * 30 + [429] * 10


def test_a_render_queued_on_one_node_is_finished_by_the_other_nodes_worker(site):
    worker_a = site.workers[0]
    os.killpg(worker_a.pid, signal.SIGTERM)  # node a's worker stops; node b's carries on
    worker_a.wait(timeout=30)
    document = json.dumps({"format": "muster.army/1", "name": "Queued on a", "ruleset": RULESET,
                           "units": [{"name": "Hearth guard"}]}).encode()  # fmt: skip
    connection = http.client.HTTPConnection("127.0.0.1", site.ports[0], timeout=60)
    connection.request(
        "POST",
        "/api/v1/roster.pdf",
        body=document,
        headers={"Content-Type": "application/json", "X-Real-IP": "10.5.0.1"},
    )
    response = connection.getresponse()
    body = json.loads(response.read())
    connection.close()
    assert response.status == 202
    visitor = Browser("10.5.0.1")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        status, headers, content = visitor.get(site.ports[0], body["status_url"])
        if status != 202:
            break
        time.sleep(0.5)
    assert status == 200 and content.startswith(b"%PDF")
    render_id = body["status_url"].rstrip("/").rsplit("/", 1)[-1]
    worker_logs = {name: path.read_text() for name, path in zip("ab", site.logs[1::2], strict=True)}
    done = f"Successfully completed armybuilder.printing.tasks.render_sheet('{render_id}')"
    assert done in worker_logs["b"] and render_id not in worker_logs["a"]
