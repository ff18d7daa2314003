"""`make run` itself, as a club organiser would start it: granian under supervisord with
DEBUG off, static files by WhiteNoise after collectstatic, the worker rendering PDFs,
/healthz, a generated secret key, all from one command on SQLite; and what it survives:
slow clients, a worker killed mid-render, Redis going away and losing its data."""

import html
import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zipfile
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

from bench.pdf import army_of
from tests.support import ROOT, example

pytestmark = [
    pytest.mark.skipif(
        not (ROOT / ".venv" / "bin" / "supervisord").exists(),
        reason="make run needs the project's .venv (make install)",
    ),
    pytest.mark.own_databases,
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url, data=None, headers=None, timeout=30):
    request = urllib.request.Request(url, data=data, headers=headers or {})  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 (loopback)
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read()


def wait_for(check, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            result = check()
        except OSError:
            result = None
        if result:
            return result
        time.sleep(0.5)
    return None


def run_env(tmp_path, port, **extra_env):
    """`make run`'s environment: on ``port``, with its own SQLite database and run directory."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "MUSTER_"))}
    env.update(
        MUSTER_BIND=f"127.0.0.1:{port}",
        DATABASE_URL=f"sqlite:///{tmp_path / 'run.sqlite3'}",
        DJANGO_SECRET_KEY_FILE=str(tmp_path / "secret_key"),
        MUSTER_RUN_DIR=str(tmp_path),
    )
    env.update(extra_env)
    return env


@contextmanager
def make_run(tmp_path, **extra_env):
    """`make run` on a free port with its own SQLite database, up once /healthz/workers
    says 200 (a worker beats and runs jobs); stopped with SIGTERM as Ctrl-C would."""
    port = free_port()
    env = run_env(tmp_path, port, **extra_env)
    log = (tmp_path / "run.log").open("a")
    process = subprocess.Popen(
        ["make", "run"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        up = wait_for(lambda: fetch(base + "/healthz/workers")[0] == 200, 240)
        assert up, (tmp_path / "run.log").read_text()[-3000:]
        yield base
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
        # supervisord stops its programs when it stops; give it the time it takes
        wait_for(lambda: not (tmp_path / "supervisord.pid").exists(), 30)
        log.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One `make run` for the tests that only use it (each start migrates, loads the lists
    and collects static files: about 18 s). The worker-killing test comes last of them: it
    leaves a new worker in the old one's place, as an operator would find it."""
    tmp_path = tmp_path_factory.mktemp("served")
    with make_run(tmp_path) as base:
        yield base, tmp_path


def health(base):
    return json.loads(fetch(base + "/healthz/workers")[2])


def test_make_run_serves_production_with_a_worker(served):
    base, tmp_path = served
    status, _, body = fetch(base + "/healthz")
    assert status == 200 and json.loads(body)["database"] == "ok"
    assert health(base)["queue"] == "ok (database)"
    assert (tmp_path / "secret_key").exists()  # generated, since none was set

    status, headers, body = fetch(base + "/")
    assert status == 200
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    stylesheet = re.search(rb'href="(/static/css/muster\.[0-9a-f]{12}\.css)"', body)
    assert stylesheet, "collectstatic's hashed names are served (WhiteNoise manifest)"
    assert fetch(base + stylesheet.group(1).decode())[0] == 200

    status, _, body = fetch(base + "/no/such/page/")
    assert status == 404
    assert b"There is nothing at this address." in body and b"URLconf" not in body

    document = json.dumps(example("dewitt-medieval-lance-and-bow.json")).encode()
    status, headers, body = fetch(
        base + "/api/v1/roster.pdf?paper=letter", document, {"Content-Type": "application/json"}
    )
    if status == 202:  # queued: the worker renders it
        status_url = base + json.loads(body)["status_url"]
        done = wait_for(lambda: (r := fetch(status_url))[0] == 200 and r, 180)
        assert done, "the worker rendered the PDF"
        status, headers, body = done
    assert status == 200
    assert body.startswith(b"%PDF")
    assert headers["Content-Disposition"].endswith('-roster-letter.pdf"')


def trickler(port, head):
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(head)
    return sock


def test_make_run_serves_the_page_engine_its_runtime_and_a_hashed_rules_archive(served):
    base, _ = served
    _, _, body = fetch(base + "/")
    meta = re.search(rb'<meta name="muster-engine" content="([^"]+)">', body)
    assert meta, "the pages name the engine in production"
    urls = json.loads(html.unescape(meta.group(1).decode()))
    assert re.fullmatch(r"/static/engine/rules\.[0-9a-f]{12}\.zip", urls["rules"])
    assert re.fullmatch(r"/static/js/engine/worker\.[0-9a-f]{12}\.js", urls["worker"])
    status, headers, archive = fetch(base + urls["rules"])
    assert status == 200 and "immutable" in headers["Cache-Control"]
    assert zipfile.ZipFile(io.BytesIO(archive)).getinfo("rules/engine.py").file_size > 0
    status, headers, _ = fetch(
        base + urls["runtime"] + "pyodide.asm.wasm", headers={"Accept-Encoding": "br"}
    )
    assert status == 200 and headers["Content-Type"] == "application/wasm"
    assert headers["Content-Encoding"] == "br" and "immutable" in headers["Cache-Control"]
    assert fetch(base + urls["runtime"] + "python_stdlib.zip")[0] == 200


def test_slow_clients_get_408_and_never_hold_up_other_pages(served):
    base, _ = served
    port = int(base.rsplit(":", 1)[1])
    body_head = (
        b"POST /api/v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
    )
    bodies = [trickler(port, body_head) for _ in range(50)]
    headers = [trickler(port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n") for _ in range(5)]
    stop = threading.Event()

    def trickle():  # one byte a second on every connection, headers and bodies alike
        while not stop.is_set():
            for sock in bodies:
                with suppress(OSError):
                    sock.send(b" ")
            for sock in headers:
                with suppress(OSError):
                    sock.send(b"X-Slow: 1\r\n")
            stop.wait(1)

    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    try:
        # while all of them trickle, every other page answers, each within 5 seconds
        for path in ("/", "/rulesets/into-the-dark/", "/healthz", "/", "/no/such/page/") * 2:
            status, _, _ = fetch(base + path, timeout=5)
            assert status in (200, 404), path
            time.sleep(0.5)
        # the body deadline (10 s after the headers) answers each trickler 408
        answers = []
        for sock in bodies:
            sock.settimeout(30)
            answers.append(sock.recv(64)[:12])
        assert answers == [b"HTTP/1.1 408"] * 50
        # headers that never end are cut off too: the connection closes, unanswered
        for sock in headers:
            sock.settimeout(30)
            try:
                first = sock.recv(64)
            except ConnectionResetError:
                first = b""
            # granian drops the connection without a word: no request to answer yet
            assert first == b""
    finally:
        stop.set()
        thread.join(timeout=5)
        for sock in bodies + headers:
            sock.close()


def children_of(pid):
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def running(pid):
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")  # a zombie has stopped; only its entry is left


EVENT_SETUP = """
from armybuilder.events import services
from armybuilder.events.models import Submission
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from tests.web.events.helpers import make_event, player, saved_army
organiser = player("organiser")
event = make_event(organiser, lists=["viking"])
for name in ("ann", "ben", "cas"):
    someone = player(name)
    submitted = services.submit(services.join(event, user=someone), army=saved_army(someone), by=someone)
    Submission.objects.filter(pk=submitted.pk).update(state=Submission.APPROVED)
session = SessionStore()
session.update({SESSION_KEY: str(organiser.pk), HASH_SESSION_KEY: organiser.get_session_auth_hash(),
                BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend"})
session.create()
print("made", event.code, session.session_key)
"""

TIGHTEN = """
from armybuilder.events import services
from armybuilder.events.models import Event
event = Event.objects.get(code=%r)
lists = [(a.army_list, a.revision) for a in event.allowed_lists.all()]
fields = {"restrictions": [{"kind": "max_units", "count": 1}]}
services.save_event(event.organiser, fields=fields, lists=lists, co_organisers=[], event=event)
"""


def shell(tmp_path, base, script):
    """A script run by `manage.py shell` on the served database, as a web process would."""
    env = run_env(tmp_path, int(base.rsplit(":", 1)[1]),
                  DJANGO_SETTINGS_MODULE="armybuilder.settings_production", DJANGO_HTTPS="0")  # fmt: skip
    done = subprocess.run(
        [str(ROOT / ".venv/bin/python"), "manage.py", "shell", "-c", script], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return [line.split()[1:] for line in done.stdout.splitlines() if line.startswith("made ")]


def test_the_flyer_the_pack_and_a_recheck_reach_the_pages_from_the_worker(served):
    """Under `make run` (granian's web processes, a separate worker, no Redis) whatever the
    worker makes reaches every web process: the flyer, the pack and the verdicts of a
    re-check after the organiser tightened the rules."""
    base, tmp_path = served
    [(code, session)] = shell(tmp_path, base, EVENT_SETUP)
    flyer = f"{base}/events/{code}/flyer.pdf"
    made = wait_for(lambda: (r := fetch(flyer))[2].startswith(b"%PDF") and r, 120)
    assert made, "the worker's flyer reached the page"

    cookie = {"Cookie": f"sessionid={session}"}
    status, headers, page = fetch(f"{base}/events/{code}/pack/", headers=cookie)
    assert status == 200
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1).decode()
    csrf = re.search(r"csrftoken=([^;]+)", headers["Set-Cookie"]).group(1)
    asked = {"Cookie": f"sessionid={session}; csrftoken={csrf}", "X-CSRFToken": token}
    assert fetch(f"{base}/events/{code}/pack/", b"qrs=0", asked)[0] in (200, 302)

    def pack_ready():
        found = re.search(
            rb"/pack/(\d+)\.pdf", fetch(f"{base}/events/{code}/pack/", headers=cookie)[2]
        )
        return found and fetch(f"{base}/events/{code}/pack/{found.group(1).decode()}.pdf",
                               headers=cookie)[2].startswith(b"%PDF")  # fmt: skip

    assert wait_for(pack_ready, 180), "the worker's pack reached the page"

    desk = f"{base}/events/{code}/desk/"
    assert b"0 not legal" in fetch(desk, headers=cookie)[2]
    shell(tmp_path, base, TIGHTEN % code)
    assert wait_for(lambda: b"3 not legal" in fetch(desk, headers=cookie)[2], 120), (
        "the worker's re-check reached the desk"
    )


def test_a_worker_killed_mid_render_is_replaced_and_the_render_is_queued_again(served):
    base, tmp_path = served
    rendering = None
    for attempt in range(3):  # a render quick enough to finish before the kill is retried
        document = army_of(500)
        document["name"] = f"A long army {attempt}"
        status, _, body = fetch(
            base + "/api/v1/roster.pdf",
            json.dumps(document).encode(),
            {"Content-Type": "application/json"},
        )
        assert status == 202
        status_url = base + json.loads(body)["status_url"]
        render_id = status_url.rstrip("/").rsplit("/", 1)[-1]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and rendering is None:
            worker = health(base).get("worker", {})
            if worker.get("rendering") == render_id:
                rendering = worker
            elif fetch(status_url)[0] == 200:
                break  # already done: try a bigger one
            time.sleep(0.1)
        if rendering:
            break
    assert rendering, "a worker was seen rendering"
    victim = rendering["pid"]
    render_children = []
    deadline = time.monotonic() + 30  # the child starts once the sheet's HTML is made
    while not render_children and time.monotonic() < deadline:
        render_children = children_of(victim)
        time.sleep(0.05)
    assert render_children, "the worker renders in a child process"

    os.kill(victim, signal.SIGKILL)

    assert fetch(base + "/", timeout=5)[0] == 200  # the site keeps answering
    # the render child dies with its worker: no orphan left rendering
    assert wait_for(lambda: not any(running(c) for c in render_children), 10)
    # a new worker is back (supervisord) and beating within 30 seconds
    back = wait_for(
        lambda: (h := health(base))["worker"].get("pid") not in (None, victim) and h, 30
    )
    assert back and back["status"] == "ok"
    # the render is queued again and finished by the new worker
    done = wait_for(lambda: (r := fetch(status_url))[0] == 200 and r, 180)
    assert done and done[2].startswith(b"%PDF")
    assert "lost its worker: queued again" in (tmp_path / "run.log").read_text()


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")
def test_the_worker_rides_out_redis_going_away_and_make_run_starts_after_redis_lost_its_data(
    tmp_path,
):
    port = free_port()

    def start_redis():
        process = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(tmp_path)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        assert wait_for(lambda: socket.create_connection(("127.0.0.1", port), 1), 20)
        return process

    def redis_cli(*args):
        subprocess.run(["redis-cli", "-p", str(port), *args], check=True, capture_output=True,
                       timeout=30)  # fmt: skip

    redis = start_redis()
    rq = {"MUSTER_TASK_BACKEND": "rq", "MUSTER_QUEUE_URL": f"redis://127.0.0.1:{port}/0"}
    try:
        with make_run(tmp_path, **rq) as base:
            before = health(base)
            assert before["queue"] == "ok (rq)"
            redis.terminate()  # Redis goes away
            redis.wait(timeout=10)
            down = wait_for(lambda: fetch(base + "/healthz/workers")[0] == 503, 30)
            assert down, "healthz/workers tells the queue is down"
            assert health(base)["queue"].startswith("error")
            assert fetch(base + "/", timeout=5)[0] == 200  # pages go on meanwhile
            assert fetch(base + "/healthz")[0] == 200  # so the load balancer keeps the host
            redis = start_redis()  # back, empty: it lost its data
            assert wait_for(lambda: fetch(base + "/healthz/workers")[0] == 200, 60)
            # the same worker process rode it out: supervisord did not have to restart it
            assert health(base)["worker"]["pid"] == before["worker"]["pid"]
        redis_cli("FLUSHALL")  # the queued housekeeping run is gone while Muster is stopped
        with make_run(tmp_path, **rq) as base:  # starts anyway (make_run waits for 200)
            assert health(base)["queue"] == "ok (rq)"
    finally:
        redis.terminate()
        redis.wait(timeout=10)


def _own_postgres_possible():
    import pwd

    if os.geteuid() != 0 or not (shutil.which("initdb") and shutil.which("runuser")):
        return False
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        return False
    return True


@pytest.mark.skipif(not _own_postgres_possible(), reason="needs root, initdb and a postgres user")
def test_the_site_and_the_worker_ride_out_a_postgresql_restart(tmp_path):
    # a PostgreSQL cluster of our own on a free port: the machine's own is never touched
    data = Path(tempfile.mkdtemp(prefix="muster-pg-"))
    shutil.chown(data, "postgres")
    port = free_port()

    def as_postgres(*args):
        subprocess.run(["runuser", "-u", "postgres", "--", *args], check=True,
                       capture_output=True, timeout=120)  # fmt: skip

    def pg_ctl(*args):
        options = f"-p {port} -k {data} -c listen_addresses=127.0.0.1"
        as_postgres("pg_ctl", "-D", str(data / "db"), "-o", options, "-w", *args)

    try:
        as_postgres("initdb", "-D", str(data / "db"), "-A", "trust", "-U", "postgres")
        pg_ctl("-l", str(data / "log"), "start")
        as_postgres("createdb", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "muster")
        url = f"postgres://postgres@127.0.0.1:{port}/muster"
        with make_run(tmp_path, DATABASE_URL=url) as base:
            before = health(base)
            pg_ctl("-m", "fast", "stop")  # the database goes away
            assert wait_for(lambda: fetch(base + "/healthz")[0] == 503, 30)
            for _ in range(3):  # players see "back in a moment", a load balancer a 503
                status, headers, body = fetch(base + "/armies/")
                assert status == 503 and int(headers["Retry-After"]) > 0
                assert b"Back in a moment" in body
            pg_ctl("-l", str(data / "log"), "start")
            assert wait_for(lambda: fetch(base + "/healthz")[0] == 200, 90)
            assert fetch(base + "/")[0] == 200
            assert wait_for(lambda: fetch(base + "/healthz/workers")[0] == 200, 90)
            # the same worker process waited it out: supervisord did not have to restart it
            assert health(base)["worker"]["pid"] == before["worker"]["pid"]
        log = (tmp_path / "run.log").read_text() + "".join(
            p.read_text(errors="replace") for p in tmp_path.glob("*.log") if p.name != "run.log"
        )
        # one line per outage and web process, never a stack per request
        assert "Traceback" not in log.split("unavailable (503", 1)[-1], log[-4000:]
    finally:
        with suppress(subprocess.SubprocessError):
            pg_ctl("-m", "immediate", "stop")
        shutil.rmtree(data, ignore_errors=True)


def process_of(parent, word):
    """The child of ``parent`` whose command line holds ``word``."""
    for pid in children_of(parent):
        with suppress(OSError):
            if word in Path(f"/proc/{pid}/cmdline").read_bytes():
                return pid
    return None


def answers(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except OSError:
        return False
    return True


def test_a_killed_granian_takes_its_web_processes_along_and_a_served_port_is_refused(tmp_path):
    with make_run(tmp_path) as base:
        port = int(base.rsplit(":", 1)[1])
        supervisord = int((tmp_path / "supervisord.pid").read_text())
        granian = process_of(supervisord, b"granian")
        web = children_of(granian)
        assert granian and len(web) == 2  # WEB_CONCURRENCY's two web processes

        # a second `make run` on the same port refuses at once, and says why
        second_dir = tmp_path / "second"
        second_dir.mkdir()
        second = subprocess.run(
            ["make", "run"], cwd=ROOT, env=run_env(second_dir, port), capture_output=True,
            text=True, timeout=120, start_new_session=True,
        )  # fmt: skip
        assert second.returncode == 2  # make's status for a failed step, as docs/running.md says
        assert f"127.0.0.1:{port} is already in use" in second.stdout + second.stderr
        assert not (second_dir / "supervisord.pid").exists()  # nothing of it started

        os.kill(granian, signal.SIGKILL)
        # its web processes end with it rather than serve on beside the next granian
        assert wait_for(lambda: not any(running(pid) for pid in web), 15), "orphans serve on"
        # supervisord starts granian again, alone on the port
        assert wait_for(lambda: fetch(base + "/healthz", timeout=5)[0] == 200, 60)
        again = process_of(supervisord, b"granian")
        assert again not in (None, granian) and len(children_of(again)) == 2
    # `make run` stopped: nothing answers on the port any more
    assert wait_for(lambda: not answers(port), 15), "something still listens after make run"
