"""A method the URL's view does not take is a 405 naming those it takes (``Allow``), before
the CSRF check would call it a refused post or a log-in page would be offered
(armybuilder/badinput.py, ``MethodsMiddleware``): ``QUERY``, and any method no one has
heard of, on every route the resolver serves, and POST, PUT and DELETE on a page that only
shows (``/``); under the production settings, as ``make run`` serves them."""

import importlib

import pytest
from django.test import Client

from armybuilder.badinput import UNDECLARED, allowed_methods
from tests.web.routes import all_routes, make_samples, sample_kwargs, signed_in, url_for

pytestmark = [
    pytest.mark.django_db,
    # WhiteNoise, as in production, finds no collected files in a test run
    pytest.mark.filterwarnings("ignore:No directory at"),
]

ROUTES = all_routes()


@pytest.fixture(autouse=True)
def production(settings, monkeypatch):
    """The production settings' middleware and DEBUG off (make run's plain HTTP)."""
    monkeypatch.setenv("DJANGO_SECRET_KEY", "a-test-key-" + "x" * 50)
    monkeypatch.setenv("DJANGO_HTTPS", "0")
    module = importlib.import_module("armybuilder.settings_production")
    settings.MIDDLEWARE = module.MIDDLEWARE
    settings.DEBUG = False
    assert "armybuilder.badinput.MethodsMiddleware" in settings.MIDDLEWARE


@pytest.fixture
def owner():
    return signed_in("owner", is_staff=True, is_superuser=True)  # the admin's routes too


def strict(owner: Client) -> Client:
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.cookies = owner.cookies  # signed in, but no CSRF token: as a script would ask
    return client


@pytest.mark.parametrize("method", ["QUERY", "FROBNICATE"])
def test_every_route_answers_a_method_no_view_takes_with_405_and_allow(owner, method):
    samples = make_samples(owner)
    client = strict(owner)
    wrong = {}
    for route in ROUTES:
        url = url_for(route, sample_kwargs(route, samples))
        response = client.generic(method, url)
        allowed = allowed_methods(route.view) or UNDECLARED
        if response.status_code != 405 or response["Allow"] != ", ".join(allowed):
            wrong[str(route)] = (response.status_code, response.get("Allow"))
    assert wrong == {}


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "QUERY", "OPTIONS"])
def test_the_front_page_answers_anything_but_get_and_head_with_405(owner, method):
    for client in (strict(owner), Client(enforce_csrf_checks=True)):
        response = client.generic(method, "/")
        assert response.status_code == 405, (method, response.status_code)
        assert response["Allow"] == "GET, HEAD"
        assert "answers GET, HEAD only" in response.content.decode()
    assert Client().get("/").status_code == 200


def test_the_api_says_405_in_json_and_a_form_post_is_still_a_csrf_refusal(owner):
    response = Client().generic("QUERY", "/api/v1/rulesets")
    assert response.status_code == 405 and response["Allow"] == "GET, HEAD"
    assert response.json()["error"] == "This address answers GET, HEAD only, not QUERY."
    # a method the view takes goes on to the CSRF check as before
    assert strict(owner).post("/armies/new/", {"name": "x"}).status_code == 403


def test_a_view_declares_its_methods_by_djangos_decorator_or_its_class():
    declared = {str(r): allowed_methods(r.view) for r in ROUTES}
    assert declared["catalog:home (/)"] == ("GET", "HEAD")
    assert declared["api:check (/api/v1/check)"] == ("POST",)
    assert declared["logout (/accounts/logout/)"] == ("POST", "OPTIONS")
    # every page of Muster's own says which methods it takes but the events app's, which
    # take what the admin's take (GET, HEAD, POST); none of them takes QUERY
    silent = sorted(k for k, v in declared.items() if v is None and not k.startswith("admin:"))
    assert all(k.startswith("events:") for k in silent), silent
