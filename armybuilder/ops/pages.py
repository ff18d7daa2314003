"""ETag / Last-Modified and a rendered-HTML cache for pages that change only with a version.

``versioned_page(version_of)`` wraps a view (share page, rule-set page, army-list page).
``version_of(**url_kwargs)`` answers with one cheap query: the version parts of what the
page shows (an army's ``version``, a list's ``updated``) and when it last changed, or None
(the view then runs as it is, e.g. for its 404).

The ETag is a digest of those parts plus everything else that shapes the HTML for this
visitor: the code and templates deployed, the host, the signed-in user and session, the
CSRF cookie (every page carries a token masked from it) and htmx's request headers. So a
cached page is only ever served back to the same browser: another visitor has another CSRF
cookie and so another key; a first visit with no CSRF cookie yet is never cached. Pages
with pending flash messages are neither cached nor answered 304.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date

logger = logging.getLogger(__name__)

Version = tuple[tuple[Any, ...], datetime | None]
CACHE_PREFIX = "muster:page:"
_CODE_DIRS = ("templates", "armybuilder", "rules", "static")


@functools.cache
def code_version() -> str:
    """A digest of the deployed templates, code and static files (read once per process)."""
    digest = hashlib.sha256()
    root = Path(settings.BASE_DIR)
    for name in _CODE_DIRS:
        for path in sorted((root / name).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                stat = path.stat()
                digest.update(
                    f"{path.relative_to(root)}:{stat.st_size}:{stat.st_mtime_ns}".encode()
                )
    return digest.hexdigest()[:16]


def _visitor_key(request: HttpRequest, view_name: str, parts: tuple[Any, ...]) -> str | None:
    csrf = request.COOKIES.get(settings.CSRF_COOKIE_NAME)
    if not csrf:
        return None
    user = getattr(request, "user", None)
    session = getattr(request, "session", None)
    text = "|".join(
        str(p)
        for p in (
            view_name,
            request.get_full_path(),
            request.get_host(),
            code_version(),
            getattr(user, "pk", None) if user is not None else None,
            session.session_key if session is not None else None,
            csrf,
            request.headers.get("HX-Request", ""),
            request.headers.get("HX-Target", ""),
            *parts,
        )
    )
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _has_messages(request: HttpRequest) -> bool:
    try:
        return len(messages.get_messages(request)) > 0
    except Exception:  # no message storage on this request
        return False


def _cache_seconds() -> int:
    return int(getattr(settings, "MUSTER_PAGE_CACHE_SECONDS", 600))


def versioned_page(
    version_of: Callable[..., Version | None],
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        view_name = f"{view.__module__}.{view.__qualname__}"

        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method not in ("GET", "HEAD"):
                return view(request, *args, **kwargs)
            version = version_of(*args, **kwargs)
            if version is None:
                return view(request, *args, **kwargs)
            parts, modified = version
            key = _visitor_key(request, view_name, parts)
            if key is None or _has_messages(request):
                return view(request, *args, **kwargs)
            etag = f'"{key}"'
            last_modified = int(modified.timestamp()) if modified else None
            conditional = get_conditional_response(request, etag=etag, last_modified=last_modified)
            if conditional is not None:
                return _headers(conditional, etag, last_modified)
            response = _from_cache(key)
            if response is None:
                response = view(request, *args, **kwargs)
                _store(key, response)
            return _headers(response, etag, last_modified)

        return wrapped

    return decorator


def _from_cache(key: str) -> HttpResponse | None:
    try:
        stored = cache.get(CACHE_PREFIX + key)
    except Exception:  # a cache outage costs a render, never the page
        logger.warning("page cache unavailable", exc_info=True)
        return None
    if not stored:
        return None
    content, content_type = stored
    response = HttpResponse(content, content_type=content_type)
    response["X-Muster-Page-Cache"] = "hit"
    return response


def _store(key: str, response: HttpResponse) -> None:
    if response.status_code != 200 or response.streaming or response.cookies:
        return  # only plain pages; one that sets a cookie (a new CSRF secret) is not reused
    try:
        cache.set(
            CACHE_PREFIX + key,
            (response.content, response.get("Content-Type", "text/html")),
            _cache_seconds(),
        )
    except Exception:
        logger.warning("page cache unavailable", exc_info=True)
    response["X-Muster-Page-Cache"] = "miss"


def _headers(response: HttpResponse, etag: str, last_modified: int | None) -> HttpResponse:
    if response.status_code in (200, 304):
        response["ETag"] = etag
        if last_modified is not None:
            response["Last-Modified"] = http_date(last_modified)
        # the browser keeps the page but asks each time (If-None-Match): 304 when unchanged
        patch_cache_control(response, private=True, no_cache=True)
        patch_vary_headers(response, ("Cookie", "HX-Request"))
    return response


# -- what each page's version is ----------------------------------------------------------


def shared_army_version(token: str, **_: Any) -> Version | None:
    from armybuilder.armies.selectors import live_armies

    # a deleted army has no version: the view answers its 404, never a 304
    row = live_armies().filter(share_token=token).values_list("pk", "version", "updated").first()
    if row is None:
        return None
    pk, version, updated = row
    return (("army", pk, version, updated.isoformat()), updated)


def ruleset_version(slug: str, **_: Any) -> Version | None:
    from django.db.models import Count, Max

    from armybuilder.catalog.models import ArmyList

    found = ArmyList.objects.filter(ruleset=slug).aggregate(n=Count("pk"), last=Max("updated"))
    last = found["last"]
    return (("ruleset", slug, found["n"], last.isoformat() if last else ""), last)


def army_list_version(slug: str, list_slug: str, **_: Any) -> Version | None:
    from armybuilder.catalog.models import ArmyList

    row = ArmyList.objects.filter(ruleset=slug, slug=list_slug).values_list("pk", "updated").first()
    if row is None:
        return None
    pk, updated = row
    return (("list", slug, pk, updated.isoformat()), updated)
