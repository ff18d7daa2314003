"""Every open builder follows the army: a change saved on one device shows on another
device's open builder within two seconds, with no tab switch, reload or action there; a
hidden page asks nothing; an unchanged army costs an empty 304."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, Page, expect

from armybuilder.armies.changes import pipeline
from armybuilder.armies.changes.commands import SetValue
from tests.browser.screen import Held, same_as_fresh, settled, sign_in_context, throttle
from tests.browser.test_builder_journeys import (
    document_of,
    make_army,
    open_builder,
    open_card,
    sign_in,
)
from tests.support import unit_id

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

HIDE = """() => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
  document.dispatchEvent(new Event("visibilitychange"));
}"""

SHOW = """() => {
  delete document.hidden;
  delete document.visibilityState;
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_change_saved_on_one_phone_shows_on_the_other_within_two_seconds_by_itself(
    live_server, page: Page, browser: Browser
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 3)
    page.set_viewport_size(PHONE)
    open_builder(page, live_server.url, saved)
    context = sign_in_context(browser, live_server, user, viewport=PHONE)
    try:
        other = context.new_page()
        open_builder(other, live_server.url, saved)
        throttle(other, 100, 200)  # the second phone on the club's wifi
        other.evaluate("window.__sameDocument = true")  # gone if it ever reloads
        asked: list[int] = []
        other.on(
            "response",
            lambda r: asked.append(r.status) if r.url.endswith("/version.json") else None,
        )
        other.wait_for_timeout(2500)
        # nothing changed: asked about every second, answered 304 with no body
        assert len(asked) >= 2 and set(asked[1:]) == {304}, asked

        open_card(page, 1)
        name = page.locator(f"#u-{unit_id(page, 1)}-name")
        name.fill("Changed on phone A")
        name.press("Tab")
        expect(page.locator(f"#u-{unit_id(page, 1)}-name-wrap .field-state")).to_have_text("Saved")
        landed = time.monotonic()
        card = other.locator(f"#unit-{unit_id(other, 1)}-summary .item-name")
        expect(card).to_have_text("Changed on phone A", timeout=2000)
        assert time.monotonic() - landed < 2.0
        assert other.evaluate("window.__sameDocument === true")
        settled(other)
        same_as_fresh(other, browser, live_server, user, saved.pk)
    finally:
        context.close()


def test_a_hidden_builder_asks_nothing_and_asks_at_once_when_shown_again(live_server, page: Page):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    page.set_viewport_size(PHONE)
    open_builder(page, live_server.url, saved)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/version.json") else None)
    page.wait_for_timeout(1500)
    assert asked, "the open builder asks the army's version"
    page.evaluate(HIDE)
    page.wait_for_timeout(300)  # an answer on its way when hidden
    asked.clear()
    page.wait_for_timeout(3000)
    assert asked == []
    page.evaluate(SHOW)
    page.wait_for_timeout(300)
    assert len(asked) == 1


def test_an_edit_to_a_unit_deleted_on_the_other_phone_is_told_where_it_was_typed(
    live_server, page: Page, browser: Browser
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 3)
    page.set_viewport_size(PHONE)
    open_builder(page, live_server.url, saved)
    context = sign_in_context(browser, live_server, user, viewport=PHONE)
    try:
        other = context.new_page()
        open_builder(other, live_server.url, saved)
        throttle(other, 100, 200)
        # phone B has not heard of the delete yet when its player types
        unheard = Held(other, "**/version.json")
        gone = unit_id(other, 1)
        open_card(other, 1)
        open_card(page, 1)
        page.locator(f"#unit-{gone} .item-actions button.danger").click()
        expect(page.locator("#unit-list > li.item")).to_have_count(2)
        settled(page)
        name = other.locator(f"#u-{gone}-name")
        name.fill("Typed on phone B")
        name.press("Tab")
        # the card goes (the server's drawing), the note stays where it was, with the value
        expect(other.locator(f"#unit-{gone}")).to_have_count(0)
        note = other.locator(f"#unit-list #gone-{gone}")
        expect(note).to_contain_text("Not saved")
        expect(note).to_contain_text("Typed on phone B")
        expect(note).to_contain_text("deleted elsewhere")
        expect(other.locator("#unit-list > *").nth(1)).to_have_id(f"gone-{gone}")
        unheard.let_go()
        settled(other)
        other.wait_for_timeout(1500)  # followed a while: the note is still there
        expect(note).to_be_visible()
        note.get_by_role("button", name="Dismiss").click()
        expect(note).to_have_count(0)
        same_as_fresh(other, browser, live_server, user, saved.pk)
        assert [u["name"] for u in document_of(saved)["units"]].count("Typed on phone B") == 0
    finally:
        context.close()


def test_a_change_from_elsewhere_drawn_while_the_player_types_keeps_their_field_and_focus(
    live_server, page: Page, browser: Browser
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 3)
    page.set_viewport_size(PHONE)
    open_builder(page, live_server.url, saved)
    open_card(page, 0)
    name = page.locator(f"#u-{unit_id(page, 0)}-name")
    name.fill("")
    name.press_sequentially("Keeps", delay=80)
    saved.refresh_from_db()
    other = saved.document["units"][2]["id"]
    pipeline.run(saved, SetValue(other, "name", "From the other phone"))
    name.press_sequentially(" typing", delay=250)  # the other change is drawn meanwhile
    expect(page.locator(f"#unit-{other}-summary .item-name")).to_have_text(
        "From the other phone", timeout=2000
    )
    assert page.evaluate("document.activeElement.id") == f"u-{unit_id(page, 0)}-name"
    name.press_sequentially(" on", delay=80)
    expect(name).to_have_value("Keeps typing on")
    expect(page.locator(f"#u-{unit_id(page, 0)}-name-wrap .field-state")).to_have_text("Saved")
    settled(page)
    assert [u["name"] for u in document_of(saved)["units"]][::2] == [
        "Keeps typing on",
        "From the other phone",
    ]
    same_as_fresh(page, browser, live_server, user, saved.pk)


def test_what_undo_said_stays_when_the_follower_draws_the_same_version_after_it(
    live_server, page: Page
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    page.set_viewport_size(PHONE)
    open_builder(page, live_server.url, saved)
    open_card(page, 0)
    name = page.locator(f"#u-{unit_id(page, 0)}-name")
    name.fill("To be undone")
    name.press("Tab")
    expect(page.locator(f"#u-{unit_id(page, 0)}-name-wrap .field-state")).to_have_text("Saved")
    settled(page)
    # the undo is applied on the server but its answer is slow; meanwhile the page's
    # follower sees the version move and asks for a drawing, which comes after the answer
    answers: list = []
    drawings: list = []
    sent: list = []

    def slow_answer(route) -> None:
        # marked before the server is asked: under load the follower can see the undo's
        # version while its answer is still being fetched here, and that drawing is the one
        sent.append(True)
        answers.append((route, route.fetch()))

    def late_drawing(route) -> None:
        if route.request.method == "GET" and sent and not drawings:
            drawings.append(route)
        else:
            route.continue_()

    page.route(f"{live_server.url}/armies/{saved.pk}/undo/", slow_answer)
    page.route(f"{live_server.url}/armies/{saved.pk}/", late_drawing)
    page.locator("#undo-button").click()
    deadline = time.monotonic() + 10
    while not (drawings and answers) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert answers and drawings, "the follower asked for a drawing while the answer was held"
    route, answer = answers[0]
    route.fulfill(response=answer)
    notice = page.locator(".notice.ok-notice")
    expect(notice).to_contain_text("Undone: ")
    drawings[0].continue_()
    settled(page)
    page.wait_for_timeout(300)
    expect(notice).to_contain_text("Undone: ")
    assert document_of(saved)["units"][0]["name"] != "To be undone"
