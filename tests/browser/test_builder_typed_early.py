"""The builder sends what a player typed before its script came (a slow link, a slow
phone), and nothing else: a page as the server drew it sends no change of its own."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.test_builder_journeys import RULESETS, make_army, open_builder, sign_in

pytestmark = pytest.mark.browser

SCRIPT = "**/changes/main*.js"


def test_the_army_name_typed_before_the_builders_script_came_is_saved(live_server, page: Page):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    held: list[Route] = []
    page.route(SCRIPT, lambda route: held.append(route))
    # the page shows before its script has come: neither "load" nor DOMContentLoaded fires
    page.goto(f"{live_server.url}/armies/{saved.pk}/", wait_until="commit")
    expect(page.locator("#army-title")).to_be_visible()
    page.locator("#army-name").fill("Typed on the bus")
    page.locator("#army-name").press("Tab")
    assert held, "the builder's script was asked for"
    for route in held:
        route.continue_()
    page.unroute(SCRIPT)
    expect(page.locator("#army-version")).to_have_value(str(saved.version + 1))
    saved.refresh_from_db()
    assert saved.name == "Typed on the bus"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_builder_page_as_drawn_sends_no_change(live_server, page: Page, ruleset: str):
    user = sign_in(page.context, live_server)
    saved = make_army(user, ruleset, 4)
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    open_builder(page, live_server.url, saved)
    page.locator("#unit-list > li.item details").first.locator("summary").click()
    page.wait_for_timeout(800)  # long enough for a change sent at start to have left
    page.reload()
    expect(page.locator("#army-title")).to_be_visible()
    page.wait_for_timeout(800)
    assert not [url for url in sent if "/operations/" in url]
    before = saved.version
    saved.refresh_from_db()
    assert saved.version == before
