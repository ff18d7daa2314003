"""A unit's card opened while offline on a device that never kept its editor: the card says
when it will open, nothing claims a change was lost, and the editor comes with the
connection."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

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
