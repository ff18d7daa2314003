"""Muster URLs: one include per app."""

from django.contrib import admin
from django.urls import include, path

from armybuilder.ops.health import healthz

urlpatterns = [
    path("", include("armybuilder.catalog.urls")),
    path("api/v1/", include("armybuilder.api.urls")),
    path("", include("armybuilder.printing.urls")),
    path("", include("armybuilder.armies.urls")),
    path("accounts/", include("armybuilder.armies.account_urls")),
    path("admin/", admin.site.urls),
    # production (issue 11): database, cache and queue state for a load balancer or monitor
    path("healthz", healthz, name="healthz"),
]

handler400 = "armybuilder.errors.bad_request"
handler403 = "armybuilder.errors.forbidden"
handler404 = "armybuilder.errors.not_found"
handler500 = "armybuilder.errors.server_error"
