"""Control characters in a URL never reach a view (armybuilder/badinput.py): every route
the resolver serves, with NUL or another control character in place of each parameter,
answers 404, and with one in its query 400, on SQLite and on PostgreSQL alike (where a NUL
handed to the database would be an error, a 500)."""

import re

import pytest
from django.test import Client
from django.utils.regex_helper import normalize

from tests.web.routes import all_routes

CONTROLS = ["%00", "%01", "%0A", "%1F", "%7F", "%C2%80", "%C2%83"]
_PARAM = re.compile(r"<(?:\w+:)?(\w+)>")


def path_with(route, value):
    if "(" in route.route:  # a regex route, written out the way reverse() does
        template, params = max(normalize(route.route), key=lambda found: len(found[1]))
        return template % dict.fromkeys(params, value)
    return _PARAM.sub(value, route.route)


ROUTES_WITH_PARAMS = [r for r in all_routes() if r.params]


@pytest.mark.django_db
@pytest.mark.parametrize("route", ROUTES_WITH_PARAMS, ids=str)
def test_every_route_with_a_control_character_for_a_parameter_is_404(route):
    client = Client(raise_request_exception=False)
    for control in CONTROLS:
        path = path_with(route, f"a{control}b")
        for method in (client.get, client.post):
            response = method(path)
            assert response.status_code == 404, (path, method.__name__, response.status_code)


@pytest.mark.django_db
@pytest.mark.parametrize("route", all_routes(), ids=str)
def test_every_route_with_a_control_character_in_its_query_is_400(route):
    client = Client(raise_request_exception=False)
    path = path_with(route, "1")
    for control in CONTROLS:
        for query in (f"q={control}", f"paper=a4{control}", f"a{control}=1"):
            response = client.get(f"{path}?{query}")
            assert response.status_code == 400, (path, query, response.status_code)


@pytest.mark.django_db
def test_the_addresses_players_hit_with_nul_are_404_or_400_and_name_the_query():
    client = Client(raise_request_exception=False)
    for path in ("/s/%00/", "/s/%00/roster.pdf", "/lists/shared/%00/", "/events/%00/",
                 "/api/v1/events/%00"):  # fmt: skip
        assert client.get(path).status_code == 404, path
    for path in ("/armies/find/?q=%00", "/armies/new/into-the-dark/?q=%00"):
        response = client.get(path)
        assert response.status_code == 400, path
        assert "q: control characters" in response.content.decode()
    # ordinary text in the query still works
    assert client.get("/armies/find/?q=caf%C3%A9").status_code != 400


@pytest.mark.django_db
def test_a_posted_document_with_a_key_given_twice_is_400_naming_the_key(client):
    body = '{"format": "muster.army/1", "ruleset": "into-the-dark", "name": "A", "name": "B"}'
    response = client.post("/api/v1/check", body, content_type="application/json")
    assert response.status_code == 400
    assert "'name' appears twice" in response.json()["error"]
