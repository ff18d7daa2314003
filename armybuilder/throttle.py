"""Rate limits and log-in lock-out on Django's cache (Redis when REDIS_URL is set).

Per client address (``client_address``): PDF renders (pages and API), imports, army
creation and sign-ups each have a limit, ``MUSTER_RATE_LIMITS[name] = (count, seconds)``,
counted in fixed windows. Log-in attempts (Muster's and the admin's) lock out with backoff:
after ``MUSTER_LOGIN_LOCKOUT["account_failures"]`` wrong passwords for one account, or
``["address_failures"]`` from one address, that account or address is locked for
``base_seconds``, doubling with every further failure up to ``max_seconds``; a right
password after the lock-out resets the account's count.

A limited request gets 429 with ``Retry-After`` and a page (JSON under /api/) saying when
to try again. The limits hang on URL names (``RULES``) in ``ThrottleMiddleware``, so the
views stay as they are. If the cache is down the request goes through (and is logged):
a broken Redis must not take the site with it.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

log = logging.getLogger(__name__)

DEFAULT_LIMITS: dict[str, tuple[int, int]] = {
    "pdf": (30, 600),  # PDF renders (army, shared, rule-set QRS, API) per 10 minutes
    "import": (30, 3600),  # army files imported per hour
    "create": (60, 3600),  # armies started, duplicated or copied per hour
    "signup": (5, 3600),  # accounts made per hour
}
DEFAULT_LOCKOUT = {
    "account_failures": 5,
    "address_failures": 20,
    "base_seconds": 60,
    "max_seconds": 3600,
    "memory_seconds": 86400,  # how long failures are remembered
}
WHAT = {
    "pdf": "printable sheets",
    "import": "imports",
    "create": "new armies",
    "signup": "sign-ups",
    "login": "log-in attempts",
}

# URL name -> (limit, methods it counts)
RULES: dict[str, tuple[str, frozenset[str]]] = {
    **{
        f"printing:{name}": ("pdf", frozenset({"GET", "HEAD"}))
        for name in (
            "army_roster_pdf",
            "army_qrs_pdf",
            "shared_roster_pdf",
            "shared_qrs_pdf",
            "ruleset_qrs_pdf",
        )
    },
    "api:roster_pdf": ("pdf", frozenset({"POST"})),
    "api:qrs_pdf": ("pdf", frozenset({"POST"})),
    "armies:import": ("import", frozenset({"POST"})),
    "armies:new": ("create", frozenset({"POST"})),
    "armies:duplicate": ("create", frozenset({"POST"})),
    "armies:copy": ("create", frozenset({"POST"})),
    "signup": ("signup", frozenset({"POST"})),
}
LOGIN_VIEWS = frozenset({"login", "admin:login"})


def _cache() -> Any:
    return caches[getattr(settings, "MUSTER_RATE_LIMIT_CACHE", "default")]


def limit(name: str) -> tuple[int, int]:
    limits = {**DEFAULT_LIMITS, **getattr(settings, "MUSTER_RATE_LIMITS", {})}
    count, seconds = limits[name]
    return int(count), int(seconds)


def lockout() -> dict[str, int]:
    return {**DEFAULT_LOCKOUT, **getattr(settings, "MUSTER_LOGIN_LOCKOUT", {})}


def client_address(request: HttpRequest) -> str:
    """Who the client is: its address (an IPv6 client by its /64, which one host owns).

    Behind a proxy, ``MUSTER_CLIENT_IP_HEADER`` names the META key the proxy sets
    (e.g. ``HTTP_X_REAL_IP``); its last comma-separated value is the one the proxy added.
    """
    header = getattr(settings, "MUSTER_CLIENT_IP_HEADER", "")
    raw = str(request.META.get(header, "") if header else "").split(",")[-1].strip()
    raw = raw or str(request.META.get("REMOTE_ADDR", ""))
    try:
        address = ipaddress.ip_address(raw)
    except ValueError:
        return raw[:64] or "unknown"
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def _key(*parts: str) -> str:
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8", "replace")).hexdigest()[:32]
    return f"muster:throttle:{parts[0]}:{digest}"


@dataclass(frozen=True)
class Limited:
    """A refusal: which limit, and in how many seconds the client may try again."""

    what: str
    retry_after: int


def hit(name: str, ident: str, now: float | None = None) -> Limited | None:
    """Count one request against limit ``name``; a Limited once the window's count is used."""
    count, seconds = limit(name)
    now = time.time() if now is None else now
    window = int(now // seconds)
    key = _key(name, ident, str(window))
    cache = _cache()
    try:
        cache.add(key, 0, timeout=seconds + 1)
        used = cache.incr(key)
    except Exception:  # the cache is down: let the request through, and say so
        log.warning("rate limit %s not checked: the cache did not answer", name, exc_info=True)
        return None
    if used > count:
        return Limited(name, max(1, math.ceil((window + 1) * seconds - now)))
    return None


# -- log-in lock-out ---------------------------------------------------------------------------


def _login_idents(request: HttpRequest, username: str | None) -> list[tuple[str, str]]:
    idents = [("address", client_address(request))]
    if username:
        idents.append(("account", username.strip().casefold()))
    return idents


def locked_for(request: HttpRequest, username: str | None, now: float | None = None) -> int:
    """Seconds until this account and this address may try again (0: not locked)."""
    now = time.time() if now is None else now
    try:
        until = [
            _cache().get(_key("lock", kind, ident)) or 0
            for kind, ident in _login_idents(request, username)
        ]
    except Exception:
        log.warning("log-in lock-out not checked: the cache did not answer", exc_info=True)
        return 0
    return max(0, math.ceil(max(until) - now))


def record_failure(request: HttpRequest, username: str | None, now: float | None = None) -> None:
    """One wrong password: count it per account and per address, lock out with backoff."""
    now = time.time() if now is None else now
    rules = lockout()
    cache = _cache()
    try:
        for kind, ident in _login_idents(request, username):
            key = _key("fail", kind, ident)
            cache.add(key, 0, timeout=rules["memory_seconds"])
            failures = cache.incr(key)
            threshold = rules[f"{kind}_failures"]
            if failures >= threshold:
                seconds = min(
                    rules["base_seconds"] * 2 ** (failures - threshold), rules["max_seconds"]
                )
                cache.set(_key("lock", kind, ident), now + seconds, timeout=int(seconds) + 1)
    except Exception:
        log.warning("log-in failure not recorded: the cache did not answer", exc_info=True)


def record_success(request: HttpRequest, username: str | None) -> None:
    """The right password (after any lock-out had passed): the account starts afresh."""
    if not username:
        return
    ident = username.strip().casefold()
    try:
        _cache().delete_many([_key("fail", "account", ident), _key("lock", "account", ident)])
    except Exception:
        log.warning("log-in success not recorded: the cache did not answer", exc_info=True)


def on_login_failed(
    sender: Any, credentials: dict[str, Any], request: Any = None, **kw: Any
) -> None:
    """``user_login_failed`` receiver (Muster's log-in page and the admin's)."""
    if isinstance(request, HttpRequest):
        record_failure(request, str(credentials.get("username") or ""))


def on_logged_in(sender: Any, request: Any = None, user: Any = None, **kw: Any) -> None:
    """``user_logged_in`` receiver."""
    if isinstance(request, HttpRequest) and user is not None:
        record_success(request, user.get_username())


# -- the 429 answer and the middleware ----------------------------------------------------------


def _when(seconds: int) -> str:
    if seconds < 90:
        wait = f"{seconds} seconds"
    elif seconds < 5400:
        wait = f"{math.ceil(seconds / 60)} minutes"
    else:
        wait = f"{math.ceil(seconds / 3600)} hours"
    at = datetime.fromtimestamp(time.time() + seconds, tz=UTC).strftime("%H:%M UTC")
    return f"Please try again in {wait} (after {at})."


def too_many(request: HttpRequest, limited: Limited) -> HttpResponse:
    """429 with Retry-After and a message that says when to try again."""
    what = WHAT.get(limited.what, "requests")
    message = f"Too many {what} from your address for now. {_when(limited.retry_after)}"
    if limited.what == "login":
        message = (
            "Too many wrong passwords for this account or from your address. "
            f"{_when(limited.retry_after)}"
        )
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"error": message, "path": "", "retry_after": limited.retry_after}, status=429
        )
    else:
        body = render_to_string(
            "error.html",
            {"status": 429, "title": "Too many requests", "message": message},
            request,
        )
        response = HttpResponse(body, status=429)
    response["Retry-After"] = str(limited.retry_after)
    response["Cache-Control"] = "no-store"
    return response


class ThrottleMiddleware:
    """Applies ``RULES`` and the log-in lock-out before the view runs."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: Any
    ) -> HttpResponse | None:
        match = request.resolver_match
        name = match.view_name if match is not None else ""
        if name in LOGIN_VIEWS and request.method == "POST":
            seconds = locked_for(request, request.POST.get("username"))
            return too_many(request, Limited("login", seconds)) if seconds else None
        rule = RULES.get(name)
        if rule is None or request.method not in rule[1]:
            return None
        limited = hit(rule[0], client_address(request))
        return too_many(request, limited) if limited else None
