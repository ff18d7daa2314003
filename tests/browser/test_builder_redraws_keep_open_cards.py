"""Undo, a roll, a new army list and a settings change redraw the builder by morphing the
server's drawing into the page: the builder is the same element before and after (never
drawn whole), the cards the player opened stay open, and the page then shows what a fresh
page of the army shows."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from armybuilder.armies.models import Army
from tests.browser.screen import TIMEOUT, same_as_fresh, settled
from tests.browser.test_builder_journeys import make_army, open_builder, open_card, sign_in
from tests.support import unit_id

pytestmark = pytest.mark.browser

# the page's elements before a redraw, remembered in the page (a morph keeps them)
MARK = """() => {
  window.__before = { builder: document.getElementById("builder"),
                      units: document.getElementById("unit-list") };
}"""
SAME = """() => document.getElementById("builder") === window.__before.builder
  && document.getElementById("unit-list") === window.__before.units"""


def mark(page: Page) -> None:
    page.evaluate(MARK)


def morphed(page: Page) -> bool:
    return page.evaluate(SAME)


def test_undo_keeps_the_open_cards_open_and_puts_the_value_back(
    live_server, page: Page, browser: Browser
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 3)
    open_builder(page, live_server.url, saved)
    open_card(page, 1)  # one card open at a time (the cards are one <details> group)
    name = page.locator(f"#u-{unit_id(page, 1)}-name")
    before = name.input_value()
    name.fill("Renamed before undo")
    name.press("Tab")
    expect(page.locator(f"#u-{unit_id(page, 1)}-name-wrap .field-state")).to_have_text("Saved")
    mark(page)
    page.locator("#undo-button").click()
    expect(name).to_have_value(before, timeout=TIMEOUT)
    settled(page)
    assert morphed(page), "the builder was drawn whole"
    expect(page.locator(f"#unit-{unit_id(page, 1)} details")).to_have_attribute("open", "")
    same_as_fresh(page, browser, live_server, user, saved.pk)


def test_a_roll_is_morphed_into_the_page(live_server, page: Page, browser: Browser):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "feudal-2017", 3)
    open_builder(page, live_server.url, saved)
    before = [unit_id(page, i) for i in range(3)]
    mark(page)
    page.locator("#roll form[data-op=roll] button").click()
    expect(page.locator(f"#unit-{before[0]}")).to_have_count(0, timeout=TIMEOUT)
    settled(page)
    assert morphed(page), "the builder was drawn whole"
    saved.refresh_from_db()
    assert [u["id"] for u in saved.document["units"]] != before
    same_as_fresh(page, browser, live_server, user, saved.pk)


@pytest.mark.parametrize("setting", ["army list", "points limit"])
def test_a_settings_change_keeps_the_open_cards_open(
    live_server, page: Page, browser: Browser, setting: str
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 3)
    open_builder(page, live_server.url, saved)
    open_card(page, 2)
    mark(page)
    if setting == "army list":
        page.locator("#army-list").select_option("")
        expect(page.locator("#army-list-wrap .field-state")).to_have_text("Saved", timeout=TIMEOUT)
    else:
        page.locator("#army-limit").fill("321")
        page.locator("#army-limit").press("Tab")
        expect(page.locator("#points-limit")).to_contain_text("321", timeout=TIMEOUT)
    settled(page)
    saved = Army.objects.get(pk=saved.pk)
    if setting == "army list":
        assert not saved.document.get("army_list")
    else:
        assert saved.document["points_limit"] == 321
    assert morphed(page), "the builder was drawn whole"
    expect(page.locator(f"#unit-{unit_id(page, 2)} details")).to_have_attribute("open", "")
    same_as_fresh(page, browser, live_server, user, saved.pk)
