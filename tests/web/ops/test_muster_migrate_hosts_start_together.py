"""Two hosts started at the same moment on one fresh PostgreSQL both serve: ``make run``
migrates and loads the lists under a PostgreSQL advisory lock (``muster_migrate``), so one
migrates while the other waits and then finds nothing to do, where two ``migrate`` runs
side by side would both create the same tables and one would die."""

import os
import signal
import subprocess

import pytest

from tests.support import ROOT
from tests.web.ops import own_postgres
from tests.web.ops.test_serve import fetch, free_port, run_env, wait_for

pytestmark = [
    pytest.mark.skipif(
        not (ROOT / ".venv" / "bin" / "supervisord").exists(),
        reason="make run needs the project's .venv (make install)",
    ),  # fmt: skip
    pytest.mark.skipif(not own_postgres.possible(), reason="needs root, initdb and runuser"),
    pytest.mark.own_databases,
]


def test_two_make_runs_on_one_fresh_postgresql_at_once_both_serve(tmp_path):
    # the static files first, as each host collects its own: only the database is shared
    subprocess.run(["make", "staticfiles/.collected"], cwd=ROOT, check=True,
                   capture_output=True, timeout=300)  # fmt: skip
    with own_postgres.own_postgres() as postgres:
        url = postgres.create("muster")
        hosts = []
        for name in ("one", "two"):
            directory = tmp_path / name
            directory.mkdir()
            port = free_port()
            env = run_env(directory, port, DATABASE_URL=url,
                          DJANGO_SECRET_KEY_FILE=str(tmp_path / "secret_key"))  # fmt: skip
            hosts.append((directory, port, env))
        (tmp_path / "secret_key").write_text("a-shared-secret-key-" * 3)
        processes = []
        try:
            for directory, _, env in hosts:  # at the same moment
                log = (directory / "run.log").open("w")
                processes.append(subprocess.Popen(
                    ["make", "run"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                    start_new_session=True,
                ))  # fmt: skip
            for (directory, port, _), process in zip(hosts, processes, strict=True):
                base = f"http://127.0.0.1:{port}"
                up = wait_for(lambda base=base: fetch(base + "/healthz")[0] == 200, 300)
                assert up and process.poll() is None, (directory / "run.log").read_text()[-3000:]
                assert fetch(base + "/rulesets/into-the-dark/")[0] == 200
            logs = "".join((d / "run.log").read_text() for d, _, _ in hosts)
            assert "IntegrityError" not in logs
        finally:
            for process in processes:
                os.killpg(process.pid, signal.SIGTERM)
            for process in processes:
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(timeout=10)
            for directory, _, _ in hosts:
                wait_for(lambda d=directory: not (d / "supervisord.pid").exists(), 30)
