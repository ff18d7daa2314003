"""Offline and back: the device's copy is the newest it saw, a reconnect shows every change
made elsewhere meanwhile (with the conflict marked on its card), and what the page shows
then is what a fresh page of the army shows."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from armybuilder.armies.changes import pipeline
from armybuilder.armies.changes.commands import Add, SetValue
from tests.browser.conftest import ARTIFACTS, OFFLINE_LOAD_FAILURES
from tests.browser.screen import TIMEOUT, same_as_fresh, settled, under_the_worker
from tests.browser.test_builder_journeys import make_army, open_builder, open_card, sign_in
from tests.support import unit_id

pytestmark = [
    pytest.mark.browser,
    pytest.mark.browser_context_args(service_workers="allow"),
    OFFLINE_LOAD_FAILURES,
    pytest.mark.usefixtures("worker_settled"),
]


@pytest.fixture
def kept(live_server, page: Page):
    """A player's army of three units, its builder page under the service worker: the
    device that goes offline; the tests play the other device with ``pipeline.run``."""
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 3)
    under_the_worker(page, live_server.url, saved.pk)
    return user, saved


def figures(page: Page, index: int):
    return page.locator(f"#u-{unit_id(page, index)}-figures")


def test_a_reload_offline_just_after_a_saved_edit_shows_it_and_editing_it_raises_no_conflict(
    live_server, page: Page, browser: Browser, kept
):
    user, saved = kept
    open_card(page, 0)
    box = figures(page, 0)
    before = box.input_value()
    changed = str(int(before) - 2)
    box.fill(changed)
    box.press("Tab")
    expect(page.locator(f"#u-{unit_id(page, 0)}-figures-wrap .field-state")).to_have_text("Saved")
    version = page.locator("#army-version").input_value()
    # the device's copy caught up with the answer (the worker says which version it keeps)
    expect(page.locator(f"html[data-kept-version='{version}']")).to_have_count(1)
    page.context.set_offline(True)
    page.on("dialog", lambda dialog: dialog.accept())
    page.reload()
    open_card(page, 0)
    expect(figures(page, 0)).to_have_value(changed)
    again = str(int(changed) - 1)
    figures(page, 0).fill(again)
    figures(page, 0).press("Tab")
    state = page.locator(f"#u-{unit_id(page, 0)}-figures-wrap .field-state")
    expect(state).to_contain_text("Not saved")
    page.context.set_offline(False)
    expect(state).to_have_text("Saved")
    expect(page.locator("[data-field].conflicted")).to_have_count(0)
    settled(page)
    saved.refresh_from_db()
    assert saved.document["units"][0]["figures"] == int(again)
    same_as_fresh(page, browser, live_server, user, saved.pk)


def test_a_reconnect_draws_what_another_device_changed_and_added_and_marks_the_conflict(
    live_server, page: Page, browser: Browser, kept
):
    user, saved = kept
    open_card(page, 1)
    page.context.set_offline(True)
    figures(page, 1).fill("8")
    figures(page, 1).press("Tab")
    expect(page.locator("#pending-changes")).to_contain_text("1 change not yet saved")
    # the other device: Bravo's figures, Charlie's name, a new unit
    bravo, charlie = (saved.document["units"][i]["id"] for i in (1, 2))
    saved.refresh_from_db()
    pipeline.run(saved, SetValue(bravo, "figures", 9))
    saved.refresh_from_db()
    pipeline.run(saved, SetValue(charlie, "name", "Charlie from B"))
    saved.refresh_from_db()
    pipeline.run(saved, Add("units", "blank", "fromdevb", saved.version))
    page.locator(f"#unit-{bravo} summary").click()  # the player closes Bravo's card
    page.context.set_offline(False)
    expect(page.locator("#unit-list > li.item")).to_have_count(4, timeout=TIMEOUT)
    expect(page.locator(f"#unit-{charlie}-summary .item-name")).to_have_text("Charlie from B")
    expect(page.locator("#unit-fromdevb")).to_be_visible()
    # the conflict is marked on Bravo's closed card
    expect(page.locator(f"#unit-{bravo} .conflict-mark")).to_be_visible()
    expect(page.locator(f"#unit-{bravo} [data-field='figures'].conflicted")).to_have_count(1)
    settled(page)
    points = page.locator("#unit-list .item-summary .points").evaluate_all(
        # the points each card shows (an estimate of the player's value marked so)
        "els => els.reduce((sum, el) => sum + parseInt(el.textContent, 10), 0)"
    )
    assert str(points) == page.locator("#total-points").inner_text(), [
        " ".join(t.split()) for t in page.locator("#unit-list .item-summary").all_inner_texts()
    ]
    # the choice made, the page is the saved army
    page.locator(f"#unit-{bravo} summary").click()
    page.locator(f"#unit-{bravo} [data-conflict='theirs']").click()
    same_as_fresh(page, browser, live_server, user, saved.pk)


def test_after_a_reload_of_my_own_changes_the_page_does_not_say_another_device_changed_it(
    live_server, page: Page, browser: Browser
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 3)
    open_builder(page, live_server.url, saved)
    page.on("dialog", lambda dialog: dialog.accept())
    open_card(page, 2)
    page.locator(f"#u-{unit_id(page, 2)}-name").fill("Typed then reloaded")
    page.wait_for_timeout(40)
    page.reload()
    expect(page.locator(f"#unit-{unit_id(page, 2)}-summary .item-name")).to_have_text(
        "Typed then reloaded"
    )
    # the page asks for the army's version at once and a second later: both answered
    page.wait_for_timeout(1500)
    settled(page)
    expect(page.locator("#pending-changes")).not_to_contain_text("another tab")
    same_as_fresh(page, browser, live_server, user, saved.pk)


def test_an_offline_rename_shows_the_new_name_in_the_heading(
    live_server, page: Page, browser: Browser, kept
):
    user, saved = kept
    page.context.set_offline(True)
    page.locator("#army-name").fill("Renamed offline")
    page.locator("#army-name").press("Tab")
    expect(page.locator("#army-title")).to_have_text("Renamed offline")
    page.context.set_offline(False)
    settled(page)
    expect(page.locator("#army-title")).to_have_text("Renamed offline")
    same_as_fresh(page, browser, live_server, user, saved.pk)


def test_a_reload_offline_at_once_after_a_saved_edit_changes_it_from_the_saved_value(
    live_server, page: Page, browser: Browser, kept
):
    """Offline the moment the edit is saved, whether or not the device's copy caught up:
    the field shows the saved value and the next offline edit is no conflict with it."""
    user, saved = kept
    open_card(page, 0)
    box = figures(page, 0)
    changed = str(int(box.input_value()) - 2)
    box.fill(changed)
    box.press("Tab")
    expect(page.locator(f"#u-{unit_id(page, 0)}-figures-wrap .field-state")).to_have_text("Saved")
    page.context.set_offline(True)
    page.on("dialog", lambda dialog: dialog.accept())
    page.reload()
    open_card(page, 0)
    expect(figures(page, 0)).to_have_value(changed)
    again = str(int(changed) + 3)
    figures(page, 0).fill(again)
    figures(page, 0).press("Tab")
    state = page.locator(f"#u-{unit_id(page, 0)}-figures-wrap .field-state")
    expect(state).to_contain_text("Not saved")
    page.context.set_offline(False)
    expect(state).to_have_text("Saved")
    expect(page.locator("[data-field].conflicted")).to_have_count(0)
    settled(page)
    saved.refresh_from_db()
    assert saved.document["units"][0]["figures"] == int(again)
    same_as_fresh(page, browser, live_server, user, saved.pk)


def test_a_reload_before_choosing_still_offers_the_conflict_with_my_value(
    live_server, page: Page, browser: Browser, kept
):
    user, saved = kept
    open_card(page, 1)
    page.context.set_offline(True)
    figures(page, 1).fill("8")
    figures(page, 1).press("Tab")
    expect(page.locator("#pending-changes")).to_contain_text("1 change not yet saved")
    bravo = saved.document["units"][1]["id"]
    saved.refresh_from_db()
    pipeline.run(saved, SetValue(bravo, "figures", 9))
    page.context.set_offline(False)
    wrap = page.locator(f"#unit-{bravo} [data-field='figures']")
    expect(wrap).to_have_class(re.compile(r"\bconflicted\b"), timeout=TIMEOUT)
    settled(page)
    page.reload()
    # after the reload: my value, the other device's, and the choice are still there
    expect(page.locator(f"#unit-{bravo} .conflict-mark")).to_be_visible(timeout=TIMEOUT)
    page.locator(f"#unit-{bravo} summary").click()
    expect(wrap).to_have_class(re.compile(r"\bconflicted\b"))
    expect(wrap).to_contain_text("Changed somewhere else to 9")
    expect(figures(page, 1)).to_have_value("8")
    page.locator(f"#unit-{bravo} [data-conflict='mine']").click()
    expect(wrap.locator(".field-state")).to_have_text("Saved", timeout=TIMEOUT)
    settled(page)
    saved.refresh_from_db()
    assert saved.document["units"][1]["figures"] == 8
    # chosen, the conflict is not offered again
    page.reload()
    page.locator(f"#unit-{bravo} summary").click()
    expect(figures(page, 1)).to_have_value("8")
    expect(page.locator("[data-field].conflicted")).to_have_count(0)
    same_as_fresh(page, browser, live_server, user, saved.pk)


def test_an_undo_is_in_the_devices_copy_at_once_and_a_reload_offline_shows_it(
    live_server, page: Page, browser: Browser, kept
):
    """Undo is not an operation of the queue: its answer is the builder drawn again. The
    device's copy must follow it as it follows an answer (not seconds later, once changes
    settle), or a reload offline just after shows the change Undo took back."""
    user, saved = kept
    open_card(page, 0)
    box = figures(page, 0)
    before = box.input_value()
    box.fill(str(int(before) - 2))
    box.press("Tab")
    expect(page.locator(f"#u-{unit_id(page, 0)}-figures-wrap .field-state")).to_have_text("Saved")
    version = int(page.locator("#army-version").input_value())
    expect(page.locator(f"html[data-kept-version='{version}']")).to_have_count(1)
    page.evaluate(
        """() => {
          window.toWorker = [];
          const worker = navigator.serviceWorker.controller;
          const post = worker.postMessage.bind(worker);
          worker.postMessage = (message) => { window.toWorker.push(message.type); post(message); };
        }"""
    )
    page.locator("#undo-button").click()
    expect(page.locator("#army-version")).to_have_value(str(version + 1))
    expect(box).to_have_value(before)
    assert "landed" in page.evaluate("window.toWorker"), "the device's copy is told at once"
    expect(page.locator(f"html[data-kept-version='{version + 1}']")).to_have_count(1)
    page.context.set_offline(True)
    page.reload()
    open_card(page, 0)
    expect(figures(page, 0)).to_have_value(before)
    expect(page.locator("#army-version")).to_have_value(str(version + 1))
    page.context.set_offline(False)
    settled(page)
    same_as_fresh(page, browser, live_server, user, saved.pk)


def test_a_copy_older_than_what_the_device_saw_saved_says_so_until_it_is_drawn_anew(
    live_server, page: Page, kept
):
    """The device's copy is taken again a moment after each answer; when the connection
    goes first, a reload offline draws the older copy. The player is told that changes
    saved since are missing from it, and the note goes once the page shows them."""
    user, saved = kept
    version = int(page.locator("#army-version").input_value())  # the copy kept of it
    refreshed = []

    def no_copy_taken(route):  # the worker's own fetch of the page: the link dropped
        if route.request.service_worker is not None:
            refreshed.append(route.request.url)
            route.abort("connectionreset")
        else:
            route.continue_()

    page.context.route(f"**/armies/{saved.pk}/", no_copy_taken)
    page.locator("#add-entry-bondi").click()
    expect(page.locator("#army-version")).to_have_value(str(version + 1))
    expect(page.locator("#pending-changes")).to_be_hidden()
    for _ in range(100):
        if refreshed:
            break
        page.wait_for_timeout(50)
    assert refreshed, "the worker asked for the page again"
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#army-version")).to_have_value(str(version))
    expect(page.locator("#offline-copy")).to_be_visible()
    expect(page.locator("#copy-older")).to_contain_text(
        "older than what this device saw saved: the changes saved since show when"
    )
    page.set_viewport_size({"width": 390, "height": 844})
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "offline-copy-older.png"))
    page.context.unroute(f"**/armies/{saved.pk}/")
    page.context.set_offline(False)
    expect(page.locator("#army-version")).to_have_value(str(version + 1))
    expect(page.locator("#copy-older")).to_have_count(0)
    expect(page.locator("#unit-list > li.item")).to_have_count(4)
