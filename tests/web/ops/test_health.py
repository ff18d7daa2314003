"""The health endpoints (ops/health.py): ``/healthz`` for a load balancer (this web
process can serve pages: its database and cache answer, whatever the workers do), and
``/healthz/workers`` for the queue with its workers' heartbeat, 503 naming what fails."""

from datetime import timedelta

import pytest
from django.utils import timezone

from armybuilder.ops import health
from armybuilder.ops.models import WorkerBeat


def a_worker_beats(seconds_ago=0.0, pid=None, render="", waiting=""):
    now = timezone.now() - timedelta(seconds=seconds_ago)
    return WorkerBeat.objects.create(
        worker=f"elsewhere:{pid or 4242}:{seconds_ago}", host="elsewhere", pid=pid or 4242,
        started=now, seen=now, render=render, waiting=waiting,
    )  # fmt: skip


def test_healthz_reports_the_database_and_cache_and_points_at_the_workers_check(client, db):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "database": "ok",
        "cache": "ok",
        "workers": "/healthz/workers",
        "status": "ok",
    }
    assert "no-cache" in response["Cache-Control"]


def test_healthz_stays_200_with_no_worker_while_healthz_workers_says_why(client, db):
    # the workers are stopped: every page still answers, so the load balancer keeps the host
    assert client.get("/healthz").status_code == 200
    response = client.get("/healthz/workers")
    assert response.status_code == 503
    assert response["Retry-After"]
    assert response.json()["queue"] == "error: no worker seen for 30 s (database)"
    assert response.json()["worker"] == {"seen": "never"}

    a_worker_beats(seconds_ago=31)  # a worker that stopped beating half a minute ago
    response = client.get("/healthz/workers")
    assert response.status_code == 503
    assert response.json()["queue"].startswith("error: no worker seen")
    assert response.json()["worker"]["seen_seconds_ago"] >= 31
    assert client.get("/healthz").status_code == 200

    a_worker_beats(seconds_ago=3, pid=777)
    response = client.get("/healthz/workers")
    assert response.status_code == 200
    body = response.json()
    assert body["queue"] == "ok (database)" and body["status"] == "ok"
    assert body["worker"]["pid"] == 777 and body["worker"]["waiting"] is None
    assert 3 <= body["worker"]["seen_seconds_ago"] < 30


def test_healthz_workers_tells_why_the_newest_worker_waits(client, db):
    a_worker_beats(waiting="ConnectionError: Redis away; trying again in 4 s")
    worker = client.get("/healthz/workers").json()["worker"]
    assert worker["waiting"] == "ConnectionError: Redis away; trying again in 4 s"


def test_healthz_is_503_and_names_the_part_that_fails(client, db, monkeypatch):
    def broken():
        raise ConnectionError("cache down")

    monkeypatch.setitem(health.CHECKS, "cache", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["cache"] == "error: ConnectionError"
    assert body["database"] == "ok" and body["status"] == "unavailable"
    assert response["Retry-After"]


def test_healthz_workers_checks_the_redis_queue_when_configured(client, db, settings):
    import django_rq.settings
    import redis

    url = django_rq.settings.QUEUES["default"]["URL"]
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.exceptions.RedisError as exc:
        pytest.skip(f"Redis does not answer on {url}: {exc}")
    settings.MUSTER_TASK_BACKEND = "rq"
    a_worker_beats()
    assert client.get("/healthz/workers").json()["queue"] == "ok (rq)"
