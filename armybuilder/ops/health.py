"""``/healthz``: the database, the cache and the task queue, each ``ok`` or what failed."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)


def check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def check_cache() -> str:
    key = f"muster:healthz:{uuid.uuid4().hex}"
    cache.set(key, "1", 10)
    found = cache.get(key)
    cache.delete(key)
    if found != "1":
        raise RuntimeError("the cache did not return what was stored")
    return "ok"


def check_queue() -> str:
    """The configured task backend can be reached (the database table, or Redis)."""
    backend = settings.MUSTER_TASK_BACKEND
    if backend == "database":
        from django_tasks_db.models import DBTaskResult

        DBTaskResult.objects.exists()
    elif backend == "rq":
        import django_rq

        django_rq.get_connection("default").ping()
    return f"ok ({backend})"


CHECKS: dict[str, Callable[[], str]] = {
    "database": check_database,
    "cache": check_cache,
    "queue": check_queue,
}


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when every part answers, 503 naming the part that does not."""
    state: dict[str, str] = {}
    healthy = True
    for name, check in CHECKS.items():
        try:
            state[name] = check()
        except Exception as exc:  # a health check reports failures, it never raises
            logger.warning("healthz: %s failed", name, exc_info=True)
            state[name] = f"error: {type(exc).__name__}"
            healthy = False
    state["status"] = "ok" if healthy else "unavailable"
    return JsonResponse(state, status=200 if healthy else 503)
