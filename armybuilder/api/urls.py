from django.urls import include, path

from armybuilder.api import views
from armybuilder.printing import views as printing_views

app_name = "api"

urlpatterns = [
    path("check", views.check, name="check"),
    path("hits", views.hits, name="hits"),
    path("rulesets", views.rulesets, name="rulesets"),
    path("rulesets/<slug:slug>", views.ruleset, name="ruleset"),
    path("roster.pdf", printing_views.api_roster_pdf, name="roster_pdf"),
    path("qrs.pdf", printing_views.api_qrs_pdf, name="qrs_pdf"),
    path("lists/", include("armybuilder.api.lists")),
    path("events/", include("armybuilder.events.api")),
    path("games/", include("armybuilder.games.api")),
    path("openapi.json", views.openapi_json, name="openapi"),
]
