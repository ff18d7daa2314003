"""ETag / Last-Modified and a rendered-HTML cache for pages that change only with a version.

``versioned_page(version_of)`` wraps a view (share page, rule-set page, army-list page).
``version_of(**url_kwargs)``, which lives with its view, answers with a cheap query: the
version parts of everything the page shows (an army's ``version``, the lists it names and
who may read them) and when it last changed, or None (the view then runs as it is, e.g. for
its 404). This module knows none of them: the version decides the ETag and the cache key,
so a page's version must change whenever what the page shows does. Only the ETag decides
a 304: ``Last-Modified`` is sent for information, as a list made private leaves no later
date behind.

The cached HTML lives in the default cache: in Redis when ``REDIS_URL`` is set, shared by
every web process on every host, so a change seen by one node is seen by all at once (the
version is read on every request; the cache only saves the rendering). The key holds the
deployed code's digest (its files' contents, the same on every host running one release).

The cache key is a digest of those parts plus everything else that shapes the HTML for this
visitor: the code and templates deployed, the path and host, the signed-in user and session,
and htmx's request headers. Every page carries a CSRF token (forms, htmx's headers), which
is per browser: the cached HTML holds a placeholder instead (``cached_page_csrf``), and each
response gets the visitor's own token put in, so one rendering serves every visitor in the
same state, a first visit without a cookie included (it gets its cookie as usual). The ETag
adds the visitor's CSRF cookie, so a browser's kept copy always holds its current token.
Pages with pending flash messages are neither cached nor answered 304, and a page whose view
used a real token anyway is not cached.
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
from django.middleware.csrf import get_token
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date

logger = logging.getLogger(__name__)

Version = tuple[tuple[Any, ...], datetime | None]
CACHE_PREFIX = "muster:page:"
_CODE_DIRS = ("templates", "armybuilder", "rules", "static")


@functools.cache
def code_version() -> str:
    """A digest of the deployed templates, code and static files, by content (read once per
    process: a few milliseconds), so hosts running the same release share cached pages."""
    digest = hashlib.sha256()
    root = Path(settings.BASE_DIR)
    for name in _CODE_DIRS:
        for path in sorted((root / name).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(f"{path.relative_to(root)}\0".encode())
                digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def _visitor_key(request: HttpRequest, view_name: str, parts: tuple[Any, ...]) -> str:
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
            request.headers.get("HX-Request", ""),
            request.headers.get("HX-Target", ""),
            *parts,
        )
    )
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _etag(key: str, request: HttpRequest) -> str:
    """The page's version for this browser: its kept copy holds a token of its CSRF cookie."""
    csrf = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    return '"' + hashlib.sha256(f"{key}|{csrf}".encode()).hexdigest()[:32] + '"'


@functools.cache
def _placeholder() -> str:
    """What a cached page holds where the CSRF token goes: letters and digits like a token,
    derived from the secret key so that no text a player typed can contain it."""
    digest = hashlib.sha256(f"muster-csrf-placeholder|{settings.SECRET_KEY}".encode())
    return "csrfplaceholder" + digest.hexdigest()[:49]


def cached_page_csrf(request: HttpRequest) -> dict[str, Any]:
    """Context processor: while a versioned page renders for the cache, ``csrf_token`` is
    the placeholder (Django's own processor gives it for every other rendering)."""
    if getattr(request, "_muster_page_placeholder", False):
        return {"csrf_token": _placeholder()}
    return {}


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
            if _has_messages(request):
                return view(request, *args, **kwargs)
            key = _visitor_key(request, view_name, parts)
            etag = _etag(key, request)
            last_modified = int(modified.timestamp()) if modified else None
            # the ETag alone: a date cannot tell that a list was made private
            conditional = get_conditional_response(request, etag=etag)
            if conditional is not None:
                return _headers(conditional, etag, last_modified)
            response = _from_cache(key)
            if response is None:
                response = _render_for_cache(request, view, args, kwargs)
                _store(key, response)
            return _headers(_with_token(request, response), etag, last_modified)

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


def _render_for_cache(
    request: HttpRequest, view: Callable[..., HttpResponse], args: Any, kwargs: Any
) -> HttpResponse:
    """The view's response with the placeholder where the CSRF token goes. A view that
    asked for a real token anyway (it set the CSRF cookie's flag) is marked not to store."""
    used_before = request.META.pop("CSRF_COOKIE_NEEDS_UPDATE", None)
    request._muster_page_placeholder = True  # type: ignore[attr-defined]
    try:
        response = view(request, *args, **kwargs)
    finally:
        request._muster_page_placeholder = False  # type: ignore[attr-defined]
    if request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
        response._muster_real_token = True  # type: ignore[attr-defined]
    elif used_before is not None:
        request.META["CSRF_COOKIE_NEEDS_UPDATE"] = used_before
    return response


def _with_token(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """The visitor's own CSRF token where the page holds the placeholder (and so its cookie)."""
    if response.streaming:
        return response
    placeholder = _placeholder().encode()
    if placeholder in response.content:
        response.content = response.content.replace(placeholder, get_token(request).encode())
    return response


def _store(key: str, response: HttpResponse) -> None:
    if (
        response.status_code != 200
        or response.streaming
        or response.cookies
        or getattr(response, "_muster_real_token", False)
    ):
        return  # only plain pages, never one that holds a visitor's own token or cookie
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
