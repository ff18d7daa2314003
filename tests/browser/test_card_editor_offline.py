"""A unit's card and its editor, fetched when the card opens: opened offline on a device that
never kept it, the card says when it will open, nothing claims a change was lost, and the
editor comes with the connection; an editor drawn from an older army than the page shows
is fetched again."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from armybuilder.armies.changes import pipeline
from armybuilder.armies.changes.commands import SetValue
from tests.browser.conftest import OFFLINE_LOAD_FAILURES
from tests.browser.test_builder_journeys import make_army, open_builder, sign_in
from tests.support import unit_id

# no service worker (the default): nothing on this device keeps the card's editor
pytestmark = [pytest.mark.browser, OFFLINE_LOAD_FAILURES]


def test_a_card_opened_offline_says_its_editor_comes_with_the_connection(live_server, page: Page):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    page.set_viewport_size({"width": 390, "height": 844})
    open_builder(page, live_server.url, saved)
    unit = unit_id(page, 1)
    page.context.set_offline(True)
    page.locator(f"#unit-{unit} summary").click()
    slot = page.locator(f"#unit-{unit}-editor")
    expect(slot.locator(".editor-offline")).to_have_text(
        "This unit's editor opens when the connection returns."
    )
    # a card that could not be read is not a change that was lost
    expect(page.locator("#request-problem")).to_have_count(0)
    expect(page.locator("#pending-changes")).to_be_hidden()

    page.context.set_offline(False)
    expect(page.locator(f"#u-{unit}-name")).to_be_visible()
    expect(page.locator(f"#unit-{unit} .editor-offline")).to_have_count(0)


def test_an_editor_drawn_before_the_army_the_page_shows_is_fetched_again(live_server, page: Page):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    open_builder(page, live_server.url, saved)
    unit = unit_id(page, 0)
    address = f"{live_server.url}/armies/{saved.pk}/unit/{unit}/editor/"
    drawn_before = page.request.get(address, headers={"HX-Request": "true"}).text()
    # a change saved meanwhile (the one the last page sent as it left), and the page
    # already redrawn to it: its editor, asked for before, arrives drawn from before
    saved.refresh_from_db()
    pipeline.run(saved, SetValue(unit, "name", "Saved as the page left"))
    saved.refresh_from_db()
    page.evaluate(f"document.getElementById('army-version').value = '{saved.version}'")
    asked = []

    def editor(route):
        asked.append(route.request.url)
        if len(asked) == 1:
            route.fulfill(status=200, content_type="text/html", body=drawn_before)
        else:
            route.continue_()

    page.route(address, editor)
    page.locator(f"#unit-{unit} summary").click()
    expect(page.locator(f"#u-{unit}-name")).to_have_value("Saved as the page left")
    assert len(asked) == 2
