"""The health endpoints (ops/health.py): ``/healthz`` for a load balancer (this web
process can serve pages: its database answers, migrated, whatever Redis and the workers
do), ``/healthz/redis`` for the cache's and the queue's Redis, and ``/healthz/workers`` for
the queue with its workers' heartbeat, 503 naming what fails."""

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


def test_healthz_reports_the_database_and_points_at_the_redis_and_workers_checks(client, db):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "database": "ok",
        "migrations": "ok",
        "redis": "/healthz/redis",
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
        raise ConnectionError("database away")

    monkeypatch.setitem(health.CHECKS, "database", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["database"] == "error: ConnectionError" and body["status"] == "unavailable"
    assert response["Retry-After"]


def test_healthz_is_503_while_the_database_lacks_a_migration_this_code_expects(
    client, db, monkeypatch
):
    from django.db.migrations.recorder import MigrationRecorder

    monkeypatch.setattr(health, "_migrated", False)
    MigrationRecorder.Migration.objects.filter(app="ops").order_by("-id").first().delete()
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["migrations"] == (
        "error: 1 migrations not applied (manage.py muster_migrate)"
    )


def test_healthz_stays_200_while_redis_is_away_and_healthz_redis_says_so(client, db, settings):
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "armybuilder.ops.rediscache.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.25},
        },
    }
    settings.MUSTER_TASK_BACKEND = "rq"
    import django_rq.settings

    queue = {"URL": "redis://127.0.0.1:1/1?socket_timeout=0.25"}  # nor there
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(django_rq.settings.QUEUES, "default", queue)
        assert client.get("/healthz").status_code == 200  # pages answer: keep the host
        response = client.get("/healthz/redis")
    assert response.status_code == 503 and response["Retry-After"]
    body = response.json()
    assert body["cache"] == "error: ConnectionError"
    assert body["queue"] == "error: ConnectionError"
    assert body["status"] == "unavailable"


def test_healthz_redis_says_which_store_serves_without_redis(client, db):
    response = client.get("/healthz/redis")
    assert response.status_code == 200
    assert response.json() == {
        "cache": "ok (no Redis: in-process memory)",
        "queue": "ok (no Redis: the database queue)",
        "status": "ok",
    }


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
