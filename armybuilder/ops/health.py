"""Three health endpoints, each part ``ok`` or what failed, 200 or 503.

``/healthz`` is the load balancer's: can this web process serve pages? Its database
answers and holds every migration this code expects. Nothing else: with Redis away the
pages still answer (the cache falls back to rendering, the rate limits count in the
database, a render waits for the queue), and with the workers stuck they answer too, so a
load balancer acting on it never takes every host out for what they share.

``/healthz/redis`` is the operator's (or a monitor's): the cache's Redis (``REDIS_URL``)
and the queue's (``MUSTER_QUEUE_URL``, with ``MUSTER_TASK_BACKEND=rq``) answer; a site
without Redis says which in-process store it uses instead.

``/healthz/workers`` is the operator's too: the queue is ``ok`` only when it answers, a
worker has beaten within ``MUSTER_WORKER_SILENT_SECONDS`` (30), and the workers run jobs:
their test job (``ops.probe``) has run lately. ``worker`` tells when the newest one was
seen, and why it waits when it is waiting (the queue or the database away).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)


def check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


class NotMigrated(Exception):
    """The database lacks migrations this code expects (a host on a newer release than its
    database): its pages would fail."""


_migrated = False  # once every migration was found applied, this process need not look again


def check_migrations() -> str:
    global _migrated
    if not _migrated:
        from django.db.migrations.executor import MigrationExecutor

        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        if plan:
            raise NotMigrated(f"{len(plan)} migrations not applied (manage.py muster_migrate)")
        _migrated = True
    return "ok"


def check_cache() -> str:
    """The cache keeps what is stored in it (on Redis when ``REDIS_URL`` is set)."""
    key = f"muster:healthz:{uuid.uuid4().hex}"
    cache.set(key, "1", 10)
    found = cache.get(key)
    cache.delete(key)
    if found != "1":
        raise RuntimeError("the cache did not return what was stored")
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    return "ok" if isinstance(caches["default"], RedisCache) else "ok (no Redis: in-process memory)"


def check_queue_redis() -> str:
    """The RQ queue's Redis answers a ping (the database queue needs no Redis)."""
    if settings.MUSTER_TASK_BACKEND != "rq":
        return f"ok (no Redis: the {settings.MUSTER_TASK_BACKEND} queue)"
    import django_rq

    django_rq.get_connection("default").ping()
    return "ok"


class NoWorker(Exception):
    """The queue answers but nothing has taken work from it lately, or its workers cannot
    run what they take."""


def check_queue() -> str:
    """The configured task backend can be reached (the database table, or Redis), and a
    worker has been seen lately (the immediate backend of ``make dev`` needs none)."""
    backend = settings.MUSTER_TASK_BACKEND
    if backend == "database":
        from django_tasks_db.models import DBTaskResult

        DBTaskResult.objects.exists()
    elif backend == "rq":
        import django_rq

        django_rq.get_connection("default").ping()
    if backend != "immediate":
        from armybuilder.ops.heartbeat import silent_seconds

        age = worker_age()
        if age is None or age > silent_seconds():
            raise NoWorker(f"no worker seen for {silent_seconds():g} s ({backend})")
        from armybuilder.ops.probe import failing_for

        failing = failing_for()
        if failing is not None:
            raise NoWorker(f"the workers run no jobs: none ran for {failing:.0f} s ({backend})")
    return f"ok ({backend})"


def worker_age() -> float | None:
    """Seconds since the newest worker heartbeat; None when no worker ever beat."""
    from armybuilder.ops.models import WorkerBeat

    newest = WorkerBeat.objects.order_by("-seen").values_list("seen", flat=True).first()
    return None if newest is None else max(0.0, (timezone.now() - newest).total_seconds())


def worker_state() -> dict[str, object]:
    """What an operator sees under ``worker``: the newest heartbeat and what it renders."""
    from armybuilder.ops.heartbeat import live_beats
    from armybuilder.ops.models import WorkerBeat

    newest = WorkerBeat.objects.order_by("-seen").first()
    if newest is None:
        return {"seen": "never"}
    return {
        "seen_seconds_ago": round((timezone.now() - newest.seen).total_seconds(), 1),
        "pid": newest.pid,
        "host": newest.host,
        "rendering": newest.render or None,
        "waiting": newest.waiting or None,
        "alive": len(live_beats()),
        "test_job_ran_seconds_ago": _probe_age(),
    }


def _probe_age() -> float | None:
    """Seconds since a worker last ran the workers' test job (``ops.probe``)."""
    from armybuilder.ops.models import Scheduled
    from armybuilder.ops.probe import NAME

    last = Scheduled.objects.filter(name=NAME).values_list("last_run", flat=True).first()
    return None if last is None else round((timezone.now() - last).total_seconds(), 1)


CHECKS: dict[str, Callable[[], str]] = {
    "database": check_database,
    "migrations": check_migrations,
}
REDIS_CHECKS: dict[str, Callable[[], str]] = {"cache": check_cache, "queue": check_queue_redis}
WORKER_CHECKS: dict[str, Callable[[], str]] = {"queue": check_queue}


def _run(checks: dict[str, Callable[[], str]], state: dict[str, object]) -> bool:
    healthy = True
    for name, check in checks.items():
        try:
            state[name] = check()
        except (NoWorker, NotMigrated) as exc:
            logger.warning("healthz: %s", exc)
            state[name] = f"error: {exc}"
            healthy = False
        except Exception as exc:  # a health check reports failures, it never raises
            logger.warning("healthz: %s failed: %s: %s", name, type(exc).__name__, exc)
            state[name] = f"error: {type(exc).__name__}"
            healthy = False
    return healthy


def _answer(state: dict[str, object], healthy: bool) -> JsonResponse:
    state["status"] = "ok" if healthy else "unavailable"
    response = JsonResponse(state, status=200 if healthy else 503)
    if not healthy:
        response["Retry-After"] = "10"
    return response


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """The load balancer's check: 200 when this process can serve pages (its database
    answers, migrated), 503 naming the part that does not. Redis and the workers are not
    asked: they have their own checks, named here."""
    state: dict[str, object] = {}
    healthy = _run(CHECKS, state)
    state["redis"] = reverse("healthz-redis")
    state["workers"] = reverse("healthz-workers")
    return _answer(state, healthy)


@never_cache
@require_safe
def healthz_redis(request: HttpRequest) -> JsonResponse:
    """The cache's and the queue's Redis: 200 when both answer (or none is configured),
    503 naming the one that does not. Pages keep answering meanwhile (see the module)."""
    state: dict[str, object] = {}
    return _answer(state, _run(REDIS_CHECKS, state))


@never_cache
@require_safe
def healthz_workers(request: HttpRequest) -> JsonResponse:
    """The workers and their queue: 200 when a worker beats and runs jobs, 503 saying why
    not (no worker seen, jobs not running, the queue away; ``worker.waiting``: why the
    newest worker waits)."""
    state: dict[str, object] = {}
    healthy = _run(WORKER_CHECKS, state)
    if settings.MUSTER_TASK_BACKEND != "immediate":
        try:
            state["worker"] = worker_state()
        except Exception as exc:
            state["worker"] = f"error: {type(exc).__name__}"
    return _answer(state, healthy)
