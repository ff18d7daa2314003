"""A page opened from the device's copy and then reconnected ends on the server's version:
a save that reached the server while its answer was lost with the connection, a reload
offline (the copy from before it), and back online, the page shows what the server has,
nothing waits, and it no longer says it is offline or a copy."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from armybuilder.armies.changes import pipeline
from armybuilder.armies.changes.commands import SetValue
from tests.browser.conftest import OFFLINE_LOAD_FAILURES
from tests.browser.screen import TIMEOUT, same_as_fresh, settled, under_the_worker
from tests.browser.test_builder_journeys import make_army, open_card, sign_in
from tests.support import unit_id

pytestmark = [
    pytest.mark.browser,
    pytest.mark.browser_context_args(service_workers="allow"),
    OFFLINE_LOAD_FAILURES,
    pytest.mark.usefixtures("worker_settled"),
]


def test_a_save_lost_in_flight_then_a_reload_offline_ends_on_the_servers_value_once_back(
    live_server, page: Page, browser: Browser
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 3)
    page.set_viewport_size({"width": 390, "height": 844})
    under_the_worker(page, live_server.url, saved.pk)
    page.on("dialog", lambda dialog: dialog.accept())
    open_card(page, 0)
    box = page.locator(f"#u-{unit_id(page, 0)}-figures")
    before = int(box.input_value())
    held: list = []
    page.context.route(f"**/armies/{saved.pk}/operations/", lambda route: held.append(route))
    box.fill(str(before - 1))
    box.press("Tab")
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(25)
    assert held, "the save was sent"
    # the save reaches the server, and the connection goes before its answer comes back
    held[0].fetch()
    page.context.set_offline(True)
    held[0].abort("internetdisconnected")
    page.context.unroute(f"**/armies/{saved.pk}/operations/")
    saved.refresh_from_db()
    assert saved.document["units"][0]["figures"] == before - 1
    page.reload()  # offline: the device's copy, from before the save
    expect(page.locator("#offline-copy")).to_be_visible(timeout=TIMEOUT)
    page.context.set_offline(False)
    open_card(page, 0)
    expect(page.locator(f"#u-{unit_id(page, 0)}-figures")).to_have_value(
        str(before - 1), timeout=TIMEOUT
    )
    expect(page.locator("#offline-notice")).to_be_hidden()
    expect(page.locator("#offline-copy")).to_be_hidden()
    settled(page)
    expect(page.locator("#pending-changes")).not_to_contain_text("not yet saved")
    saved.refresh_from_db()
    assert saved.document["units"][0]["figures"] == before - 1
    same_as_fresh(page, browser, live_server, user, saved.pk)


def test_a_reload_offline_with_a_save_still_in_flight_ends_on_the_servers_value_once_back(
    live_server, page: Page, browser: Browser
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 3)
    page.set_viewport_size({"width": 390, "height": 844})
    under_the_worker(page, live_server.url, saved.pk)
    page.on("dialog", lambda dialog: dialog.accept())
    open_card(page, 0)
    box = page.locator(f"#u-{unit_id(page, 0)}-figures")
    before = int(box.input_value())
    held: list = []
    page.context.route(f"**/armies/{saved.pk}/operations/", lambda route: held.append(route))
    box.fill(str(before - 1))
    box.press("Tab")
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(25)
    assert held, "the save was sent"
    held[0].fetch()  # it reaches the server; its answer never comes back
    page.context.set_offline(True)
    page.reload()  # offline, the save still in flight: the device's copy, from before it
    page.context.unroute(f"**/armies/{saved.pk}/operations/")
    saved.refresh_from_db()
    assert saved.document["units"][0]["figures"] == before - 1
    expect(page.locator("#offline-copy")).to_be_visible(timeout=TIMEOUT)
    page.context.set_offline(False)
    card = page.locator(f"#unit-{unit_id(page, 0)}-summary")
    expect(page.locator("#offline-notice")).to_be_hidden(timeout=TIMEOUT)
    settled(page)
    expect(page.locator("#pending-changes")).not_to_contain_text("not yet saved")
    open_card(page, 0)
    expect(page.locator(f"#u-{unit_id(page, 0)}-figures")).to_have_value(str(before - 1))
    expect(card).to_be_visible()
    same_as_fresh(page, browser, live_server, user, saved.pk)


def test_a_reconnect_whose_first_drawings_fail_still_ends_on_the_servers_value(
    live_server, page: Page, browser: Browser
):
    """Back online, the first requests for the page still fail (the link comes back
    slowly): the worker answers them with the device's copy, which is never taken for the
    server's drawing; the page asks again until the server answers."""
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 3)
    page.set_viewport_size({"width": 390, "height": 844})
    under_the_worker(page, live_server.url, saved.pk)
    page.on("dialog", lambda dialog: dialog.accept())
    version = page.locator("#army-version").input_value()
    page.context.set_offline(True)
    page.reload()  # offline: the device's copy
    expect(page.locator("#offline-copy")).to_be_visible(timeout=TIMEOUT)
    unit = saved.document["units"][1]["id"]
    saved.refresh_from_db()
    pipeline.run(saved, SetValue(unit, "name", "Renamed while this phone was offline"))
    failed: list[str] = []

    def slow_link(route):  # the worker's first three fetches of the page
        if route.request.service_worker is not None and len(failed) < 3:
            failed.append(route.request.url)
            route.abort("connectionreset")
        else:
            route.continue_()

    page.context.route(f"**/armies/{saved.pk}/", slow_link)
    page.context.set_offline(False)
    expect(page.locator(f"#unit-{unit}-summary .item-name")).to_have_text(
        "Renamed while this phone was offline", timeout=TIMEOUT
    )
    assert len(failed) == 3
    assert page.locator("#army-version").input_value() != version
    expect(page.locator("#offline-notice")).to_be_hidden()
    page.context.unroute(f"**/armies/{saved.pk}/")
    settled(page)
    same_as_fresh(page, browser, live_server, user, saved.pk)


def test_my_armies_opened_from_the_copy_is_loaded_from_the_server_once_back(
    live_server, page: Page
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    under_the_worker(page, live_server.url, saved.pk)
    page.goto(f"{live_server.url}/armies/")  # kept as it passes through the worker
    expect(page.locator(f"#army-{saved.pk}")).to_be_visible()
    page.wait_for_timeout(500)
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#offline-copy")).to_be_visible(timeout=TIMEOUT)
    made = make_army(user, "into-the-dark", 1)  # on another device meanwhile
    page.context.set_offline(False)
    expect(page.locator(f"#army-{made.pk}")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#offline-notice")).to_be_hidden()
    expect(page.locator("html[data-offline-copy]")).to_have_count(0)
