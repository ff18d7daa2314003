"""HEAD answers like GET: the same status and headers, no body, never 405 where GET is
served. Every route of the API and every share page (armies and lists) is tried, signed in
as the sample objects' owner, with the sample values of ``tests/web/routes.py``."""

import pytest

from tests.web.routes import all_routes, make_samples, sample_kwargs, signed_in, url_for

pytestmark = pytest.mark.django_db

# the share pages: a shared army, its JSON, its sheets and copy page, a shared list (whose
# copy is a POST only: HEAD is refused there as GET is)
SHARE_PAGES = {
    "armies:shared",
    "armies:shared_json",
    "armies:copy",
    "printing:shared_roster",
    "printing:shared_qrs",
    "printing:shared_roster_pdf",
    "printing:shared_qrs_pdf",
    "catalog:shared_list",
    "catalog:shared_list_copy",
}


def tried() -> list:
    return [
        r
        for r in all_routes()
        if r.key in SHARE_PAGES or r.namespace == "api" or r.route.startswith("/api/")
    ]


@pytest.fixture(autouse=True)
def _renders_wait_in_the_queue(settings):
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}


def test_the_routes_tried_include_the_api_and_every_share_page():
    keys = {r.key for r in tried()}
    assert keys >= SHARE_PAGES
    assert {"api:rulesets", "api:ruleset", "api:list", "api:openapi", "printing:api_status"} <= keys


def test_head_answers_like_get_on_the_api_and_the_share_pages():
    owner = signed_in("owner")
    samples = make_samples(owner)
    served = set()
    for route in tried():
        url = url_for(route, sample_kwargs(route, samples))
        get = owner.get(url)
        if get.status_code == 405:
            continue  # a POST-only route: HEAD is refused as GET is
        head = owner.head(url)
        assert head.status_code == get.status_code, (route.key, get.status_code, head.status_code)
        assert head.content == b"", route.key
        assert head.get("Content-Type") == get.get("Content-Type"), route.key
        served.add(route.key)
    assert served >= SHARE_PAGES - {"catalog:shared_list_copy"}
    assert served >= {"api:rulesets", "api:ruleset", "api:list", "api:openapi"}
