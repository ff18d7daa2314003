"""The Redis (RQ) queue with a real ``manage.py muster_worker`` process, as ``make run`` starts
it with ``MUSTER_TASK_BACKEND=rq``: a render asked for, a print-ahead, and the workers' test
job all run, against a Redis this test starts, on a SQLite file both processes share; and
the worker as it was started before (RQ's own job class) fails them, which /healthz tells."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import uuid

import pytest

from tests.support import EXAMPLES, ROOT
from tests.web.ops.redis_server import own_redis

pytestmark = pytest.mark.own_databases

QUEUE = """
import json
from django.contrib.auth.models import User
from armybuilder.armies.making.lifecycle import create_army, stop_sharing
from armybuilder.printing import jobs
document = json.loads(open(EXAMPLE).read())
render = jobs.army_render(document, "roster", "letter")
owner = User.objects.create_user("printer", password="a-long-Pass-123")
saved = create_army(document, owner=owner)  # its sheets are printed ahead (prerender)
stop_sharing(saved)  # a shared roster prints its link, whose site only a request knows
print(json.dumps({"render": str(render.pk), "status": render.status, "army": saved.pk}))
"""


def rows(database, query, *args):
    with sqlite3.connect(database, timeout=20) as connection:
        return connection.execute(query, args).fetchall()


def wait_for(check, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.25)
    return check()


def rq_env(database, redis_url):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "MUSTER_"))}
    env.pop("REDIS_URL", None)
    env.update(
        DJANGO_SETTINGS_MODULE="armybuilder.settings",
        DATABASE_URL=f"sqlite:///{database}",
        MUSTER_TASK_BACKEND="rq",
        MUSTER_QUEUE_URL=redis_url,
        MUSTER_PRERENDER_DELAY="0.5",
    )
    return env


MANAGE = [sys.executable, str(ROOT / "manage.py")]

BEATING_BUT_BROKEN = """
from datetime import timedelta
from django.utils import timezone
from armybuilder.ops import probe
from armybuilder.ops.models import WorkerBeat
now = timezone.now()
WorkerBeat.objects.create(worker="w:1:x", host="elsewhere", pid=1,
                          started=now - timedelta(minutes=5), seen=now)
probe.send_if_due()
"""

# the worker beats on while it fails its jobs: its beat is fresh when /healthz asks, however
# long the failing run took on a loaded machine (a stale beat is "no worker", another fault)
HEALTH = """
from django.utils import timezone
from armybuilder.ops.health import check_queue
from armybuilder.ops.models import WorkerBeat

WorkerBeat.objects.filter(worker="w:1:x").update(seen=timezone.now())
try:
    print(check_queue())
except Exception as exc:
    print("unhealthy:", exc)
"""


def test_rqs_own_job_class_fails_every_job_and_healthz_then_calls_the_queue_unhealthy(tmp_path):
    # the worker as muster_worker started it before: RQ's own job class, which calls the
    # job's function (a Django Task is not callable); its heartbeat alone looked healthy
    database = tmp_path / "broken.sqlite3"
    with own_redis(tmp_path) as (redis_url, _):
        env = rq_env(database, redis_url)
        subprocess.run([*MANAGE, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
        subprocess.run([*MANAGE, "shell", "-c", BEATING_BUT_BROKEN], cwd=ROOT, env=env,
                       check=True, capture_output=True)  # fmt: skip
        worked = subprocess.run(
            [*MANAGE, "rqworker", "probe", "default", "--burst", "--worker-class",
             "rq.worker.SimpleWorker"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert "'Task' object is not callable" in worked.stdout + worked.stderr
        health = subprocess.run([*MANAGE, "shell", "-c", HEALTH], cwd=ROOT, env=env,
                                check=True, capture_output=True, text=True)  # fmt: skip
        assert "unhealthy: the workers run no jobs: none ran for " in health.stdout


def test_a_real_rq_worker_process_renders_prints_ahead_and_runs_its_test_job(tmp_path):
    database = tmp_path / "shared.sqlite3"
    with own_redis(tmp_path) as (redis_url, _):
        env = rq_env(database, redis_url)
        manage = MANAGE
        subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
        example = EXAMPLES / "dewitt-medieval-lance-and-bow.json"
        queued = subprocess.run(
            [*manage, "shell", "-c", f"EXAMPLE = {str(example)!r}\n{QUEUE}"],
            cwd=ROOT, env=env, check=True, capture_output=True, text=True,
        )  # fmt: skip
        asked = json.loads(queued.stdout.strip().splitlines()[-1])
        assert asked["status"] == "queued"  # in Redis, waiting for a worker

        log = (tmp_path / "worker.log").open("w")
        worker = subprocess.Popen(
            [*manage, "muster_worker"], cwd=ROOT, env=env, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        try:

            def statuses():
                return dict(rows(database, "SELECT id, status FROM printing_render"))

            # the render asked for, then the army's roster and QRS printed ahead: three
            done = wait_for(
                lambda: (found := statuses()) and len(found) == 3
                and set(found.values()) == {"ready"} and found,
                120,
            )  # fmt: skip
            assert done, (statuses(), (tmp_path / "worker.log").read_text()[-4000:])
            # SQLite holds a UUID as 32 hex digits
            ((pdf,),) = rows(
                database,
                "SELECT pdf FROM printing_render WHERE id = ?",
                uuid.UUID(asked["render"]).hex,
            )
            assert bytes(pdf).startswith(b"%PDF")
            # the worker beat its heartbeat and ran the test job /healthz relies on
            assert rows(database, "SELECT pid FROM ops_workerbeat") == [(worker.pid,)]
            ran = wait_for(
                lambda: rows(database, "SELECT last_run FROM ops_scheduled WHERE name = 'probe'"),
                30,
            )
            assert ran and ran[0][0] is not None
            log_text = (tmp_path / "worker.log").read_text()
            assert "not callable" not in log_text and "Traceback" not in log_text
        finally:
            os.killpg(worker.pid, signal.SIGTERM)
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)
                worker.wait(timeout=10)
                pytest.fail("the worker did not stop on SIGTERM")
            log.close()
