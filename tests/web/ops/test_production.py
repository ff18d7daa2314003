"""Running Muster as a service: CSP, /healthz, players' error pages, production settings,
the worker's scheduled housekeeping."""

import json
import os
import re
import subprocess
import sys
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import RequestFactory
from django.utils import timezone

from armybuilder import errors
from armybuilder.armies.models import Army, new_share_token
from armybuilder.ops import health, maintenance
from armybuilder.ops.models import Scheduled, WorkerBeat
from armybuilder.printing.models import Render
from tests.support import ROOT, example

INLINE = {
    "inline script": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),
    "style attribute": re.compile(r"\sstyle=", re.I),
    "event handler": re.compile(r"\son[a-z]+=", re.I),
    "hx-on": re.compile(r"\s(data-)?hx-on", re.I),
    "style element": re.compile(r"<style", re.I),
}


@pytest.fixture
def saved(db, user):
    document = example("dewitt-medieval-lance-and-bow.json")
    return Army.objects.create(owner=user, document=document, share_token=new_share_token())


def test_every_page_sends_a_strict_content_security_policy(client, db):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def test_pages_carry_no_inline_script_style_or_handler(owner_client, saved):
    token = saved.share_token
    pages = [
        "/",
        "/rulesets/dewitt-medieval/",
        f"/armies/{saved.pk}/",
        f"/s/{token}/",
        f"/armies/{saved.pk}/roster/",
        f"/armies/{saved.pk}/qrs/",
        "/rulesets/feudal-2017/qrs/",
        "/armies/",
    ]
    owner_client.get(f"/armies/{saved.pk}/print/?sheet=roster&paper=letter")
    pages.append(f"/prints/{Render.objects.get().pk}/")  # the progress page
    for url in pages:
        response = owner_client.get(url, follow=True)
        assert response.status_code == 200, url
        if response["Content-Type"].startswith("application/pdf"):
            continue
        html = response.content.decode()
        found = {name for name, pattern in INLINE.items() if pattern.search(html)}
        assert not found, f"{url}: {found}"


def a_worker_beats(seconds_ago=0.0, pid=None, render=""):
    now = timezone.now() - timedelta(seconds=seconds_ago)
    return WorkerBeat.objects.create(
        worker=f"elsewhere:{pid or 4242}:{seconds_ago}", host="elsewhere", pid=pid or 4242,
        started=now, seen=now, render=render,
    )  # fmt: skip


def test_healthz_reports_database_cache_queue_and_the_workers_heartbeat(client, db):
    a_worker_beats(seconds_ago=3, pid=777)
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert {k: body[k] for k in ("database", "cache", "queue", "status")} == {
        "database": "ok",
        "cache": "ok",
        "queue": "ok (database)",
        "status": "ok",
    }
    assert body["worker"]["pid"] == 777
    assert 3 <= body["worker"]["seen_seconds_ago"] < 30
    assert "no-cache" in response["Cache-Control"]


def test_healthz_is_503_naming_the_queue_when_no_worker_has_been_seen(client, db):
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["queue"] == "error: no worker seen for 30 s (database)"
    assert response.json()["worker"] == {"seen": "never"}

    a_worker_beats(seconds_ago=31)  # a worker that stopped beating half a minute ago
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["queue"].startswith("error: no worker seen")
    assert response.json()["worker"]["seen_seconds_ago"] >= 31

    a_worker_beats(seconds_ago=0)
    assert client.get("/healthz").status_code == 200


def test_healthz_is_503_and_names_the_part_that_fails(client, db, monkeypatch):
    def broken():
        raise ConnectionError("cache down")

    monkeypatch.setitem(health.CHECKS, "cache", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["cache"] == "error: ConnectionError"
    assert body["database"] == "ok" and body["status"] == "unavailable"


def test_healthz_checks_the_redis_queue_when_configured(client, db, settings):
    import django_rq.settings
    import redis

    url = django_rq.settings.QUEUES["default"]["URL"]
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.exceptions.RedisError as exc:
        pytest.skip(f"Redis does not answer on {url}: {exc}")
    settings.MUSTER_TASK_BACKEND = "rq"
    a_worker_beats()
    assert client.get("/healthz").json()["queue"] == "ok (rq)"


def test_a_missing_page_is_a_players_404_without_the_sites_routes(client, db, settings):
    settings.DEBUG = False
    response = client.get("/armies/999999/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "There is nothing at this address." in html
    assert "URLconf" not in html and "api/v1/" not in html


def test_a_form_posted_without_its_security_token_gets_a_players_403(db, settings):
    from django.test import Client

    settings.DEBUG = False
    response = Client(enforce_csrf_checks=True).post("/armies/new/", {"name": "Host"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "Nothing was saved. Reload the page" in html
    assert "CSRF verification failed" not in html and "<style" not in html
    assert not Army.objects.exists()


def test_a_server_error_is_a_players_500(db):
    request = RequestFactory().get("/armies/1/")
    response = errors.server_error(request)
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()
    api = errors.server_error(RequestFactory().get("/api/v1/check"))
    assert json.loads(api.content)["error"].startswith("The error has been logged")


def _production(env_extra, code):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(DJANGO_SETTINGS_MODULE="armybuilder.settings_production", **env_extra)
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + code],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_production_settings_generate_a_secret_key_once_when_none_is_set(tmp_path):
    key_file = tmp_path / "secret"
    code = "from django.conf import settings; print(settings.SECRET_KEY, settings.DEBUG)"
    first = _production({"DJANGO_SECRET_KEY_FILE": str(key_file)}, code)
    second = _production({"DJANGO_SECRET_KEY_FILE": str(key_file)}, code)
    assert first == second and first.endswith(" False")
    assert len(first.split()[0]) >= 50
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"


def test_the_proxy_headers_are_trusted_only_when_the_environment_says_so(tmp_path):
    code = (
        "from django.conf import settings; "
        "print(settings.SECURE_PROXY_SSL_HEADER, settings.USE_X_FORWARDED_HOST)"
    )
    env = {"DJANGO_SECRET_KEY_FILE": str(tmp_path / "k")}
    assert _production(env, code) == "None False"
    behind = {**env, "DJANGO_PROXY_SSL_HEADER": "1", "DJANGO_USE_X_FORWARDED_HOST": "1"}
    assert _production(behind, code) == "('HTTP_X_FORWARDED_PROTO', 'https') True"


@pytest.mark.django_db(transaction=True)
def test_the_worker_prunes_abandoned_drafts_on_a_schedule(settings):
    settings.TASKS = {"default": settings.TASK_BACKENDS["database"]}
    from django_tasks_db.models import DBTaskResult

    old = timezone.now() - timedelta(seconds=settings.SESSION_COOKIE_AGE + 3600)
    document = example("dewitt-medieval-lance-and-bow.json")
    abandoned = Army.objects.create(session_key="gone" * 8, document=document)
    fresh = Army.objects.create(session_key="here" * 8, document=document)
    Army.objects.filter(pk=abandoned.pk).update(updated=old)

    maintenance.ensure_scheduled()
    maintenance.ensure_scheduled()  # a second worker starting queues no second run
    assert DBTaskResult.objects.count() == 1

    call_command("db_worker", "--batch", "--no-startup-delay", "--queue-name", "default")

    assert not Army.objects.filter(pk=abandoned.pk).exists()
    assert Army.objects.filter(pk=fresh.pk).exists()
    row = Scheduled.objects.get(name="maintenance")
    assert row.last_result.startswith("pruned 1 abandoned draft")
    assert "0 old stored PDFs" in row.last_result
    assert "purged 0 deleted armies" in row.last_result
    upcoming = DBTaskResult.objects.get(id=row.task_id)
    assert upcoming.status == "READY"
    assert upcoming.run_after > timezone.now() + timedelta(minutes=30)
