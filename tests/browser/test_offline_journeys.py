"""Changes that cannot be lost, a page that stays current, and the app offline, in Chromium.

Offline edits wait on the field, marked, and land by themselves when the connection
returns; a reload straight after typing loses nothing; Back shows the army as it is now;
the app installs (manifest, service worker) and a saved army's page and roster PDF open
with the network off.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from armybuilder.armies import editing
from armybuilder.armies.changes import UNSET
from armybuilder.armies.models import Army
from tests.browser.test_builder_journeys import (
    TIMEOUT,
    document_of,
    make_army,
    open_builder,
    open_card,
    sign_in,
)

pytestmark = pytest.mark.browser


def unit_name(saved: Army) -> str:
    return document_of(saved)["units"][0]["name"]


def rename_elsewhere(saved: Army, name: str) -> None:
    """Another tab or device renames the first unit (through the same edit pipeline)."""
    saved.refresh_from_db()
    editing.change_item_field(saved, "units", 0, "name", {"f.name": name}, UNSET, saved.version)


def test_an_offline_edit_is_marked_not_saved_and_lands_when_the_connection_returns(
    live_server, page: Page
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    open_builder(page, live_server.url, saved)
    open_card(page, 0)
    page.context.set_offline(True)
    page.locator("#u0-name").fill("Offline Jarls")
    page.locator("#u0-name").press("Tab")
    state = page.locator("#u0-name-wrap .field-state")
    expect(state).to_contain_text("Not saved")
    expect(page.locator("#pending-changes")).to_contain_text("1 change not yet saved")
    expect(page.locator("#offline-notice")).to_be_visible()
    assert unit_name(saved) != "Offline Jarls"
    page.context.set_offline(False)
    expect(state).to_have_text("Saved")
    expect(page.locator("#pending-changes")).to_be_hidden()
    expect(page.locator("#unit-0-summary .item-name")).to_have_text("Offline Jarls")
    assert unit_name(saved) == "Offline Jarls"


def test_a_reload_right_after_typing_keeps_the_change(live_server, page: Page):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    open_builder(page, live_server.url, saved)
    open_card(page, 0)
    page.on("dialog", lambda dialog: dialog.accept())  # the leave-page question, if asked
    page.locator("#u0-name").fill("Typed then reloaded")
    page.reload()
    expect(page.locator("#army-title")).to_be_visible()
    open_card(page, 0)
    expect(page.locator("#u0-name")).to_have_value("Typed then reloaded")
    expect(page.locator("#unit-0-summary .item-name")).to_have_text("Typed then reloaded")
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
    expect(page.locator("#unit-0-summary .item-name")).to_have_text("Renamed on the phone")
    # the tab hidden and shown again (the event a browser sends then) after another change
    rename_elsewhere(saved, "Renamed on the tablet")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(page.locator("#unit-0-summary .item-name")).to_have_text("Renamed on the tablet")
    expect(page.locator("#pending-changes")).to_contain_text("Updated from another tab or device")


def test_a_conflict_made_while_offline_comes_back_as_the_two_value_choice(live_server, page: Page):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    open_builder(page, live_server.url, saved)
    open_card(page, 0)
    page.context.set_offline(True)
    page.locator("#u0-name").fill("Named offline")
    page.locator("#u0-name").press("Tab")
    expect(page.locator("#u0-name-wrap .field-state")).to_contain_text("Not saved")
    rename_elsewhere(saved, "Named elsewhere")
    page.context.set_offline(False)
    wrap = page.locator("#u0-name-wrap")
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

    page.context.set_offline(True)
    page.goto(f"{live_server.url}/armies/{saved.pk}/", timeout=TIMEOUT)
    expect(page.locator("#army-title")).to_have_text(saved.name)
    expect(page.locator("#offline-notice")).to_be_visible()
    assert page.evaluate(fetch_pdf, pdf) == [200, "application/pdf"]
