from django.urls import path

from armybuilder.api import views

app_name = "api"

urlpatterns = [
    path("check", views.check, name="check"),
    path("rulesets", views.rulesets, name="rulesets"),
    path("rulesets/<slug:slug>", views.ruleset, name="ruleset"),
]
