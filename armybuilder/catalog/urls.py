from django.urls import path

from armybuilder.catalog import views

app_name = "catalog"

urlpatterns = [
    path("", views.home, name="home"),
    path("rulesets/<slug:slug>/", views.ruleset_detail, name="ruleset"),
    path("rulesets/<slug:slug>/lists/<slug:list_slug>/", views.army_list_detail, name="army_list"),
]
