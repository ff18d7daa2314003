"""The answers a fuzzer never meets are in the description too: every POST of the API
refused by its rate limit (429) and by counters that cannot be read (503), the
conditional answers of the GETs with an ETag (304, 412); each is checked against
/api/v1/openapi.json with the same schemathesis checks as the fuzzing test."""

import json

import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core.wsgi import get_wsgi_application
from django.test import Client

from armybuilder import throttle
from tests.support import army
from tests.web.api.fuzz_checks import CHECKS, not_a_server_error

pytestmark = pytest.mark.django_db

schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())
DOC = army("into-the-dark", [{"name": "Knights", "quality": "fanatic", "mounted": True}])
LIST = ("into-the-dark", "anglo-danish-1066")


def posts() -> list[tuple[str, dict, object]]:
    """Every POST operation of the description, with a body it takes."""
    listed = Client().get(f"/api/v1/lists/{LIST[0]}/{LIST[1]}").json()
    bodies = {
        "/api/v1/check": DOC,
        "/api/v1/hits": {
            "ruleset": "into-the-dark",
            "phase": "melee",
            "attacker": {},
            "target": {},
            "numbers": {"figures": 4},
            "die": 5,
        },  # fmt: skip
        "/api/v1/roster.pdf": DOC,
        "/api/v1/qrs.pdf": DOC,
        "/api/v1/lists/": listed,
        "/api/v1/lists/{ruleset}/{slug}/copy": None,
    }
    found = []
    for path, methods in json.loads(Client().get("/api/v1/openapi.json").content)["paths"].items():
        if "post" in methods:
            params = {"ruleset": LIST[0], "slug": LIST[1]} if "{ruleset}" in path else {}
            found.append((path, params, bodies[path]))
    assert {p for p, _, _ in found} == set(bodies)
    return found


# a 503 is a server's answer by definition: here it is the one described, on purpose
DESCRIBED = [check for check in CHECKS if check is not not_a_server_error]


def answered(path: str, params: dict, body, client: Client):
    operation = schema[path]["POST"]
    case = operation.Case(path_parameters=params, body=body, media_type="application/json")
    url = case.formatted_path
    response = client.post(url, json.dumps(body or {}), content_type="application/json")
    case.validate_response(_as_requests(response, url), checks=DESCRIBED)
    return response


def _as_requests(response, url):
    """The test client's answer as the response schemathesis validates."""
    import requests
    from schemathesis.core.transport import Response

    return Response(
        status_code=response.status_code,
        headers={name.lower(): [value] for name, value in response.items()},
        content=response.content,
        request=requests.Request("POST", f"http://testserver{url}").prepare(),
        elapsed=0.0,
        message=response.reason_phrase,
        encoding="utf-8",
        http_version="1.1",
        verify=True,
    )


@pytest.fixture
def player() -> Client:
    client = Client()
    client.force_login(User.objects.create_user("limited"))
    return client


def test_every_post_of_the_api_answers_429_as_described_once_its_limit_is_used(settings, player):
    settings.MUSTER_RATE_LIMITS = {name: (0, 3600) for name in throttle.DEFAULT_LIMITS}
    for path, params, body in posts():
        response = answered(path, params, body, player)
        assert response.status_code == 429, path
        assert int(response["Retry-After"]) > 0


def test_every_post_of_the_api_answers_503_as_described_when_the_limits_cannot_be_checked(
    settings, player
):
    settings.CACHES = {
        **settings.CACHES,
        "broken": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
        },
    }
    settings.MUSTER_RATE_LIMIT_CACHE = "broken"
    for path, params, body in posts():
        response = answered(path, params, body, player)
        assert response.status_code == 503, path
        assert response["Retry-After"] == str(throttle.UNAVAILABLE_SECONDS)


@pytest.mark.parametrize("url", ["/api/v1/openapi.json", f"/api/v1/lists/{LIST[0]}/{LIST[1]}"])
def test_a_get_with_an_etag_answers_304_and_412_as_described(client, url):
    etag = client.get(url)["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    assert client.get(url, headers={"If-Match": '"another"'}).status_code == 412
    described = client.get("/api/v1/openapi.json").json()
    path = "/api/v1/openapi.json" if "openapi" in url else "/api/v1/lists/{ruleset}/{slug}"
    assert {"304", "412"} <= set(described["paths"][path]["get"]["responses"])
