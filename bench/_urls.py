"""The project's URLs plus a minimal view: the floor every edit is compared against."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from armybuilder.urls import urlpatterns as project_urlpatterns


def floor(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


urlpatterns = [path("bench/floor/", floor), *project_urlpatterns]
