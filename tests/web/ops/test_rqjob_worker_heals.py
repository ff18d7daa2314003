"""A real ``manage.py muster_worker`` on RQ rides out PostgreSQL restarts by itself: the
restart happens between jobs and while one renders, on a PostgreSQL and a Redis of this
test's own, and every render asked for afterwards completes without anyone touching the
worker (the same process renders throughout)."""

import json
import os
import signal
import subprocess
import sys
import time

import psycopg
import pytest

from tests.support import ROOT
from tests.web.ops import own_postgres
from tests.web.ops.redis_server import own_redis

pytestmark = [
    pytest.mark.skipif(
        not own_postgres.possible(), reason="needs root, initdb, runuser and a postgres user"
    ),
    pytest.mark.own_databases,
]
MANAGE = [sys.executable, str(ROOT / "manage.py")]
ASK = """
import json
from armybuilder.printing import jobs
render = jobs.ruleset_render("into-the-dark", PAPER, options={"command_and_control": CC})
print(json.dumps({"id": str(render.pk), "status": render.status}))
"""


def env_for(database_url, redis_url):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "MUSTER_"))}
    env.pop("REDIS_URL", None)
    env.update(
        DJANGO_SETTINGS_MODULE="armybuilder.settings",
        DATABASE_URL=database_url,
        MUSTER_TASK_BACKEND="rq",
        MUSTER_QUEUE_URL=redis_url,
        MUSTER_PRERENDER_DELAY="-1",
    )
    return env


def ask(env, paper, cc):
    script = f"PAPER = {paper!r}\nCC = {cc!r}\n{ASK}"
    done = subprocess.run([*MANAGE, "shell", "-c", script], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])["id"]


def status(database_url, render_id):
    try:
        with psycopg.connect(database_url, connect_timeout=3) as connection:
            row = connection.execute(
                "SELECT status, error FROM printing_render WHERE id = %s", (render_id,)
            ).fetchone()
    except psycopg.OperationalError:
        return None  # the database is being restarted
    return row


def wait_for(check, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.25)
    return check()


def worker_pids(database_url):
    with psycopg.connect(database_url) as connection:
        return {pid for (pid,) in connection.execute("SELECT pid FROM ops_workerbeat")}


def test_a_postgresql_restart_between_and_during_rq_jobs_heals_without_touching_the_worker(
    tmp_path,
):
    with own_postgres.own_postgres() as postgres, own_redis(tmp_path) as (redis_url, _):
        database_url = postgres.create("muster")
        env = env_for(database_url, redis_url)
        subprocess.run([*MANAGE, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
        log_path = tmp_path / "worker.log"
        log = log_path.open("w")
        worker = subprocess.Popen([*MANAGE, "muster_worker"], cwd=ROOT, env=env, stdout=log,
                                  stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip

        def ready(render_id, seconds=120):
            found = wait_for(lambda: (s := status(database_url, render_id)) and
                             s[0] in ("ready", "failed") and s, seconds)  # fmt: skip
            assert found == ("ready", ""), (found, log_path.read_text()[-4000:])

        try:
            ready(ask(env, "a4", False))

            # between jobs: the worker's connection dies while it waits for the next job
            postgres.stop()
            time.sleep(2)
            postgres.start()
            ready(ask(env, "letter", False))

            # during a job: the database goes away once the render is claimed
            during = ask(env, "a4", True)
            wait_for(lambda: (s := status(database_url, during)) and s[0] != "queued", 60)
            postgres.stop()
            time.sleep(3)
            postgres.start()
            ready(during)
            ready(ask(env, "letter", True))  # and the one after it

            assert worker.poll() is None  # the same worker did all of it
            assert worker_pids(database_url) == {worker.pid}
            text = log_path.read_text()
            assert "the connection is closed" not in text, text[-4000:]
        finally:
            os.killpg(worker.pid, signal.SIGTERM)
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)
                worker.wait(timeout=10)
            log.close()
