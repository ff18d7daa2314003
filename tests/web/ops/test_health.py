"""``/healthz`` (ops/health.py): the database, the cache and the queue with its workers'
heartbeat, 503 naming the part that fails."""

from datetime import timedelta

import pytest
from django.utils import timezone

from armybuilder.ops import health
from armybuilder.ops.models import WorkerBeat


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
