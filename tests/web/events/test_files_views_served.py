"""The flyer and the pack under `make run`'s own process layout: granian's web processes
and a separate worker, on SQLite, with no Redis. Whatever the worker makes, a web process
serves: nothing an action needs lives in one process's memory."""

import json
import os
import re
import subprocess
import urllib.parse

import pytest

from tests.support import ROOT
from tests.web.ops.test_serve import fetch, make_run, wait_for

pytestmark = [
    pytest.mark.skipif(
        not (ROOT / ".venv" / "bin" / "supervisord").exists(),
        reason="make run needs the project's .venv (make install)",
    ),
    pytest.mark.own_databases,
]

SETUP = """
import json
from django.test import Client
from armybuilder.events import services
from armybuilder.events.models import Submission
from tests.web.events.helpers import make_event, player, saved_army
organiser, bob = player("org"), player("bob")
event = make_event(organiser, name="Served Day")
made = services.submit(
    services.join(event, user=bob), army=saved_army(bob, name="Served host"), by=bob
)
Submission.objects.filter(pk=made.pk).update(state=Submission.APPROVED)
client = Client()
client.force_login(organiser)
print(json.dumps({"code": event.code, "session": client.cookies["sessionid"].value}))
"""


def setup_event(tmp_path, base):
    """The event, its approved army and the organiser's session, written to `make run`'s
    own database by another process (as an organiser's browser would leave them)."""
    port = base.rsplit(":", 1)[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "MUSTER_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="armybuilder.settings_production",
        DJANGO_HTTPS="0",
        MUSTER_BIND=f"127.0.0.1:{port}",
        DATABASE_URL=f"sqlite:///{tmp_path / 'run.sqlite3'}",
        DJANGO_SECRET_KEY_FILE=str(tmp_path / "secret_key"),
        MUSTER_RUN_DIR=str(tmp_path),
    )
    out = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "python"), "manage.py", "shell", "-c", SETUP],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_flyer_and_the_pack_arrive_with_web_and_worker_in_separate_processes(tmp_path):
    env = {"REDIS_URL": ""}  # the default `make run`: no Redis, each process its own memory
    with make_run(tmp_path, **env) as base:
        made = setup_event(tmp_path, base)
        code = made["code"]

        flyer = f"{base}/events/{code}/flyer.pdf"
        status, _, body = fetch(flyer)
        assert status in (200, 202)
        done = wait_for(lambda: (r := fetch(flyer))[0] == 200 and r, 120)
        assert done, "the worker's flyer reached the web processes"
        assert done[1]["Content-Type"] == "application/pdf" and done[2].startswith(b"%PDF")

        session = f"sessionid={made['session']}"
        status, headers, page = fetch(f"{base}/events/{code}/pack/", headers={"Cookie": session})
        assert status == 200, page[:500]
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        csrf = re.search(r"csrftoken=([^;]+)", headers.get("Set-Cookie", "")).group(1)
        cookies = {"Cookie": f"{session}; csrftoken={csrf}"}
        data = urllib.parse.urlencode({"csrfmiddlewaretoken": token.decode()}).encode()
        status, _, _ = fetch(f"{base}/events/{code}/pack/", data, cookies)
        assert status in (200, 302)

        def ready():
            page = fetch(f"{base}/events/{code}/pack/", headers=cookies)[2]
            return re.search(rb'href="(/events/[^"]+/pack/\d+\.pdf)"', page)

        link = wait_for(ready, 180)
        assert link, "the pack's progress and PDF reached the web processes"
        status, headers, pdf = fetch(base + link.group(1).decode(), headers=cookies)
        assert status == 200 and pdf.startswith(b"%PDF")
