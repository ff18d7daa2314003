"""Finding a list across every rule set in a real browser: typing "Irish" on the home page
shows the Irish lists of every rule set as the player types, and on a 390 px phone and a
1280 px desktop nothing runs off the page. Screenshots: test-artifacts/find-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from armybuilder.armies.models import Army
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_builder_journeys import sign_in
from tests.browser.test_pages_browser import horizontal_overflow

pytestmark = pytest.mark.browser

TIMEOUT = 15_000


@pytest.mark.parametrize("width", [390, 1280])
def test_typing_a_name_on_home_finds_that_list_in_every_rule_set(live_server, page: Page, width):
    page.set_default_timeout(TIMEOUT)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(live_server.url + "/")
    page.get_by_label("Find an army list in every rule set").fill("Irish")
    results = page.locator("#find-results")
    for title in ("NT Dark Ages", "Dark Age Wargame Rules (d5)", "Feudal Wargame Rules (2017)"):
        expect(results.get_by_role("heading", name=title, exact=False)).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"find-home-{width}.png"), full_page=True)
    assert horizontal_overflow(page) <= 0
    results.locator("form", has_text="Norse Irish").get_by_role("button").click()
    expect(page.locator("#army-title")).to_have_text("Norse Irish")
    draft = Army.objects.get()
    assert (draft.ruleset, draft.document["army_list"]) == ("feudal-2017", "norse-irish")


@pytest.mark.parametrize("width", [390, 1280])
def test_each_start_page_radio_sits_beside_its_list_name_without_a_bullet(
    live_server, page: Page, width
):
    page.set_default_timeout(TIMEOUT)
    page.set_viewport_size({"width": width, "height": 900})
    sign_in(page.context, live_server)
    page.goto(f"{live_server.url}/armies/new/into-the-dark/")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"start-lists-{width}.png"), full_page=True)
    choices = page.locator("label.choice")
    assert choices.count() > 5
    for n in range(choices.count()):
        radio = choices.nth(n).locator("input[type=radio]").bounding_box()
        name = choices.nth(n).locator("> span").bounding_box()
        # on the name's line, before it: never centred above it
        assert radio["x"] + radio["width"] <= name["x"], choices.nth(n).inner_text()
        assert name["y"] <= radio["y"] + radio["height"] / 2 <= name["y"] + name["height"]
        assert radio["width"] < 40
    bullets = page.locator("ul.list-choices > li").evaluate_all(
        "items => items.map(li => getComputedStyle(li).listStyleType)"
    )
    assert bullets and set(bullets) == {"none"}
    assert horizontal_overflow(page) <= 0
