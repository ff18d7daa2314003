"""The installable app: its web app manifest and its service worker.

Both are served from the site root, not /static/, because a service worker controls only
the pages under the path it was served from, and the app's pages start at "/".
"""

from __future__ import annotations

import json

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

WORKER = settings.BASE_DIR / "static" / "js" / "sw.js"
# the page engine's part of the worker, served after it as one script
WORKER_PARTS = (WORKER, settings.BASE_DIR / "static" / "js" / "sw-engine.js")


@require_safe
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: what a browser needs to install Muster as an app."""
    data = {
        "name": "Muster army builder",
        "short_name": "Muster",
        "description": "Army builder and points calculator for Dark Age and Medieval wargames.",
        "start_url": reverse("armies:list"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#f0e6d2",
        "theme_color": "#7a1c1c",
        "icons": [
            {
                "src": static(f"icons/icon-{size}.png"),
                "sizes": f"{size}x{size}",
                "type": "image/png",
            }
            for size in (192, 512)
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json")


def _prefix(url_name: str, *args: object) -> str:
    """The path a family of URLs starts with, e.g. "/s/" for every share link."""
    path = reverse(url_name, args=args)
    return path[: path.index(str(args[0]))] if args else path


@require_safe
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker script; no-cache so a new release's worker is picked up at once.
    The app shell it pre-caches is named here (static URLs carry their hashes in production),
    and the paths it treats apart: the start page, share links, renders, and what is never
    kept (account pages, the admin, the API, render progress)."""
    shell = [
        reverse("catalog:home"),
        static("css/muster.css"),
        static("css/builder.css"),
        static("js/app.js"),
        static("js/builder-ui.js"),
        static("js/changes/main.js"),
        static("js/changes/queue.js"),
        static("js/changes/store.js"),
        static("js/changes/conflicts.js"),
        static("js/changes/fields.js"),
        static("js/changes/redraw.js"),
        static("js/changes/follow.js"),
        static("js/changes/landed.js"),
        static("js/changes/morph.js"),
        static("js/changes/problem.js"),
        static("js/changes/optimistic.js"),
        static("js/changes/layer.js"),
        static("js/changes/kept.js"),
        static("js/changes/keys.js"),
        static("js/changes/pending.js"),
        static("js/changes/exact.js"),
        static("js/list-editor.js"),
        static("js/list-follow.js"),
        static("js/list-try.js"),
        static("js/engine/client.js"),
        static("js/engine/worker.js"),
        static("css/list-editor.css"),
        static("js/vendor/idb-keyval.js"),
        static("js/vendor/idiomorph.js"),
        static("js/htmx-csp.js"),
        static("js/print.js"),
        static("icons/icon-192.png"),
    ]
    prints = _prefix("printing:status", "00000000-0000-0000-0000-000000000000")
    paths = {
        "start": reverse("armies:list"),
        "shared": _prefix("armies:shared", "token"),
        "prints": prints,
        "static": settings.STATIC_URL,
        "worker": reverse("service_worker"),
        "never": ["/accounts/", "/admin/", "/api/", reverse("healthz"), prints],
    }
    header = f"const SHELL = {json.dumps(shell)};\nconst PATHS = {json.dumps(paths)};\n"
    script = "\n".join(part.read_text() for part in WORKER_PARTS)
    return HttpResponse(header + script, content_type="text/javascript")


@require_safe
@cache_control(max_age=86400)
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers ask for on pages that name no icon (a PDF, a print
    preview): the app's icon, rather than a 404 in every such page's log."""
    return redirect(static("icons/icon-192.png"))
