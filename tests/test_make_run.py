"""`make run` itself, as a club organiser would start it: gunicorn with DEBUG off, static
files by WhiteNoise after collectstatic, the worker rendering PDFs, /healthz, a generated
secret key, all from one command on SQLite."""

import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from tests.support import ROOT, example

pytestmark = pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "honcho").exists(),
                                reason="make run needs the project's .venv (make install)")  # fmt: skip


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url, data=None, headers=None):
    request = urllib.request.Request(url, data=data, headers=headers or {})  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 (loopback)
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


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


@pytest.fixture
def served(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "MUSTER_"))}
    env.update(
        MUSTER_BIND=f"127.0.0.1:{port}",
        DATABASE_URL=f"sqlite:///{tmp_path / 'run.sqlite3'}",
        DJANGO_SECRET_KEY_FILE=str(tmp_path / "secret_key"),
    )
    log = (tmp_path / "run.log").open("w")
    process = subprocess.Popen(
        ["make", "run"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        up = wait_for(lambda: fetch(base + "/healthz")[0] == 200, 240)
        assert up, (tmp_path / "run.log").read_text()[-3000:]
        yield base, tmp_path
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
        log.close()


def test_make_run_serves_production_with_a_worker(served):
    base, tmp_path = served
    status, _, body = fetch(base + "/healthz")
    assert json.loads(body)["queue"] == "ok (database)"
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
