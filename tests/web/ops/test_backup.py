"""Backups proven (armybuilder/ops/backup.py, ``muster backup`` / ``muster restore``): on
SQLite and on PostgreSQL, a backup made while a player's edits are being acknowledged by a
real server, restored into a fresh database, holds every edit acknowledged before the
backup began, and holds the army exactly as it was after one edit (no half of one).

PostgreSQL databases are the test's own, under unique names on the server
``MUSTER_TEST_POSTGRES`` names (tests/web/scratch_postgres.py), dropped afterwards.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from contextlib import ExitStack, suppress

import pytest

from tests.support import ROOT
from tests.web.ops.redis_server import free_port
from tests.web.ops.test_serve_two_nodes import SETUP, UNITS, Browser
from tests.web.scratch_postgres import own_database, postgres_answers, server_url

pytestmark = pytest.mark.own_databases

MANAGE = [sys.executable, str(ROOT / "manage.py")]
READ_ARMY = """
import json
from armybuilder.armies.models import Army

army = Army.objects.get()
print(json.dumps({"version": army.version, "names": [u["name"] for u in army.document["units"]]}))
"""


def site_env(database):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "MUSTER_"))}
    env.pop("REDIS_URL", None)
    env.update(
        DJANGO_SETTINGS_MODULE="tests.server_settings",
        DJANGO_DEBUG="0",
        DATABASE_URL=database,
        MUSTER_TASK_BACKEND="immediate",
        MUSTER_PRERENDER_DELAY="-1",
        MUSTER_CLIENT_IP_HEADER="HTTP_X_REAL_IP",
    )
    return env


def manage(env, *args, check=True):
    return subprocess.run([*MANAGE, *args], cwd=ROOT, env=env, check=check,
                          capture_output=True, text=True, timeout=300)  # fmt: skip


@pytest.fixture(params=["sqlite", "postgres"])
def databases(request, tmp_path):
    """The site's database and a fresh one to restore into."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'site.sqlite3'}", f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
        return
    if not postgres_answers():
        pytest.skip(f"PostgreSQL does not answer at {server_url()}")
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("pg_dump/pg_restore missing (make system-deps installs postgresql-client)")
    with own_database("muster_backup_site") as site, own_database("muster_backup_fresh") as fresh:
        yield site, fresh


@pytest.fixture
def served(databases, tmp_path):
    """A real server on the site's database, with alice's army of UNITS units."""
    site, fresh = databases
    env = site_env(site)
    manage(env, "migrate", "--noinput", "-v0")
    facts = json.loads(manage(env, "shell", "-c", SETUP).stdout.strip().splitlines()[-1])
    port = free_port()
    log_path = tmp_path / "server.log"
    with ExitStack() as stack:
        log = stack.enter_context(log_path.open("w"))
        server = subprocess.Popen(
            [*MANAGE, "runserver", "--noreload", f"127.0.0.1:{port}"], cwd=ROOT, env=env,
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 120
            while True:
                with suppress(OSError):
                    if Browser("10.8.0.9").get(port, "/accounts/login/")[0] == 200:
                        break
                assert server.poll() is None and time.monotonic() < deadline, log_path.read_text()[
                    -3000:
                ]
                time.sleep(0.3)
            yield env, site_env(fresh), port, facts
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=10)


class Editor(threading.Thread):
    """Renames unit ``n % UNITS`` to "take n", one edit after another; keeps when each
    edit's answer (200) arrived. A refused edit (409) is sent again with the same ``n``."""

    def __init__(self, port, pk):
        super().__init__(daemon=True)
        self.port, self.pk = port, pk
        self.acked: list[tuple[int, float]] = []
        self.stop = threading.Event()
        self.failure: str | None = None

    def run(self):
        alice = Browser("10.8.0.1")
        alice.log_in(self.port, "alice")
        export = json.loads(alice.get(self.port, f"/armies/{self.pk}/export.json")[2])
        ids = [unit["id"] for unit in export["units"]]
        n = 0
        while not self.stop.is_set():
            version_json = alice.get(self.port, f"/armies/{self.pk}/version.json")[2]
            version = json.loads(version_json)["version"]
            status, _, _ = alice.post(self.port, f"/armies/{self.pk}/unit/{ids[n % UNITS]}/",
                                      {"version": version, "f.name": f"take {n}"},
                                      **{"HX-Request": "true"})  # fmt: skip
            if status == 200:
                self.acked.append((n, time.monotonic()))
                n += 1
            elif status != 409:
                self.failure = f"edit {n} answered {status}"
                return


def read_army(env):
    return json.loads(manage(env, "shell", "-c", READ_ARMY).stdout.strip().splitlines()[-1])


def names_after(last: int) -> list[str]:
    """The units' names once edits 0 … ``last`` are applied (a unit not yet renamed keeps
    its name from SETUP)."""
    names = [f"Unit {n}" for n in range(UNITS)]
    for n in range(last + 1):
        names[n % UNITS] = f"take {n}"
    return names


def test_a_backup_made_under_edits_restores_every_edit_acknowledged_before_it(served, tmp_path):
    env, fresh_env, port, facts = served
    first_version = read_army(env)["version"]
    editor = Editor(port, facts["army"])
    editor.start()
    deadline = time.monotonic() + 120
    while len(editor.acked) < 10:  # edits are being acknowledged
        assert editor.is_alive() and time.monotonic() < deadline, editor.failure
        time.sleep(0.1)
    began = time.monotonic()
    backup = tmp_path / "muster.backup"
    done = manage(env, "muster", "backup", str(backup))
    ended = time.monotonic()
    time.sleep(1)  # and go on being acknowledged after it
    editor.stop.set()
    editor.join(timeout=60)
    assert editor.failure is None, editor.failure
    assert "backed up to" in done.stdout
    before = [n for n, at in editor.acked if at < began]
    assert len(before) >= 10 and len(editor.acked) > len(before)

    restored = manage(fresh_env, "muster", "restore", str(backup))
    assert "restored into" in restored.stdout
    army = read_army(fresh_env)

    # the army as it was after exactly one edit, at least the last acknowledged before
    last = army["version"] - first_version - 1
    assert last >= max(before), (last, max(before))
    assert last <= max(n for n, at in editor.acked if at < ended + 1)
    assert army["names"] == names_after(last)
    print(f"{len(before)} edits acknowledged before the backup began, all restored; "
          f"the backup holds edits up to {last} of {len(editor.acked)}")  # fmt: skip

    # a restore never goes into a database that holds anything
    again = manage(fresh_env, "muster", "restore", str(backup), check=False)
    assert again.returncode == 2 and "already holds tables" in again.stderr
    # and a backup never overwrites a file
    again = manage(env, "muster", "backup", str(backup), check=False)
    assert again.returncode == 2 and "exists already" in again.stderr
