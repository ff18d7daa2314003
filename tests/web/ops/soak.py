"""``make soak``: two nodes on RQ for a few minutes while faults are injected, then a count.

Not part of ``make test`` (minutes long, and it needs root to run a PostgreSQL of its own).
Everything is on loopback and of its own: a PostgreSQL server (``initdb`` on a free port),
a Redis, two web servers and two workers (as ``make two-nodes`` starts them), restarted by
this script when they die, as supervisord restarts them under ``make run``.

Meanwhile a player renames units through both nodes (each edit read back from the other
node's version first) and prints the roster through both; and on a schedule the script
restarts PostgreSQL, SIGKILLs Redis (started again empty a few seconds later), SIGKILLs a
worker and a web process. At the end (faults stopped) it checks that every acknowledged
edit is saved (each unit holds its last acknowledged name, or a later one whose answer was
lost) and that every render asked for is ready or failed with a reason, none stuck, and
prints the counts. Exit status 1 when a check fails.

``SOAK_SECONDS`` (default 180) sets how long the load runs.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from contextlib import suppress
from pathlib import Path

import psycopg

from tests.support import ROOT
from tests.web.ops.own_postgres import own_postgres, possible
from tests.web.ops.redis_server import free_port
from tests.web.ops.test_serve_two_nodes import SETUP, UNITS, Browser

MANAGE = [sys.executable, str(ROOT / "manage.py")]
SECONDS = float(os.environ.get("SOAK_SECONDS", "180"))
counts: Counter[str] = Counter()
lock = threading.Lock()


def count(what: str, n: int = 1) -> None:
    with lock:
        counts[what] += n


class Redis:
    def __init__(self, directory: Path) -> None:
        self.port, self.directory = free_port(), directory
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        time.sleep(0.5)

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)


class Processes:
    """The two nodes' web servers and workers, each started again when it dies."""

    def __init__(self, env: dict[str, str], directory: Path, ports: list[int]) -> None:
        self.env, self.directory, self.ports = env, directory, ports
        self.running: dict[str, subprocess.Popen[bytes]] = {}
        self.stopping = False
        self.restarts = 0

    def command(self, name: str) -> tuple[list[str], dict[str, str]]:
        node = "ab".index(name[-1])
        if name.startswith("web"):
            return [sys.executable, "-m", "armybuilder.ops.serve"], {
                "MUSTER_BIND": f"127.0.0.1:{self.ports[node]}"
            }
        return [*MANAGE, "muster_worker"], {}

    def start(self, name: str) -> None:
        command, extra = self.command(name)
        log = (self.directory / f"{name}.log").open("a")
        self.running[name] = subprocess.Popen(
            command, cwd=ROOT, env={**self.env, **extra}, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    def watch(self) -> None:
        while not self.stopping:
            for name, process in list(self.running.items()):
                if process.poll() is not None and not self.stopping:
                    time.sleep(1)  # as supervisord: a moment, then again
                    self.start(name)
                    self.restarts += 1
            time.sleep(0.5)

    def kill(self, name: str) -> None:
        with suppress(ProcessLookupError):
            os.killpg(self.running[name].pid, signal.SIGKILL)

    def stop(self) -> None:
        self.stopping = True
        for process in self.running.values():
            with suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.running.values():
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)


def editor(alice: Browser, ports: list[int], pk: int, unit: int, unit_id: str,
           acked: dict[int, int], until: float) -> None:  # fmt: skip
    """One unit renamed again and again, through both nodes; the last acknowledged kept."""
    n = 0
    while time.monotonic() < until:
        port, other = ports[n % 2], ports[1 - n % 2]
        try:
            status, _, body = alice.get(other, f"/armies/{pk}/version.json")
            if status != 200:
                count(f"edits refused with {status} (reading the version)")
                time.sleep(1)
                continue
            version = json.loads(body)["version"]
            status, _, _ = alice.post(port, f"/armies/{pk}/unit/{unit_id}/",
                                      {"version": version, "f.name": f"Unit {unit} take {n + 1}"},
                                      **{"HX-Request": "true"})  # fmt: skip
        except OSError:
            count("edits with no answer (a node was down)")
            time.sleep(1)
            n += 1  # it may still have been saved: the next one has a new name
            continue
        n += 1
        if status == 200:
            acked[unit] = n
            count("edits acknowledged")
        else:
            count(f"edits refused with {status}")
            time.sleep(0.5 if status == 409 else 1)


def printer(alice: Browser, ports: list[int], pk: int, asked: set[str], until: float) -> None:
    """The roster printed through both nodes: each asked render's id kept."""
    n = 0
    while time.monotonic() < until:
        n += 1
        alice.address = f"10.77.{n // 200}.{n % 200 + 1}"  # the print limit is per address
        try:
            status, headers, _ = alice.get(ports[n % 2], f"/armies/{pk}/roster.pdf?paper=a4")
        except OSError:
            count("prints with no answer (a node was down)")
            time.sleep(1)
            continue
        location = headers.get("Location") or ""
        if status == 302 and "/prints/" in location:
            asked.add(location.rstrip("/").split("/")[-1])
            count("prints asked (queued)")
        elif status == 200:
            count("prints served at once (already rendered)")
        else:
            count(f"prints answered {status} (try again)")
        time.sleep(2)


def faults(postgres, redis: Redis, processes: Processes, until: float) -> None:
    """The faults, in turn, until the load stops."""
    plan = [
        ("PostgreSQL restarts", lambda: (postgres.stop(), time.sleep(5), postgres.start())),
        (
            "Redis killed (SIGKILL), started again empty",
            lambda: (redis.kill(), time.sleep(5), redis.start()),
        ),  # fmt: skip
        ("a worker SIGKILLed", lambda: processes.kill(random.choice(["worker-a", "worker-b"]))),
        ("a web process SIGKILLed", lambda: processes.kill(random.choice(["web-a", "web-b"]))),
    ]
    step = 0
    time.sleep(15)
    while time.monotonic() < until - 10:
        name, act = plan[step % len(plan)]
        print(f"  {time.strftime('%H:%M:%S')} fault: {name}", flush=True)
        act()
        count(f"faults: {name}")
        step += 1
        time.sleep(20)


def wait_healthy(ports: list[int], seconds: float) -> bool:
    probe = Browser("127.0.0.1")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with suppress(OSError):
            if all(probe.get(port, "/healthz/workers")[0] == 200 for port in ports):
                return True
        time.sleep(1)
    return False


def main() -> int:
    if not possible():
        print("make soak needs root, initdb and runuser (a PostgreSQL of its own)")
        return 1
    directory = Path(os.environ.get("SOAK_DIR") or ROOT / ".venv" / "soak")
    directory.mkdir(parents=True, exist_ok=True)
    redis = Redis(directory)
    redis.start()
    with own_postgres() as postgres:
        database = postgres.create("muster")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "MUSTER_"))}
        env.update(
            DJANGO_SETTINGS_MODULE="tests.server_settings", DJANGO_DEBUG="0",
            DATABASE_URL=database, REDIS_URL=f"redis://127.0.0.1:{redis.port}/0",
            MUSTER_TASK_BACKEND="rq", MUSTER_QUEUE_URL=f"redis://127.0.0.1:{redis.port}/1",
            MUSTER_CLIENT_IP_HEADER="HTTP_X_REAL_IP", MUSTER_PRERENDER_DELAY="-1",
            WEB_CONCURRENCY="1", MUSTER_ACCESS_LOG="",
        )  # fmt: skip
        subprocess.run([*MANAGE, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
        made = subprocess.run([*MANAGE, "shell", "-c", SETUP], cwd=ROOT, env=env, check=True,
                              capture_output=True, text=True)  # fmt: skip
        pk = json.loads(made.stdout.strip().splitlines()[-1])["army"]
        ports = [free_port(), free_port()]
        processes = Processes(env, directory, ports)
        for name in ("web-a", "worker-a", "web-b", "worker-b"):
            processes.start(name)
        watcher = threading.Thread(target=processes.watch, daemon=True)
        watcher.start()
        try:
            if not wait_healthy(ports, 180):
                print("the nodes did not come up; logs in", directory)
                return 1
            alice = Browser("10.1.0.1")
            alice.log_in(ports[0], "alice")
            exported = json.loads(alice.get(ports[0], f"/armies/{pk}/export.json")[2])
            unit_ids = [u["id"] for u in exported["units"]][:UNITS]
            acked: dict[int, int] = {}
            asked: set[str] = set()
            began = time.monotonic()
            until = began + SECONDS
            print(f"soak: {SECONDS:.0f} s of edits and prints on two nodes, with faults",
                  flush=True)  # fmt: skip
            threads = [
                threading.Thread(
                    target=editor, args=(alice, ports, pk, u, unit_ids[u], acked, until)
                )  # fmt: skip
                for u in range(4)
            ]
            printing = Browser("10.1.0.2")
            printing.cookies = alice.cookies  # alice, printing from another tab
            threads.append(threading.Thread(target=printer,
                                            args=(printing, ports, pk, asked, until)))  # fmt: skip
            threads.append(threading.Thread(target=faults,
                                            args=(postgres, redis, processes, until)))  # fmt: skip
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            return check(database, pk, unit_ids, acked, asked, processes, began, ports)
        finally:
            processes.stop()
            redis.kill()


def check(database, pk, unit_ids, acked, asked, processes, began, ports) -> int:
    print("soak: faults stopped; waiting for the renders asked for", flush=True)
    wait_healthy(ports, 120)
    deadline = time.monotonic() + 180
    states: dict[str, tuple[str, str]] = {}
    while time.monotonic() < deadline:
        with psycopg.connect(database) as connection:
            rows = connection.execute(
                "SELECT id::text, status, error FROM printing_render WHERE id::text = ANY(%s)",
                (list(asked),),
            ).fetchall()
        states = {r[0]: (r[1], r[2]) for r in rows}
        if all(s[0] in ("ready", "failed") for s in states.values()):
            break
        time.sleep(2)
    with psycopg.connect(database) as connection:
        (document,) = connection.execute(
            "SELECT document FROM armies_army WHERE id = %s", (pk,)
        ).fetchone()
    names = {u["id"]: u["name"] for u in document["units"]}
    lost = []
    for unit, n in acked.items():
        saved = names.get(unit_ids[unit], "")
        take = int(saved.rsplit(" ", 1)[-1]) if saved.startswith(f"Unit {unit} take ") else 0
        if take < n:
            lost.append((unit, n, saved))
    outcome = Counter(s[0] for s in states.values())
    missing = len(asked) - len(states)
    failed_without_reason = sum(1 for s in states.values() if s[0] == "failed" and not s[1])
    print(f"soak: ran {time.monotonic() - began:.0f} s")
    for what, n in sorted(counts.items()):
        print(f"  {what}: {n}")
    print(f"  processes started again after dying: {processes.restarts}")
    print(f"  acknowledged edits: {counts['edits acknowledged']}; units holding their last "
          f"acknowledged edit (or a later one): {len(acked) - len(lost)} of {len(acked)}")  # fmt: skip
    print(f"  renders asked: {len(asked)}; ready {outcome['ready']}, failed with a reason "
          f"{outcome['failed'] - failed_without_reason}, still pending "
          f"{outcome['queued'] + outcome['rendering']}, missing {missing}")  # fmt: skip
    bad = lost or missing or failed_without_reason or outcome["queued"] + outcome["rendering"]
    if lost:
        print(f"  LOST acknowledged edits: {lost}")
    print("soak: FAILED" if bad else "soak: every acknowledged edit kept, every render finished")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
