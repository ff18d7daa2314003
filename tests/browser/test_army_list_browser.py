"""The army-list page in a real browser: readable on a desktop and a 390 px phone, and one
click starts an army with the list. Screenshots go to test-artifacts/."""

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from armybuilder.armies.models import Army
from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

TIMEOUT = 10_000
VIEWPORTS = {"desktop": (1280, 800), "phone": (390, 844)}
PAGES = (
    ("into-the-dark", "anglo-danish-1066"),
    ("dark-ages-d5", "sub-roman-british"),
    ("feudal-2017", "north-welsh"),
)


def open_page(new_context: Callable[..., BrowserContext], size: str) -> Page:
    width, height = VIEWPORTS[size]
    context = new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    return page


@pytest.mark.parametrize("size", sorted(VIEWPORTS))
@pytest.mark.parametrize(("ruleset", "slug"), PAGES)
def test_list_page_reads_without_sideways_scrolling(live_server, new_context, ruleset, slug, size):
    page = open_page(new_context, size)
    page.goto(f"{live_server.url}/rulesets/{ruleset}/lists/{slug}/")
    expect(page.get_by_role("heading", level=2, name="Unit types")).to_be_visible()
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{overflow}px of sideways scroll"
    start = page.get_by_role("button", name="Start an army with this list")
    box = start.bounding_box()
    assert box is not None
    assert box["height"] >= 44  # a tap target
    assert box["y"] + box["height"] <= VIEWPORTS[size][1]  # in the first screen
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"army-list-{ruleset}-{slug}-{size}.png"), full_page=True)
    page.context.close()


def test_one_click_starts_an_army_with_the_list(live_server, new_context):
    page = open_page(new_context, "phone")
    page.goto(f"{live_server.url}/rulesets/into-the-dark/lists/norman-1066/")
    page.get_by_role("button", name="Start an army with this list").click()
    page.wait_for_url(f"{live_server.url}/armies/**")
    army = Army.objects.get()
    assert army.document["ruleset"] == "into-the-dark"
    assert army.document["army_list"] == "norman-1066"
    page.context.close()
