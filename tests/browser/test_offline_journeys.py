"""Changes that cannot be lost, a page that stays current, and the app offline, in Chromium.

Offline edits wait on the field, marked, and land by themselves when the connection
returns; a reload straight after typing loses nothing; Back shows the army as it is now;
the app installs (manifest, service worker) and a saved army's page and roster PDF open
with the network off.
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

import pytest
from playwright.sync_api import Error, Page, expect

from armybuilder.armies.changes import pipeline
from armybuilder.armies.changes.commands import SetValue
from armybuilder.armies.models import Army
from tests.browser.conftest import OFFLINE_LOAD_FAILURES
from tests.browser.test_builder_journeys import (
    TIMEOUT,
    document_of,
    make_army,
    open_builder,
    open_card,
    sign_in,
)
from tests.support import kept_with_editors, unit_id

# the service worker is part of what these journeys prove (no connection, the app shell)
pytestmark = [
    pytest.mark.browser,
    pytest.mark.browser_context_args(service_workers="allow"),
    OFFLINE_LOAD_FAILURES,
    pytest.mark.usefixtures("worker_settled"),
]


def unit_name(saved: Army) -> str:
    return document_of(saved)["units"][0]["name"]


def rename_elsewhere(saved: Army, name: str) -> None:
    """Another tab or device renames the first unit (through the same edit pipeline)."""
    saved.refresh_from_db()
    first = saved.document["units"][0]["id"]
    pipeline.run(saved, SetValue(first, "name", name))


def test_an_offline_edit_is_marked_not_saved_and_lands_when_the_connection_returns(
    live_server, page: Page
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    open_builder(page, live_server.url, saved)
    open_card(page, 0)
    page.context.set_offline(True)
    page.locator(f"#u-{unit_id(page, 0)}-name").fill("Offline Jarls")
    page.locator(f"#u-{unit_id(page, 0)}-name").press("Tab")
    state = page.locator(f"#u-{unit_id(page, 0)}-name-wrap .field-state")
    expect(state).to_contain_text("Not saved")
    expect(page.locator("#pending-changes")).to_contain_text("1 change not yet saved")
    expect(page.locator("#offline-notice")).to_be_visible()
    assert unit_name(saved) != "Offline Jarls"
    page.context.set_offline(False)
    expect(state).to_have_text("Saved")
    expect(page.locator("#pending-changes")).to_be_hidden()
    expect(page.locator(f"#unit-{unit_id(page, 0)}-summary .item-name")).to_have_text(
        "Offline Jarls"
    )
    assert unit_name(saved) == "Offline Jarls"


def test_a_reload_right_after_typing_keeps_the_change(live_server, page: Page):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    open_builder(page, live_server.url, saved)
    open_card(page, 0)
    page.on("dialog", lambda dialog: dialog.accept())  # the leave-page question, if asked
    page.locator(f"#u-{unit_id(page, 0)}-name").fill("Typed then reloaded")
    page.reload()
    expect(page.locator("#army-title")).to_be_visible()
    open_card(page, 0)
    expect(page.locator(f"#u-{unit_id(page, 0)}-name")).to_have_value("Typed then reloaded")
    expect(page.locator(f"#unit-{unit_id(page, 0)}-summary .item-name")).to_have_text(
        "Typed then reloaded"
    )
    expect(page.locator("#pending-changes")).to_be_hidden()
    assert unit_name(saved) == "Typed then reloaded"


def test_back_or_a_tab_shown_again_after_a_change_elsewhere_shows_the_army_as_it_is_now(
    live_server, page: Page
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    open_builder(page, live_server.url, saved)
    page.get_by_role("link", name="History").click()
    expect(page).to_have_url(f"{live_server.url}/armies/{saved.pk}/history/")
    rename_elsewhere(saved, "Renamed on the phone")
    page.go_back()
    expect(page.locator(f"#unit-{unit_id(page, 0)}-summary .item-name")).to_have_text(
        "Renamed on the phone"
    )
    # the tab hidden and shown again (the event a browser sends then) after another change
    open_card(page, 1)  # the player had the other unit open: it stays open, untouched
    page.locator(f"#unit-{unit_id(page, 1)}").evaluate("el => { el.seenBefore = true; }")
    rename_elsewhere(saved, "Renamed on the tablet")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(page.locator(f"#unit-{unit_id(page, 0)}-summary .item-name")).to_have_text(
        "Renamed on the tablet"
    )
    expect(page.locator("#pending-changes")).to_contain_text("Updated from another tab or device")
    # only what changed was redrawn: the other card is the same element, still open
    assert page.locator(f"#unit-{unit_id(page, 1)}").evaluate("el => el.seenBefore === true")
    expect(page.locator(f"#unit-{unit_id(page, 1)} details")).to_have_attribute("open", "")
    expect(page.locator(f"#u-{unit_id(page, 1)}-name")).to_be_visible()


# back online, the edit made offline meets a newer value: refused with 409, which Chromium logs
@pytest.mark.expected_console_errors(
    r"^Failed to load resource: the server responded with a status of 409 \(Conflict\)$"
)
def test_a_conflict_made_while_offline_comes_back_as_the_two_value_choice(live_server, page: Page):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    open_builder(page, live_server.url, saved)
    open_card(page, 0)
    page.context.set_offline(True)
    page.locator(f"#u-{unit_id(page, 0)}-name").fill("Named offline")
    page.locator(f"#u-{unit_id(page, 0)}-name").press("Tab")
    expect(page.locator(f"#u-{unit_id(page, 0)}-name-wrap .field-state")).to_contain_text(
        "Not saved"
    )
    rename_elsewhere(saved, "Named elsewhere")
    page.context.set_offline(False)
    wrap = page.locator(f"#u-{unit_id(page, 0)}-name-wrap")
    expect(wrap.get_by_role("button", name="Keep mine")).to_be_visible()
    expect(wrap.get_by_role("button", name="Use theirs")).to_be_visible()
    assert unit_name(saved) == "Named elsewhere"


def test_the_app_installs_and_a_saved_army_and_its_roster_pdf_open_offline(live_server, page: Page):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    answer = page.request.get(f"{live_server.url}/manifest.webmanifest")
    assert answer.headers["content-type"] == "application/manifest+json"
    manifest: dict[str, Any] = answer.json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/armies/"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        image = page.request.get(f"{live_server.url}{icon['src']}")
        assert image.ok and image.headers["content-type"] == "image/png"

    open_builder(page, live_server.url, saved)
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.active && r.scope)")
    assert scope == f"{live_server.url}/"
    page.reload()  # now under the worker: the page and the PDF pass through it
    expect(page.locator("#army-title")).to_be_visible()
    pdf = f"/armies/{saved.pk}/roster.pdf"
    fetch_pdf = "url => fetch(url).then(r => [r.status, r.headers.get('content-type')])"
    assert page.evaluate(fetch_pdf, pdf) == [200, "application/pdf"]
    kept_with_editors(page)  # the worker keeps the page once every card's editor is in it

    page.context.set_offline(True)
    page.goto(f"{live_server.url}/armies/{saved.pk}/", timeout=TIMEOUT)
    expect(page.locator("#army-title")).to_have_text(saved.name)
    expect(page.locator("#offline-notice")).to_be_visible()
    assert page.evaluate(fetch_pdf, pdf) == [200, "application/pdf"]


def test_adding_and_deleting_offline_wait_in_order_and_land_when_the_connection_returns(
    live_server, page: Page
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)  # Viking list: Hirdmen 1, Bondi 2
    open_builder(page, live_server.url, saved)
    page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
    page.reload()  # under the worker: the page is kept for a reload without a connection
    open_card(page, 0)
    page.context.set_offline(True)
    page.locator("#add-entry-hird").click()
    page.locator(f"#unit-{unit_id(page, 0)} .item-actions button.danger").click()
    count = page.locator("#pending-changes")
    expect(count).to_contain_text("2 changes not yet saved (offline")
    expect(count).to_contain_text("Add Hirdmen")
    expect(count).to_contain_text("Delete Hirdmen 1")
    assert [u["name"] for u in document_of(saved)["units"]] == ["Hirdmen 1", "Bondi 2"]
    # a reload while offline keeps them waiting
    page.reload()
    expect(page.locator("#army-title")).to_be_visible()
    expect(count).to_contain_text("2 changes not yet saved")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(count).to_be_hidden()
    expect(page.locator("#unit-list > li.item")).to_have_count(2)
    expect(page.locator(f"#unit-{unit_id(page, 0)}-summary .item-name")).to_have_text("Bondi 2")
    assert [u["name"] for u in document_of(saved)["units"]] == ["Bondi 2", "Hirdmen"]


# the test cuts the connection before the answer arrives
@pytest.mark.expected_console_errors(r"^Failed to load resource: net::ERR_CONNECTION_RESET$")
def test_an_add_whose_answer_was_lost_is_sent_again_and_lands_once(live_server, page: Page):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    open_builder(page, live_server.url, saved)
    answered = []

    def save_then_lose_the_answer(route):
        if answered:
            route.continue_()
            return
        answered.append(route.fetch().status)  # the server saves the unit...
        route.abort("connectionreset")  # ...and its answer never reaches the page

    page.route(f"**/armies/{saved.pk}/operations/", save_then_lose_the_answer)
    page.locator("#add-entry-hird").click()
    expect(page.locator("#pending-changes")).to_contain_text("Add Hirdmen")
    expect(page.locator("#pending-changes")).to_be_hidden()  # sent again by itself
    expect(page.locator("#unit-list > li.item")).to_have_count(3)
    assert answered == [200]
    assert [u["name"] for u in document_of(saved)["units"]] == ["Hirdmen 1", "Bondi 2", "Hirdmen"]


def test_a_keystroke_replaces_a_save_still_in_flight_and_the_last_value_lands(
    live_server, page: Page
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    open_builder(page, live_server.url, saved)
    open_card(page, 0)
    held = []  # the first save never gets an answer: it stays in flight

    def hold_first(route):
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route(f"**/armies/{saved.pk}/operations/", hold_first)
    try:
        box = page.locator(f"#u-{unit_id(page, 0)}-figures")
        box.fill("2")
        page.wait_for_timeout(300)
        assert len(held) == 1
        box.fill("24")  # without the replacement this save would wait behind the held one
        wrap = page.locator(f"#u-{unit_id(page, 0)}-figures-wrap")
        expect(wrap).to_have_attribute("data-state", "saved")
        expect(wrap.locator(".field-state")).to_have_text("Saved")
        assert document_of(saved)["units"][0]["figures"] == 24
        expect(page.locator("#pending-changes")).to_be_hidden()
    finally:  # nothing left hanging for the page's close
        page.unroute_all(behavior="ignoreErrors")
        for route in held:
            with suppress(Error):
                route.abort()
