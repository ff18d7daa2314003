"""Log-in lock-out with backoff (Muster's log-in page and the admin's).

After ``MUSTER_LOGIN_LOCKOUT["account_failures"]`` wrong passwords for one account, or
``["address_failures"]`` from one address, that account or address is locked for
``base_seconds``, doubling with every further failure up to ``max_seconds``; a right
password after the lock-out resets the account's count.

An account is counted under ``account_key`` of the posted name, the name Django
authenticates (NFKC) case-folded, so every spelling of one account (``ｐ1``, ``𝐜arol``,
``CAROL``) shares its counter and its lock. The counts live in the rate limits' counter
store (``throttle.counters``: the app's database), shared by every web process and node,
so a Redis outage or restart forgets no failure and no lock. If that store cannot be read,
the log-in is refused (503) rather than let through unchecked.
"""

from __future__ import annotations

import logging
import math
import time
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from armybuilder.accounts.names import account_key
from armybuilder.throttle import (
    Limited,
    RefuseBeforeView,
    client_address,
    counters,
    key,
    too_many,
    unavailable,
)

log = logging.getLogger(__name__)

DEFAULT_LOCKOUT = {
    "account_failures": 5,
    "address_failures": 20,
    "base_seconds": 60,
    "max_seconds": 3600,
    "memory_seconds": 86400,  # how long failures are remembered
}
LOGIN_VIEWS = frozenset({"login", "admin:login"})


def lockout() -> dict[str, int]:
    return {**DEFAULT_LOCKOUT, **getattr(settings, "MUSTER_LOGIN_LOCKOUT", {})}


def _login_idents(request: HttpRequest, username: str | None) -> list[tuple[str, str]]:
    idents = [("address", client_address(request))]
    name = account_key(username or "")
    if name:
        idents.append(("account", name))
    return idents


def locked_for(request: HttpRequest, username: str | None, now: float | None = None) -> int:
    """Seconds until this account and this address may try again (0: not locked).

    Raises whatever the counter store raises when it cannot be read: the caller refuses."""
    now = time.time() if now is None else now
    until = [
        counters().get(key("lock", kind, ident)) or 0
        for kind, ident in _login_idents(request, username)
    ]
    return max(0, math.ceil(max(until) - now))


def record_failure(request: HttpRequest, username: str | None, now: float | None = None) -> None:
    """One wrong password: count it per account and per address, lock out with backoff."""
    now = time.time() if now is None else now
    rules = lockout()
    cache = counters()
    try:
        for kind, ident in _login_idents(request, username):
            failed = key("fail", kind, ident)
            cache.add(failed, 0, timeout=rules["memory_seconds"])
            failures = cache.incr(failed)
            threshold = rules[f"{kind}_failures"]
            if failures >= threshold:
                seconds = min(
                    rules["base_seconds"] * 2 ** (failures - threshold), rules["max_seconds"]
                )
                cache.set(key("lock", kind, ident), now + seconds, timeout=int(seconds) + 1)
    except Exception:
        log.error("log-in failure not recorded: the counters did not answer", exc_info=True)


def record_success(request: HttpRequest, username: str | None) -> None:
    """The right password (after any lock-out had passed): the account starts afresh."""
    name = account_key(username or "")
    if not name:
        return
    try:
        counters().delete_many([key("fail", "account", name), key("lock", "account", name)])
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


class LockOutMiddleware(RefuseBeforeView):
    """Refuses a log-in post (Muster's or the admin's) while its account or address is
    locked, before the view checks the password."""

    def refusal(self, request: HttpRequest, view_name: str) -> HttpResponse | None:
        if view_name not in LOGIN_VIEWS or request.method != "POST":
            return None
        try:
            seconds = locked_for(request, request.POST.get("username"))
        except Exception:  # the lock-out cannot be read: no password is tried unchecked
            log.error("log-in lock-out not checked: the counters did not answer", exc_info=True)
            return too_many(request, unavailable("login"))
        return too_many(request, Limited("login", seconds)) if seconds else None
