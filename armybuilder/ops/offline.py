"""What a browser may keep of a player's pages: HTTP caching of private pages, and whose
pages the service worker's offline copies are.

``OfflineCopiesMiddleware`` does both, in one place, so that no view has to remember it:

- Private pages (everything under ``/armies/`` — a player's own armies and drafts, the
  builder, history, ``export.json`` — and the account pages under ``/accounts/``) answer
  ``Cache-Control: private, no-store``: no HTTP cache, shared or the browser's own, keeps
  them. The service worker's Cache API copies are the app's own decision (``static/js/sw.js``).
- Every page (not the JSON API) answers ``X-Muster-Offline-Owner``: an opaque key of whoever the page was made
  for (an account, or a visitor's session). The service worker keeps one cache per key and
  empties the others as soon as a page made for someone else arrives, so the offline copies
  on a device are only ever the signed-in player's own.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.crypto import salted_hmac

OWNER_HEADER = "X-Muster-Offline-Owner"
PRIVATE_PREFIXES = ("/armies/", "/accounts/")
_SALT = "muster.offline-copies"


def offline_owner(request: HttpRequest) -> str:
    """``u-…`` for a signed-in account, ``v-…`` for a visitor's session (``v-`` before the
    visitor has one). A keyed digest: it names nobody outside this site."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return "u-" + salted_hmac(_SALT, f"user:{user.pk}", algorithm="sha256").hexdigest()[:24]
    session = getattr(request, "session", None)
    key = session.session_key if session is not None else None
    return "v-" + (
        salted_hmac(_SALT, f"session:{key}", algorithm="sha256").hexdigest()[:24] if key else ""
    )


def is_private(path: str) -> bool:
    return path.startswith(PRIVATE_PREFIXES)


class OfflineCopiesMiddleware:
    """``Cache-Control: private, no-store`` on private pages; the offline owner on all."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if is_private(request.path_info):
            # max-age or public set by a view would contradict no-store: private wins
            if "max-age" in response.get("Cache-Control", ""):
                del response["Cache-Control"]
            patch_cache_control(response, private=True, no_store=True)
        # the API's answers are never kept offline and some are public: no owner, no Vary
        if not request.path_info.startswith("/api/") and not response.has_header(OWNER_HEADER):
            response[OWNER_HEADER] = offline_owner(request)
            patch_vary_headers(response, ("Cookie",))
        return response
