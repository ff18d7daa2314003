"""Settings every page answers under: a strict Content-Security-Policy, which the pages
keep (no inline script, style or handler)."""

import re

import pytest

from armybuilder.armies.models import Army, new_share_token
from armybuilder.printing.models import Render
from tests.support import example

INLINE = {
    # a JSON data block (json_script) is data the browser never runs, which CSP allows
    "inline script": re.compile(
        r"<script(?![^>]*\b(?:src=|type=\"application/json\"))[^>]*>", re.I
    ),
    "style attribute": re.compile(r"\sstyle=", re.I),
    "event handler": re.compile(r"\son[a-z]+=", re.I),
    "hx-on": re.compile(r"\s(data-)?hx-on", re.I),
    "style element": re.compile(r"<style", re.I),
}


@pytest.fixture
def saved(db, user):
    document = example("dewitt-medieval-lance-and-bow.json")
    return Army.objects.create(owner=user, document=document, share_token=new_share_token())


def test_every_page_sends_a_strict_content_security_policy(client, db):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


@pytest.mark.parametrize("engine", [False, True], ids=["engine-off", "engine-on"])
def test_pages_carry_no_inline_script_style_or_handler(owner_client, saved, settings, engine):
    from armybuilder.pageengine import runtime_available

    if engine and not runtime_available():
        pytest.fail("the page engine's runtime is not vendored: run `make vendor`")
    settings.MUSTER_PAGE_ENGINE = engine
    token = saved.share_token
    pages = [
        "/",
        "/rulesets/dewitt-medieval/",
        f"/armies/{saved.pk}/",
        f"/s/{token}/",
        f"/armies/{saved.pk}/roster/",
        f"/armies/{saved.pk}/qrs/",
        "/rulesets/feudal-2017/qrs/",
        "/armies/",
    ]
    owner_client.get(f"/armies/{saved.pk}/print/?sheet=roster&paper=letter")
    pages.append(f"/prints/{Render.objects.get().pk}/")  # the progress page
    for url in pages:
        response = owner_client.get(url, follow=True)
        assert response.status_code == 200, url
        if response["Content-Type"].startswith("application/pdf"):
            continue
        html = response.content.decode()
        found = {name for name, pattern in INLINE.items() if pattern.search(html)}
        assert not found, f"{url}: {found}"
        assert ('id="engine-army" type="application/json"' in html) == (
            engine and url == f"/armies/{saved.pk}/"
        ), url
