"""Load: the production server (granian, 2 processes, production settings, as ``make run``
starts it) on a loopback port, driven by ApacheBench (``ab``, Debian's apache2-utils; ``make bench`` installs it as root).

Everything runs in a throwaway directory: its own SQLite database (migrated, army lists
loaded, a player with a signed-in session and a shared 30-unit army), collectstatic, one
render by the worker for the cached-PDF case. Each case is a bounded ``ab -n N -c 8`` run
(``MUSTER_BENCH_REQUESTS``, default 2000) against 127.0.0.1 only; the server is stopped at
the end. Pages are fetched as a returning visitor (with a CSRF cookie), as a browser does
after its first visit; the share page also as a first visit (no cookie: an opponent opening
the link). Last, the share page at rest and while three clients print (bench/_printload.py),
with the p99 ratio. Numbers are printed, never asserted.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from bench import _printload

TITLE = "Load: granian, 2 processes, production settings, ab -c 8 on 127.0.0.1"
ROOT = Path(__file__).resolve().parent.parent
CONCURRENCY = 8
PRINT_CONCURRENCY = 4  # the share page beside the printers: a busy club evening, not a flood
CSRF = "benchcsrfsecret0123456789abcdefg"  # 32 characters: a CSRF secret


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env(tmp: Path, port: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "MUSTER_"))}
    env.pop("DATABASE_URL", None)
    env.update(
        DJANGO_SETTINGS_MODULE="armybuilder.settings_production",
        DJANGO_HTTPS="0",
        DJANGO_SECRET_KEY_FILE=str(tmp / "secret_key"),
        DATABASE_URL=f"sqlite:///{tmp / 'load.sqlite3'}",
        MUSTER_BIND=f"127.0.0.1:{port}",
        WEB_CONCURRENCY="2",
        MUSTER_ACCESS_LOG="",
        MUSTER_TASK_BACKEND="database",
    )
    if os.environ.get("MUSTER_WORKER_NICE"):  # e.g. 0, to see what the niceness buys
        env["MUSTER_WORKER_NICE"] = os.environ["MUSTER_WORKER_NICE"]
    return env


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(  # noqa: S603 (our own manage.py)
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=False,
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    if done.returncode:
        raise RuntimeError(f"manage.py {' '.join(args)} failed: {done.stderr[-1500:]}")
    return done.stdout


def _get(url: str, data: bytes | None = None, headers: dict[str, str] | None = None) -> Any:
    request = urllib.request.Request(url, data=data, headers=headers or {})  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=60) as response:  # noqa: S310 (loopback)
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def _wait_up(base: str) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if _get(base + "/")[0] == 200:  # /healthz wants a worker, started later
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError("the server did not answer within 120 s")


def _ab(
    ab: str, url: str, requests: int, extra: list[str], concurrency: int = CONCURRENCY
) -> dict[str, Any]:
    done = subprocess.run(  # noqa: S603 (ab on loopback)
        [ab, "-q", "-n", str(requests), "-c", str(concurrency), "-s", "60", *extra, url],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    out = done.stdout

    def number(pattern: str) -> float | None:
        found = re.search(pattern, out, re.M)
        return float(found.group(1)) if found else None

    return {
        "rps": number(r"^Requests per second:\s+([\d.]+)"),
        "p50": number(r"^\s+50%\s+(\d+)"),
        "p99": number(r"^\s+99%\s+(\d+)"),
        "non2xx": int(number(r"^Non-2xx responses:\s+(\d+)") or 0),
        "failed": int(number(r"^Failed requests:\s+(\d+)") or 0),
        "complete": int(number(r"^Complete requests:\s+(\d+)") or 0),
        "error": "" if done.returncode == 0 else (done.stderr.strip() or out[-300:]),
    }


def run() -> dict[str, Any]:
    ab = shutil.which("ab")
    if ab is None:
        return {
            "rows": [],
            "notes": ["ab not found (Debian apache2-utils): make bench installs it as root"],
        }
    requests = int(os.environ.get("MUSTER_BENCH_REQUESTS", "2000"))
    tmp = Path(tempfile.mkdtemp(prefix="muster-load-"))
    port = _free_port()
    env = _env(tmp, port)
    base = f"http://127.0.0.1:{port}"
    server = None
    try:
        _manage(env, "migrate", "--noinput", "-v", "0")
        _manage(env, "muster", "load-lists")
        _manage(env, "collectstatic", "--noinput", "-v", "0")
        setup = json.loads(
            subprocess.run(  # noqa: S603
                [sys.executable, "-m", "bench._loadsetup"],
                cwd=ROOT,
                env=env,
                check=True,
                capture_output=True,
                text=True,
                timeout=300,
            ).stdout  # fmt: skip
        )
        server = subprocess.Popen(  # noqa: S603
            [sys.executable, "-m", "armybuilder.ops.serve"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        _wait_up(base)
        rows = _cases(ab, base, env, setup, requests, tmp)
    finally:
        if server is not None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
        shutil.rmtree(tmp, ignore_errors=True)
    static_rps = rows[0]["req/s"] or 1
    ratio = _printload.p99_ratio(rows)
    for row in rows:
        row["x static"] = (row["req/s"] or 0) / static_rps
    bad = sum(r["non-2xx"] + r["failed"] for r in rows)
    notes = [
        f"{requests} requests per case, concurrency {CONCURRENCY}; p50/p99 in ms; "
        "x static = req/s as a share of the static file's",
        "machine load average (1/5/15 min) at the end: "
        + " / ".join(f"{x:.1f}" for x in os.getloadavg())
        + f" on {os.cpu_count()} CPUs (anything else running skews every number)",
        "zero non-2xx responses" if bad == 0 else f"{bad} non-2xx or failed responses",
        "builder edit: the same value at the same version each time (ab repeats one body),"
        " so the versioned UPDATE is skipped; bench/edits.py times real changes",
        f"share page at rest and while printing: ab -c {PRINT_CONCURRENCY} for "
        f"{os.environ.get('MUSTER_BENCH_PRINT_SECONDS', '20')} s each, one worker at niceness "
        f"{env.get('MUSTER_WORKER_NICE', '10')}; p99 ratio printing / at rest: "
        + (f"{ratio:.2f}x (goal <= 2x)" if ratio else "n/a"),
    ]
    return {"rows": rows, "notes": notes}


def _cases(
    ab: str, base: str, env: dict[str, str], setup: dict[str, Any], requests: int, tmp: Path
) -> list[dict[str, Any]]:
    status, home = _get(base + "/")
    stylesheet = re.search(rb'href="(/static/css/muster\.[0-9a-f]{12}\.css)"', home)
    if status != 200 or not stylesheet:
        raise RuntimeError("the home page or its hashed stylesheet is missing")
    document = json.dumps(setup["document"]).encode()
    check_body = tmp / "check.json"
    check_body.write_bytes(document)
    # one roster rendered by the worker: the cached-PDF case downloads the stored render
    status, body = _get(base + "/api/v1/roster.pdf", document, {"Content-Type": "application/json"})
    status_url = base + json.loads(body)["status_url"] if status == 202 else None
    _manage(env, "muster_worker", "--batch")
    pdf_url = status_url or base + "/api/v1/roster.pdf"
    if status_url is None or _get(status_url)[0] != 200:
        raise RuntimeError("the worker did not render the roster")
    edit_body = tmp / "edit.txt"
    # ab repeats one body, so the edit re-sends a unit's current figures at the army's
    # version: the whole edit path (parse, check, render), though no row is written
    edit_body.write_text("version=1&f.figures=12")
    visitor = ["-C", f"csrftoken={CSRF}"]
    owner = [  # one -C: ab keeps only the last of several
        "-C", f"csrftoken={CSRF}; sessionid={setup['session']}",
        "-H", f"X-CSRFToken: {CSRF}", "-H", "HX-Request: true",
    ]  # fmt: skip
    cases = [
        ("static file", base + stylesheet.group(1).decode(), []),
        ("share page, 30 units, first visit", f"{base}/s/{setup['token']}/", []),
        ("share page, 30 units, returning", f"{base}/s/{setup['token']}/", visitor),
        ("rule-set page", base + "/rulesets/into-the-dark/", visitor),
        ("POST /api/v1/check, 30 units",
         base + "/api/v1/check", ["-p", str(check_body), "-T", "application/json"]),
        ("cached roster PDF", pdf_url, []),
        ("builder edit (htmx), 30 units",
         f"{base}/armies/{setup['army']}/unit/{setup['document']['units'][15]['id']}/",
         [*owner, "-p", str(edit_body), "-T", "application/x-www-form-urlencoded"]),
    ]  # fmt: skip
    rows = []
    for name, url, extra in cases:
        if name.endswith("returning"):
            share = (url, extra)
        _ab(ab, url, min(50, requests), extra)  # warm-up: caches, imports, connections
        result = _ab(ab, url, requests, extra)
        rows.append(
            {
                "case": name,
                "req/s": result["rps"],
                "p50": result["p50"],
                "p99": result["p99"],
                "x static": None,
                "non-2xx": result["non2xx"],
                "failed": result["failed"],
                "done": result["complete"],
            }
        )
        if result["error"]:
            rows[-1]["case"] += f" (ab: {result['error'][:60]})"

    def share_page() -> dict[str, Any]:
        # a fixed time, not a count: long enough for several renders to finish meanwhile
        timed = [*share[1], "-t", os.environ.get("MUSTER_BENCH_PRINT_SECONDS", "20")]
        return _ab(ab, share[0], requests, timed, PRINT_CONCURRENCY)

    rows.extend(_printload.while_printing(base, env, ROOT, share_page))
    return rows
