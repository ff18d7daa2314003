"""Two test runs at once on one PostgreSQL server, as two checkouts running ``make test`` on
one machine do: each makes, uses and drops a test database of its own
(tests/database_names.py), and databases the other made are left alone, so both pass.

Each run is a pytest of its own over tests that write to the database (sign-ups, look-alike
names, an army saved and edited), on the server ``MUSTER_TEST_POSTGRES`` names."""

import os
import subprocess
import sys
import time

import psycopg
import pytest

from tests.support import ROOT
from tests.web.scratch_postgres import postgres_answers, server_url, unique_name

pytestmark = pytest.mark.own_databases

TESTS = [
    "tests/test_database_names.py",
    "tests/web/accounts/test_names.py",
    "tests/web/armies/test_services.py",
]


def made_test_databases() -> set[str]:
    with psycopg.connect(f"{server_url()}/postgres", autocommit=True) as connection:
        rows = connection.execute("SELECT datname FROM pg_database").fetchall()
    return {name for (name,) in rows if name.startswith("test_muster_")}


def test_two_runs_at_once_on_one_postgresql_both_pass_and_leave_no_database_behind(tmp_path):
    if not postgres_answers():
        pytest.fail(f"no PostgreSQL answers at {server_url()} (every machine runs one)")
    # a test database someone else's run holds, on the same server: neither run may touch it
    bystander = unique_name("test_muster_bystander")
    with psycopg.connect(f"{server_url()}/postgres", autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {bystander}")
    try:
        both_runs(tmp_path, bystander)
    finally:
        with psycopg.connect(f"{server_url()}/postgres", autocommit=True) as connection:
            connection.execute(f"DROP DATABASE IF EXISTS {bystander} WITH (FORCE)")


def both_runs(tmp_path, bystander: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "MUSTER_"))}
    env.update(DATABASE_URL=f"{server_url()}/muster", MUSTER_TEST_POSTGRES=server_url())
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "pytest", "-p", "no:xdist", "-q", *TESTS],
            cwd=ROOT,
            env=env,
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        for log in logs
    ]

    def theirs() -> set[str]:  # a run's test database is named for its process
        return {n for n in made_test_databases() for r in runs if f"_{r.pid}_" in n}

    seen: set[str] = set()  # the two runs' test databases, seen while they ran
    while any(run.poll() is None for run in runs):
        seen |= theirs()
        time.sleep(0.2)
    for run, log in zip(runs, logs, strict=True):
        assert run.returncode == 0, log.read_text()[-4000:]
        assert " passed" in log.read_text()
    assert len(seen) >= 2, f"the two runs' databases were never seen side by side: {seen}"
    assert {n.split("_")[2] for n in seen} == {str(r.pid) for r in runs}, seen
    assert theirs() == set(), "each run dropped its own database"
    assert bystander in made_test_databases(), "a database neither run made is still there"
