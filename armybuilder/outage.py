"""While the database, the cache or the queue cannot be reached, pages answer 503 with
``Retry-After`` and the players' "back in a moment" page, not a 500 (a load balancer then
sees unavailability, not an application error), and the log holds one line per outage, not
a stack per request. The first request that is answered again ends the outage (Django's
``conn_health_checks`` replaces the dropped connection at its start) and says so once.

The 503 is given by the 500 handler (``armybuilder.errors.server_error``), which every
uncaught exception reaches, whichever middleware or view raised it; :class:`OneLinePerOutage`
(a logging filter on the console handler) turns the first logged outage error into one line
and drops the rest until :class:`OutageMiddleware` sees a page answered again.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

logger = logging.getLogger("armybuilder.outage")


def _outage_errors() -> tuple[type[BaseException], ...]:
    found: list[type[BaseException]] = [OperationalError, InterfaceError]
    try:
        import redis.exceptions
    except ImportError:
        pass
    else:
        found += [redis.exceptions.ConnectionError, redis.exceptions.TimeoutError]
    return tuple(found)


OUTAGES = _outage_errors()
TITLE = "Back in a moment"
MESSAGE = (
    "Muster cannot reach its database just now (a restart or maintenance). Nothing you "
    "saved is lost. Please try again in a moment."
)
_lock = threading.Lock()
_current: str | None = None  # what is away now, in this process; None while all answer


def retry_after() -> int:
    return int(getattr(settings, "MUSTER_RETRY_AFTER_SECONDS", 10))


def is_outage(exc: BaseException | None) -> bool:
    """An error that means a service is away for now, not a bug (psycopg's errors and
    Redis's own arrive wrapped, so their causes are looked at too)."""
    seen = 0
    while exc is not None and seen < 5:
        if isinstance(exc, OUTAGES):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


def begin(exc: BaseException) -> bool:
    """Note an outage; True when it is a new one (it is then to be logged)."""
    global _current
    with _lock:
        new = _current is None
        _current = type(exc).__name__
    return new


def end() -> None:
    global _current
    with _lock:
        was, _current = _current, None
    if was is not None:
        logger.warning("back: pages are answered again after %s", was)


def unavailable(request: HttpRequest) -> HttpResponse:
    """The 503 a player (or the API, or a load balancer) gets during an outage."""
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"error": MESSAGE, "path": ""}, status=503)
    else:
        context = {"status": 503, "title": TITLE, "message": MESSAGE}
        try:  # without the request: its session and user would ask the database again
            body = render_to_string("error.html", context)
        except Exception:
            body = f"<!doctype html><title>{TITLE}</title><h1>{TITLE}</h1><p>{MESSAGE}</p>"
        response = HttpResponse(body, status=503)
    response["Retry-After"] = str(retry_after())
    response["Cache-Control"] = "no-store"
    return response


class OneLinePerOutage(logging.Filter):
    """The first error logged for an outage becomes one line without its stack; the
    others are dropped until the outage ends."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if not is_outage(exc):
            return True
        assert exc is not None
        if not begin(exc):
            return False
        record.msg = "unavailable (503 until it is back): %s: %s"
        record.args = (
            type(exc).__name__,
            str(exc).strip().splitlines()[0][:200] if str(exc) else "",
        )
        record.exc_info = None
        record.exc_text = None
        return True


class OutageMiddleware:
    """Ends an outage at the first response that is not a 503, and puts ``Retry-After``
    on any 503 that has none (a full print queue, a service away)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code == 503:
            response.setdefault("Retry-After", str(retry_after()))
        elif _current is not None and response.status_code < 500:
            end()
        return response
