"""Leaving asks only when something is really unsent; another tab's change shows at once."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_builder_journeys import (
    TIMEOUT,
    document_of,
    make_army,
    open_builder,
    open_card,
    sign_in,
    wait_saved,
)
from tests.support import unit_id

pytestmark = pytest.mark.browser


# offline on purpose: the edit's request fails to load, and htmx logs that it could not send
@pytest.mark.expected_console_errors(
    r"^Failed to load resource: net::ERR_INTERNET_DISCONNECTED$",
    r"^htmx:(sendError|afterRequest), \[object HTMLSpanElement\]$",
)
def test_leaving_after_every_edit_is_saved_asks_nothing_and_with_an_unsent_edit_it_asks(
    live_server, page: Page
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    open_builder(page, live_server.url, saved)
    open_card(page, 0)
    asked: list[str] = []

    def answer(dialog):
        asked.append(dialog.type)
        dialog.dismiss()  # stay on the page

    page.on("dialog", answer)
    name = f"#u-{unit_id(page, 0)}-name"
    page.locator(name).fill("Saved before leaving")
    wait_saved(page, name, "Saved before leaving")
    expect(page.locator(f"{name}-wrap .field-state")).to_have_text("Saved")
    page.get_by_role("link", name="History").click()  # the field's change event, then away
    expect(page).to_have_url(f"{live_server.url}/armies/{saved.pk}/history/")
    assert asked == []
    assert document_of(saved)["units"][0]["name"] == "Saved before leaving"

    open_builder(page, live_server.url, saved)
    open_card(page, 0)
    page.context.set_offline(True)
    page.locator(name).fill("Not sent yet")
    expect(page.locator(f"{name}-wrap .field-state")).to_contain_text("Not saved")
    page.get_by_role("link", name="History").click()
    # the question keeps the player on the builder, the change still waiting
    expect(page.locator(f"{name}-wrap .field-state")).to_contain_text("Not saved")
    assert asked == ["beforeunload"]
    assert page.url == f"{live_server.url}/armies/{saved.pk}/"
    # back online the waiting change goes by itself; the journey ends once it has landed
    # (a save still in flight would meet the test database being emptied for the next test)
    page.context.set_offline(False)
    expect(page.locator(f"{name}-wrap .field-state")).to_have_text("Saved")
    assert document_of(saved)["units"][0]["name"] == "Not sent yet"


def test_a_change_in_one_tab_shows_in_the_other_within_a_second_without_a_reload(
    live_server, page: Page
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 3)
    open_builder(page, live_server.url, saved)
    other = page.context.new_page()
    open_builder(other, live_server.url, saved)
    other.evaluate("window.__sameDocument = true")  # gone if the tab ever reloads
    open_card(page, 1)
    name = f"#u-{unit_id(page, 1)}-name"
    page.locator(name).fill("Changed in tab A")
    wait_saved(page, name, "Changed in tab A")
    card = other.locator(f"#unit-{unit_id(other, 1)}-summary .item-name")
    expect(card).to_have_text("Changed in tab A", timeout=1000)
    assert other.evaluate("window.__sameDocument === true")
    expect(other.locator(f"#unit-{unit_id(other, 0)}-summary .item-name")).not_to_have_text(
        "Changed in tab A", timeout=TIMEOUT
    )
