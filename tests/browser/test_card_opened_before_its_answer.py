"""A unit added before the connection carries it is drawn at once, and a player may open
its card then: when the server's answer lands, the open card becomes the server's, with the
unit's editor, never the placeholder it showed while it waited."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import OFFLINE_LOAD_FAILURES
from tests.browser.screen import Held, under_the_worker
from tests.browser.test_builder_journeys import TIMEOUT, make_army, sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.browser_context_args(service_workers="allow"),
    OFFLINE_LOAD_FAILURES,
    pytest.mark.usefixtures("worker_settled"),
]


def test_a_card_opened_while_its_unit_waits_gets_the_units_editor_when_the_answer_lands(
    live_server, page: Page
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    under_the_worker(page, live_server.url, saved.pk)
    page.context.set_offline(True)
    page.locator("#add-entry-hird").click()
    waiting = page.locator("#unit-list > li.item[data-optimistic]")
    expect(waiting).to_have_count(1)
    ident = (waiting.get_attribute("id") or "").removeprefix("unit-")
    waiting.locator("summary").click()
    expect(waiting.locator(".card-editor")).to_contain_text("once it is saved")

    page.context.set_offline(False)
    card = page.locator(f"#unit-{ident}")
    expect(card).not_to_have_attribute("data-optimistic", "1", timeout=TIMEOUT)
    expect(card.locator("details")).to_have_attribute("open", "")
    expect(page.locator(f"#u-{ident}-name")).to_be_visible(timeout=TIMEOUT)
    expect(card.locator(".card-editor")).not_to_contain_text("once it is saved")
    saved.refresh_from_db()
    assert ident in [unit["id"] for unit in saved.document["units"]]


def test_a_card_opened_while_an_add_waits_stays_open_when_the_add_lands(live_server, page: Page):
    """On a slow link the player adds a unit and goes on to another card: the add's answer
    does not close that card to open the new one."""
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    under_the_worker(page, live_server.url, saved.pk)
    # the add's request waits until the player has opened another card
    add = Held(page, f"**/armies/{saved.pk}/operations/")
    page.locator("#add-entry-hird").click()
    added = page.locator("#unit-list > li.item[data-optimistic]")
    expect(added).to_have_count(1)
    ident = (added.get_attribute("id") or "").removeprefix("unit-")
    other = saved.document["units"][0]["id"]
    page.locator(f"#unit-{other} summary").click()
    expect(page.locator(f"#u-{other}-name")).to_be_visible()

    add.let_go()
    expect(page.locator(f"#unit-{ident}")).not_to_have_attribute("data-optimistic", "1")
    expect(page.locator("#pending-changes")).to_be_hidden(timeout=TIMEOUT)
    expect(page.locator(f"#unit-{other} details")).to_have_attribute("open", "")
    expect(page.locator(f"#unit-{ident} details")).not_to_have_attribute("open", "")
    expect(page.locator(f"#u-{other}-name")).to_be_visible()
    saved.refresh_from_db()
    assert ident in [unit["id"] for unit in saved.document["units"]]
    page.unroute_all(behavior="ignoreErrors")
