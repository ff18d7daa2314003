"""``make soak``: two ``make run`` nodes on RQ for a few minutes while faults are injected,
then a count.

Not part of ``make test`` (minutes long, and it needs root to run a PostgreSQL of its own;
``make soak-short`` runs a short one). Everything is on loopback and of its own: a
PostgreSQL server (``initdb`` on a free port), a Redis, and two nodes, each ``make run`` as
an operator starts it (tests/web/ops/soak_nodes.py): production settings, supervisord,
granian's two web processes, a render worker, prints made ahead, sharing the database, the
Redis (cache, rate limits, queue) and the secret key.

Meanwhile four signed-in players each rename a unit of their army through both nodes at a
player's pace (each edit read back from the other node's version first) and print their
roster now and then, all from one address as a club's players are, under the shipped
limits; and in turn the script stops PostgreSQL for 15 s, kills Redis for 30 s (started
again empty), SIGKILLs a render worker, pauses Redis for 30 s (SIGSTOP), SIGKILLs one of
granian's web processes, SIGKILLs granian's main process and stops PostgreSQL for 60 s
(``SOAK_OUTAGE_SCALE`` scales the outages, for a short run); supervisord and granian put
back what is killed. Each node's ``/healthz``, ``/healthz/redis`` and ``/healthz/workers``
are sampled every second (tests/web/ops/soak_health.py).

At the end (faults stopped) it checks every acknowledged edit against its own revision
(the army's revision that made that version holds that unit's new name, or a later name
of the same unit typed onto it), counts every render asked as ready, failed (with its
reason: any failure fails the soak, as these armies print) or stuck, checks that each node
runs its web processes and worker again, says how long each health endpoint took to
answer 200 again after each fault, and prints one summary line. Exit status 1 when a
check fails.

``SOAK_SECONDS`` (default 180) sets how long the load runs at least: it goes on until each
fault of the plan has come and gone.
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
from tests.web.ops.soak_health import ENDPOINTS, HealthWatch
from tests.web.ops.soak_nodes import Node
from tests.web.ops.test_serve_two_nodes import PASSWORD, Browser

MANAGE = [sys.executable, str(ROOT / "manage.py")]
SECONDS = float(os.environ.get("SOAK_SECONDS", "180"))
SCALE = float(os.environ.get("SOAK_OUTAGE_SCALE", "1"))
PRINT_EVERY = 30  # seconds between one player's prints (the shipped limit: 30 in 10 minutes)
EDIT_PAUSE = 0.6  # seconds: a player's pace, under the shipped 1,200 writes in 10 minutes
counts: Counter[str] = Counter()
lock = threading.Lock()


class Load:
    """How long the players go on: ``SOAK_SECONDS``, and at least until every fault of the
    plan has come and gone (and 10 s more, to see the site after the last)."""

    def __init__(self, seconds: float) -> None:
        self.until = time.monotonic() + seconds
        self.faults_done: float | None = None

    def on(self) -> bool:
        now = time.monotonic()
        done = self.faults_done is not None and now > self.faults_done + 10
        return now < self.until or not done


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

    def pause(self) -> None:  # only the redis-server this script started, by its pid
        if self.process is not None:
            self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGCONT)


def editor(player: Browser, ports: list[int], pk: int, unit: int, unit_id: str,
           acked: list[tuple[int, int, int]], load: Load) -> None:  # fmt: skip
    """A player renaming one unit of their army again and again, through both nodes, at a
    player's pace (under the shipped write limit); each edit read back from the other
    node's version first; each acknowledged one kept as (unit, take, the version it was
    drawn from)."""
    n = 0
    while load.on():
        port, other = ports[n % 2], ports[1 - n % 2]
        try:
            status, _, body = player.get(other, f"/armies/{pk}/version.json")
            if status != 200:
                count(f"edits refused with {status} (reading the version)")
                time.sleep(1)
                continue
            version = json.loads(body)["version"]
            status, _, _ = player.post(port, f"/armies/{pk}/unit/{unit_id}/",
                                       {"version": version, "f.name": f"Unit {unit} take {n + 1}"},
                                       **{"HX-Request": "true"})  # fmt: skip
        except OSError:
            count("edits with no answer (a node was down)")
            time.sleep(1)
            n += 1  # it may still have been saved: the next one has a new name
            continue
        n += 1
        if status == 200:
            with lock:
                acked.append((unit, n, version))  # the version the edit was drawn from
            count("edits acknowledged")
            time.sleep(EDIT_PAUSE)
        else:
            count(f"edits refused with {status}")
            time.sleep(0.5 if status == 409 else 1)


def printer(player: Browser, ports: list[int], pk: int, asked: set[str], load: Load,
            offset: float) -> None:  # fmt: skip
    """A player's roster printed through both nodes now and then: each asked render's id
    kept."""
    n = 0
    time.sleep(offset)
    while load.on():
        n += 1
        try:
            status, headers, _ = player.get(ports[n % 2], f"/armies/{pk}/roster.pdf?paper=a4")
        except OSError:
            count("prints with no answer (a node was down)")
            time.sleep(1)
            continue
        location = headers.get("Location") or ""
        if status == 302 and "/prints/" in location:
            with lock:
                asked.add(location.rstrip("/").split("/")[-1])
            count("prints asked (queued)")
        elif status == 200:
            count("prints served at once (already rendered)")
        else:
            count(f"prints answered {status} (try again)")
        time.sleep(PRINT_EVERY)


def faults(postgres, redis: Redis, nodes: list[Node], watch: HealthWatch,
           load: Load) -> None:  # fmt: skip
    """The faults, in turn: each of the plan once, then again until the load's time is up;
    each one's start and end told to ``watch``."""

    def away(stop, start, seconds):
        def act():
            stop()
            time.sleep(seconds * SCALE)
            start()

        return act

    def kill(kind):
        def act():
            killed = random.choice(nodes).kill(kind)
            print(f"    SIGKILL {killed}", flush=True)
            if killed.startswith("no "):
                count("faults not made (nothing to kill)")

        return act

    plan = [
        (f"PostgreSQL stopped {15 * SCALE:g} s", away(postgres.stop, postgres.start, 15)),
        (f"Redis killed {30 * SCALE:g} s, started again empty", away(redis.kill, redis.start, 30)),
        ("a render worker SIGKILLed", kill("worker")),
        (f"Redis paused {30 * SCALE:g} s (SIGSTOP)", away(redis.pause, redis.resume, 30)),
        ("a web process SIGKILLed", kill("web")),
        ("granian's main process SIGKILLed", kill("granian")),
        (f"PostgreSQL stopped {60 * SCALE:g} s", away(postgres.stop, postgres.start, 60)),
    ]
    step = 0
    try:
        time.sleep(15 * max(SCALE, 0.35))
        while step < len(plan) or time.monotonic() < load.until - 10:
            name, act = plan[step % len(plan)]
            print(f"  {time.strftime('%H:%M:%S')} fault: {name}", flush=True)
            began = time.monotonic()
            act()
            watch.fault(name, began, time.monotonic())
            count(f"faults: {name}")
            step += 1
            time.sleep(20 * max(SCALE, 0.35))
    finally:  # the players stop, even when a fault could not be made
        load.faults_done = time.monotonic()


def wait_healthy(ports: list[int], seconds: float, nodes: list[Node] = ()) -> bool:
    probe = Browser("127.0.0.1")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if any(not node.alive() for node in nodes):
            return False  # make run gave up (its log says why)
        with suppress(OSError):
            if all(probe.get(port, "/healthz/workers")[0] == 200 for port in ports):
                return True
        time.sleep(1)
    return False


PLAYERS = """
import json
from django.contrib.auth.models import User
from armybuilder.armies import services
from armybuilder.catalog.services import load_lists
from tests.support import army
load_lists()
made = []
for name in NAMES:
    player = User.objects.create_user(name, password=PASSWORD)
    document = army("into-the-dark", [{"name": f"Unit {n}"} for n in range(2)])
    saved = services.create_army(document, owner=player)  # its units get their ids
    made.append({"player": name, "army": saved.pk})
print(json.dumps(made))
"""
NAMES = ["alice", "bruno", "carys", "dafydd"]


def main() -> int:
    if not possible():
        print("make soak needs root, initdb and runuser (a PostgreSQL of its own)")
        return 1
    directory = Path(os.environ.get("SOAK_DIR") or ROOT / ".venv" / "soak")
    directory.mkdir(parents=True, exist_ok=True)
    redis = Redis(directory)
    redis.start()
    nodes: list[Node] = []
    with own_postgres() as postgres:
        database = postgres.create("muster")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "MUSTER_"))}
        env.update(
            DATABASE_URL=database, REDIS_URL=f"redis://127.0.0.1:{redis.port}/0",
            MUSTER_TASK_BACKEND="rq", MUSTER_QUEUE_URL=f"redis://127.0.0.1:{redis.port}/1",
            DJANGO_SECRET_KEY_FILE=str(directory / "secret_key"),  # one site: one key
            WEB_CONCURRENCY="2", WORKERS="1",
        )  # fmt: skip
        env.pop("REDIS_URL_FALLBACK", None)
        try:
            for name in ("a", "b"):  # one after the other: the first migrates and collects
                node = Node(name, directory, env)
                nodes.append(node)
                node.start()
                if not wait_healthy([node.port], 300, nodes):
                    print(f"node {name} did not come up; its log: {node.log}")
                    print(node.log.read_text()[-3000:])
                    return 1
            ports = [node.port for node in nodes]
            shell = {**env, "DJANGO_SETTINGS_MODULE": "armybuilder.settings_production",
                     "DJANGO_HTTPS": "0"}  # fmt: skip
            script = f"NAMES = {NAMES!r}\nPASSWORD = {PASSWORD!r}\n" + PLAYERS
            made = subprocess.run([*MANAGE, "shell", "-c", script], cwd=ROOT, env=shell,
                                  check=True, capture_output=True, text=True)  # fmt: skip
            armies = json.loads(made.stdout.strip().splitlines()[-1])
            return soak(database, armies, nodes, ports, postgres, redis)
        finally:
            for node in nodes:
                node.stop()
            redis.resume()
            redis.kill()


def soak(database, armies, nodes, ports, postgres, redis) -> int:
    """The players' edits and prints through both nodes while the faults come, then the
    check."""
    acked: list[tuple[int, int, int]] = []
    asked: set[str] = set()
    units: list[tuple[int, str]] = []  # (army, unit id), one editing thread each
    threads = []
    began = time.monotonic()
    load = Load(SECONDS)
    for number, mine in enumerate(armies):
        player = Browser("127.0.0.1")
        player.log_in(ports[number % 2], mine["player"])
        exported = json.loads(player.get(ports[0], f"/armies/{mine['army']}/export.json")[2])
        unit_id = exported["units"][0]["id"]
        units.append((mine["army"], unit_id))
        threads.append(threading.Thread(target=editor, args=(
            player, ports, mine["army"], number, unit_id, acked, load)))  # fmt: skip
        printing = Browser("127.0.0.1")
        printing.cookies = player.cookies  # the same player, printing from another tab
        threads.append(threading.Thread(target=printer, args=(
            printing, ports, mine["army"], asked, load, number * PRINT_EVERY / len(armies))))  # fmt: skip
    print(f"soak: {SECONDS:.0f} s or more of {len(armies)} players' edits and prints on two"
          " `make run` nodes, with faults", flush=True)  # fmt: skip
    watch = HealthWatch(ports)
    watch.start()
    threads.append(threading.Thread(target=faults, args=(postgres, redis, nodes, watch, load)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return check(database, units, acked, asked, nodes, began, ports, watch)


def lost_edits(database, units, acked) -> list[tuple[int, int, str]]:
    """Each acknowledged edit checked against its own revision: the army's history holds
    a revision of that unit's name whose new value is that edit's (or, for keystrokes kept
    as one change, a later name of the same unit typed onto it); the edits that fail.
    ``units``: each editing thread's (army, unit id)."""
    with psycopg.connect(database) as connection:
        rows = connection.execute(
            "SELECT army_id, item_id, after, since FROM armies_revision"
            " WHERE army_id = ANY(%s) AND field = 'name'",
            ([army for army, _ in units],),
        ).fetchall()
    made: dict[tuple[int, str], set[str]] = {}
    typed_up_to: dict[tuple[int, str], int] = {}  # the highest take a typing revision holds
    for army_id, item_id, after, since in rows:
        made.setdefault((army_id, item_id), set()).add(after)
        if since is not None and isinstance(after, str):
            key = (army_id, item_id)
            typed_up_to[key] = max(typed_up_to.get(key, 0), _take(after))
    lost = []
    for unit, n, _version in acked:
        name = f"Unit {unit} take {n}"
        if name not in made.get(units[unit], set()) and typed_up_to.get(units[unit], 0) < n:
            lost.append((unit, n, name))
    return lost


def _take(name: str) -> int:
    head, _, number = name.rpartition(" take ")
    return int(number) if head and number.isdigit() else 0


def render_states(database, asked, seconds: float) -> dict[str, tuple[str, str]]:
    """Each asked render's status and error, once all are done or ``seconds`` passed."""
    deadline = time.monotonic() + seconds
    while True:
        with psycopg.connect(database) as connection:
            rows = connection.execute(
                "SELECT id::text, status, error FROM printing_render WHERE id::text = ANY(%s)",
                (list(asked),),
            ).fetchall()
        states = {r[0]: (r[1], r[2]) for r in rows}
        if all(s[0] in ("ready", "failed") for s in states.values()):
            return states
        if time.monotonic() > deadline:
            return states
        time.sleep(2)


def check(database, units, acked, asked, nodes, began, ports, watch) -> int:
    print("soak: faults stopped; waiting for the renders asked for", flush=True)
    wait_healthy(ports, 120)
    states = render_states(database, asked, 180)
    watch.stop.set()
    lost = lost_edits(database, units, acked)
    ready = sum(1 for s in states.values() if s[0] == "ready")
    failed = Counter(s[1] or "(no reason)" for s in states.values() if s[0] == "failed")
    stuck = len(asked) - ready - sum(failed.values())  # pending, or never stored
    print(f"soak: ran {time.monotonic() - began:.0f} s")
    for what, n in sorted(counts.items()):
        print(f"  {what}: {n}")
    killed = [what for node in nodes for what in node.killed]
    print(f"  processes SIGKILLed (supervisord or granian started each again): {len(killed)}")
    lines, worst = watch.report()
    print("  health after each fault (samples not 200 on every node; back to 200 after):")
    for line in lines:
        print(line)
    for unit, n, name in lost[:20]:
        print(f"  LOST: unit {unit}'s acknowledged edit {n} ({name!r}): no revision holds it")
    for reason, n in failed.items():
        print(f"  FAILED renders ({n}): {reason}")
    recovered = ", ".join(
        f"{e} {'never' if worst[e] < 0 else f'{worst[e]:.0f} s'}" for e in ENDPOINTS
    )
    print(
        f"soak: edits acknowledged {len(acked)}, checked against their revisions, lost "
        f"{len(lost)}; renders asked {len(asked)}: ready {ready}, failed "
        f"{sum(failed.values())}, stuck {stuck}; longest recovery: {recovered}"
    )
    missing = [
        f"node {node.name} runs no {kind} process after the faults"
        for node in nodes
        for kind, pids in node.processes().items()
        if not pids
    ]
    for line in missing:
        print(f"  MISSING: {line}")
    unmade = counts["faults not made (nothing to kill)"]
    bad = lost or failed or stuck or missing or unmade or any(w < 0 for w in worst.values())
    print("soak: FAILED" if bad else "soak: passed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
