"""Players' error pages (armybuilder/errors.py): 404, 403 and 500 in words, never the site's
routes or a stack trace; the API's as JSON."""

import json

from django.test import RequestFactory

from armybuilder import errors
from armybuilder.armies.models import Army


def test_a_missing_page_is_a_players_404_without_the_sites_routes(client, db, settings):
    settings.DEBUG = False
    response = client.get("/armies/999999/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "There is nothing at this address." in html
    assert "URLconf" not in html and "api/v1/" not in html


def test_a_form_posted_without_its_security_token_gets_a_players_403(db, settings):
    from django.test import Client

    settings.DEBUG = False
    response = Client(enforce_csrf_checks=True).post("/armies/new/", {"name": "Host"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "Nothing was saved. Reload the page" in html
    assert "CSRF verification failed" not in html and "<style" not in html
    assert not Army.objects.exists()


def test_a_server_error_is_a_players_500(db):
    request = RequestFactory().get("/armies/1/")
    response = errors.server_error(request)
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()
    api = errors.server_error(RequestFactory().get("/api/v1/check"))
    assert json.loads(api.content)["error"].startswith("The error has been logged")
