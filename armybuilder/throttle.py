"""Rate limits on counters shared by every web process and every node.

Whom a request counts for (``who``): a signed-in player's account, so the 30 or 40 players
of a club behind one address (its wifi) each have their own allowance; a visitor without
an account by the client address (``client_address``), with limits sized for a hall of
such visitors behind one address. Each limit is ``(count, seconds)``, counted in fixed
windows: ``MUSTER_RATE_LIMITS[name]`` per account and ``MUSTER_VISITOR_RATE_LIMITS[name]``
per address (docs/running.md gives each default and why). PDF renders, imports, army and
list creation (new, duplicate, copy) and sign-ups each have a limit; every other POST (an
edit, a share, a delete...) counts against ``write``, so no route that changes anything is
unlimited, whatever its URL name. The log-in lock-out (``armybuilder.accounts.lockout``)
counts in the same store and answers with the same 429.

Most limits hang on URL names (``RULES``) in ``ThrottleMiddleware``, so the views stay as
they are. Two are counted where their cost is, by ``charge``: a PDF when a render is
queued (a sheet already rendered, by Print or ahead of it, is served free: the service
worker's background copy of a roster costs nothing, and no header can claim that), and a
sign-up when an account is about to be made (a form sent back with a mistake is not an
account). ``Refused`` then ends the request with the 429.

The counters live in the cache ``MUSTER_RATE_LIMIT_CACHE`` names: the app's own database
(``armybuilder.accounts.counters``, one atomic statement per count), with or without
Redis, so a Redis that is down or restarts empty forgets no count and no lock-out, and
``make run``'s processes (and several nodes on one database) let exactly the limit through.

A limited request gets 429 with ``Retry-After`` and a page (JSON under /api/) saying when
to try again. If the counters cannot be read the request is refused (503 with
``Retry-After``), never let through unchecked: limits fail closed.
"""

from __future__ import annotations

import functools
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

from armybuilder.limits import DEFAULT_LIMITS, DEFAULT_VISITOR_LIMITS

log = logging.getLogger(__name__)

WHAT = {
    "pdf": "printable sheets",
    "import": "imports",
    "create": "new armies",
    "signup": "sign-ups",
    "signup-day": "sign-ups",
    "login": "log-in attempts",
    "list-create": "new army lists",
    "list-import": "army-list imports",
    "write": "requests",
}
# Methods that change something: a request with one of these that no rule names counts
# against "write".
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})

# URL name -> (limit, methods it counts). Not here, as they count where their cost is
# (``charge``): the sheets of armies, rule sets and games' summaries (when a render is
# queued: a poll or a stored one costs nothing) and sign-ups (when an account is about to be made); their POSTs
# count against ``write`` as well, as every other POST's.
RULES: dict[str, tuple[str, frozenset[str]]] = {
    "armies:import": ("import", frozenset({"POST"})),
    "armies:new": ("create", frozenset({"POST"})),
    "armies:duplicate": ("create", frozenset({"POST"})),
    "armies:copy": ("create", frozenset({"POST"})),
    "games:mine": ("create", frozenset({"POST"})),  # a game started
    "api:list_import": ("list-import", frozenset({"POST"})),
    "api:list_copy": ("list-create", frozenset({"POST"})),
    "catalog:list_new": ("list-create", frozenset({"POST"})),
    "catalog:list_copy": ("list-create", frozenset({"POST"})),
    "catalog:shared_list_copy": ("list-create", frozenset({"POST"})),
    "events:pack": ("pdf", frozenset({"POST"})),  # the flyer counts in its view (polls do not)
}


def counters() -> Any:
    """The cache the counters live in."""
    return caches[getattr(settings, "MUSTER_RATE_LIMIT_CACHE", "default")]


ACCOUNT = "account:"  # how ``who`` names a signed-in player's account


def limit(name: str, visitor: bool = False) -> tuple[int, int]:
    """Limit ``name`` per account, or (``visitor``) per address of visitors."""
    if visitor:
        limits = {**DEFAULT_VISITOR_LIMITS, **getattr(settings, "MUSTER_VISITOR_RATE_LIMITS", {})}
    else:
        limits = {**DEFAULT_LIMITS, **getattr(settings, "MUSTER_RATE_LIMITS", {})}
    count, seconds = limits[name]
    return int(count), int(seconds)


def client_address(request: HttpRequest) -> str:
    """Who the client is: its address (an IPv6 client by its /64, which one host owns).

    Behind a proxy, ``MUSTER_CLIENT_IP_HEADER`` names the META key the proxy sets (e.g.
    ``HTTP_X_REAL_IP``; its last comma-separated value is the one the proxy added). It is
    believed only when the request comes from one of ``MUSTER_TRUSTED_PROXIES`` (addresses
    or networks; loopback by default), and only when it holds an IP address: a client
    that talks to Muster directly cannot choose its address, and a value that is not an
    address is ignored (and logged), never used as a key.
    """
    peer = _ip(request.META.get("REMOTE_ADDR"))
    header = getattr(settings, "MUSTER_CLIENT_IP_HEADER", "")
    sent = request.META.get(header) if header else None
    address = peer
    if sent is not None and peer is not None:
        if not _trusted(peer):
            log.info("client address header from %s ignored: not a trusted proxy", peer)
        else:
            claimed = _ip(str(sent).split(",")[-1])
            if claimed is None:
                log.warning("client address header %r from %s ignored: not an IP address",
                               str(sent)[:64], peer)  # fmt: skip
            else:
                address = claimed
    if address is None:
        return "unknown"
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def _ip(value: object) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(str(value or "").strip())
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped  # ::ffff:10.0.0.1 is 10.0.0.1
    return address


def _trusted(peer: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return any(peer in network for network in _trusted_networks(_trusted_setting()))


def _trusted_setting() -> tuple[str, ...]:
    value = getattr(settings, "MUSTER_TRUSTED_PROXIES", ("127.0.0.1", "::1"))
    if isinstance(value, str):
        value = value.split(",")
    return tuple(v.strip() for v in value if v.strip())


@functools.cache
def _trusted_networks(
    values: tuple[str, ...],
) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    networks = []
    for value in values:
        try:
            networks.append(ipaddress.ip_network(value, strict=False))
        except ValueError:
            log.warning("MUSTER_TRUSTED_PROXIES: %r is not an address or network", value)
    return tuple(networks)


def key(*parts: str) -> str:
    """A fixed-length cache key: the parts hashed (a posted username can be anything)."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8", "replace")).hexdigest()[:32]
    return f"muster:throttle:{parts[0]}:{digest}"


@dataclass(frozen=True)
class Limited:
    """A refusal: which limit, and in how many seconds the client may try again
    (``unavailable``: the counters could not be read, so nothing is let through)."""

    what: str
    retry_after: int
    unavailable: bool = False
    per_account: bool = False


UNAVAILABLE_SECONDS = 30


def unavailable(what: str) -> Limited:
    return Limited(what, UNAVAILABLE_SECONDS, unavailable=True)


def hit(name: str, ident: str, now: float | None = None) -> Limited | None:
    """Count one request against limit ``name`` for ``ident`` (an account from ``who``, else
    an address); a Limited once the window's count is used."""
    per_account = ident.startswith(ACCOUNT)
    count, seconds = limit(name, visitor=not per_account)
    now = time.time() if now is None else now
    window = int(now // seconds)
    counter = key(name, ident, str(window))
    cache = counters()
    try:
        if hasattr(cache, "count"):  # the database counters: one statement
            used = cache.count(counter, timeout=seconds + 1)
        else:
            cache.add(counter, 0, timeout=seconds + 1)
            used = cache.incr(counter)
    except Exception:  # the counters do not answer: refuse, never let it through unchecked
        log.error("rate limit %s not checked: the counters did not answer", name, exc_info=True)
        return unavailable(name)
    if used > count:
        return Limited(name, max(1, math.ceil((window + 1) * seconds - now)), False, per_account)
    return None


class Refused(Exception):
    """A request over a limit counted by its view (``charge``): ``ThrottleMiddleware``
    answers it with the 429 (503 when the counters cannot be read)."""

    def __init__(self, limited: Limited) -> None:
        super().__init__(limited.what)
        self.limited = limited


def check(request: HttpRequest, name: str) -> Limited | None:
    """Count this request against limit ``name`` for whom it counts (``who``)."""
    return hit(name, who(request, name))


def charge(request: HttpRequest, name: str) -> None:
    """Count the work this request is about to do against limit ``name``; ``Refused``
    when over it."""
    limited = check(request, name)
    if limited is not None:
        raise Refused(limited)


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


def refusal_message(limited: Limited) -> str:
    """What a refused request is told: which limit, from whom, and when to try again."""
    what = WHAT.get(limited.what, "requests")
    origin = "from you" if limited.per_account else "from your address"
    if limited.unavailable:
        return (
            "Muster cannot check its limits at the moment, so it cannot take this request. "
            f"{_when(limited.retry_after)}"
        )
    if limited.what == "login":
        return (
            "Too many wrong passwords for this account or from your address. "
            f"{_when(limited.retry_after)}"
        )
    return f"Too many {what} {origin} for now. {_when(limited.retry_after)}"


def too_many(request: HttpRequest, limited: Limited) -> HttpResponse:
    """429 with Retry-After and a message that says when to try again."""
    message = refusal_message(limited)
    status = 503 if limited.unavailable else 429
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"error": message, "path": "", "retry_after": limited.retry_after}, status=status
        )
    else:
        title = "Try again shortly" if limited.unavailable else "Too many requests"
        body = render_to_string(
            "error.html", {"status": status, "title": title, "message": message}, request
        )
        response = HttpResponse(body, status=status)
    response["Retry-After"] = str(limited.retry_after)
    response["Cache-Control"] = "no-store"
    return response


def who(request: HttpRequest, rule: str) -> str:
    """Whom a request counts for: a signed-in player's account, so the players of one club
    behind one address do not share one allowance; a visitor's address. A sign-up is a
    visitor's by nature."""
    user = getattr(request, "user", None)
    if rule not in ("signup", "signup-day") and user is not None and user.is_authenticated:
        return f"{ACCOUNT}{user.pk}"
    return client_address(request)


def rule_for(view_name: str, method: str) -> str | None:
    """The limit a request to ``view_name`` with ``method`` counts against, if any."""
    rule = RULES.get(view_name)
    if rule is not None and method in rule[1]:
        return rule[0]
    return "write" if method in WRITES else None


class RefuseBeforeView:
    """The shell of a middleware that may answer a request in its view's place, before the
    view runs: a subclass says when, in ``refusal``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: Any
    ) -> HttpResponse | None:
        match = request.resolver_match
        return self.refusal(request, match.view_name if match is not None else "")

    def refusal(self, request: HttpRequest, view_name: str) -> HttpResponse | None:
        """The answer instead of the view ``view_name``'s, or None to let it run."""
        raise NotImplementedError


class ThrottleMiddleware(RefuseBeforeView):
    """Applies ``RULES`` (and ``write`` to every other changing request) before the view."""

    def refusal(self, request: HttpRequest, view_name: str) -> HttpResponse | None:
        rule = rule_for(view_name, request.method or "")
        if rule is None:
            return None
        limited = check(request, rule)
        return too_many(request, limited) if limited else None

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """A view's ``charge`` over its limit."""
        return too_many(request, exception.limited) if isinstance(exception, Refused) else None
