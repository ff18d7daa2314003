"""Muster URLs: one include per app."""

from django.contrib import admin
from django.urls import include, path

from armybuilder.ops.app_shell import favicon, manifest, service_worker
from armybuilder.ops.health import healthz, healthz_redis, healthz_workers

urlpatterns = [
    path("", include("armybuilder.catalog.urls")),
    path("api/v1/", include("armybuilder.api.urls")),
    path("", include("armybuilder.printing.urls")),
    path("", include("armybuilder.armies.urls")),
    path("", include("armybuilder.events.urls")),
    path("", include("armybuilder.games.urls")),
    path("accounts/", include("armybuilder.accounts.urls")),
    path("admin/", admin.site.urls),
    # production: whether this process serves (a load balancer's), and Redis and the
    # workers for a monitor (armybuilder/ops/health.py)
    path("healthz", healthz, name="healthz"),
    path("healthz/redis", healthz_redis, name="healthz-redis"),
    path("healthz/workers", healthz_workers, name="healthz-workers"),
    # the installable app: served from the root so the worker's scope is the whole site
    path("manifest.webmanifest", manifest, name="manifest"),
    path("sw.js", service_worker, name="service_worker"),
    path("favicon.ico", favicon, name="favicon"),
]

handler400 = "armybuilder.errors.bad_request"
handler403 = "armybuilder.errors.forbidden"
handler404 = "armybuilder.errors.not_found"
handler500 = "armybuilder.errors.server_error"
