"""A game on the phone as club connections treat it: the page reloaded without a
connection opens from the copy the device kept, with what the player did offline still
drawn on it; two tabs of one phone send what waited once; quick taps on a slow link land
in order. Each ends with the screen showing what the server holds."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from armybuilder.games.models import Game
from tests.browser.conftest import OFFLINE_LOAD_FAILURES
from tests.browser.game_phones import PHONE, connection, solo_game
from tests.browser.screen import throttle, unthrottle
from tests.browser.test_axe_audit import logged_in_context
from tests.browser.test_game_offline_browser import offers_kept, screen_is_the_server
from tests.browser.test_offline_copies_journeys import kept

pytestmark = [
    pytest.mark.browser,
    pytest.mark.browser_context_args(service_workers="allow"),
    OFFLINE_LOAD_FAILURES,
]

UNITS = [{"name": "Knights", "type": "knights"}, {"name": "Bowmen", "type": "bowmen"}]


@pytest.fixture
def game(db):
    return solo_game("feudal-2017", UNITS, "Normans", "Saxons")


def test_a_game_page_reloaded_offline_opens_from_the_kept_copy_with_what_waits(
    live_server, new_context, game: Game
):
    phone = logged_in_context(new_context, live_server, game.owner, PHONE)
    page: Page = phone.new_page()
    url = f"{live_server.url}/games/{game.pk}/"
    page.goto(url)
    assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
    assert kept(page, url)
    offers_kept(page, game)

    connection(phone, page, on=False)
    page.get_by_role("button", name="Next phase").click()
    expect(page.locator("#where")).to_contain_text("Phase 2")
    expect(page.locator("#where")).to_contain_text("not yet saved")

    page.reload()  # still offline: the device's copy, and the action still waiting on it
    expect(page.locator("#offline-copy")).to_be_visible()
    expect(page.locator("#where")).to_contain_text("Phase 2")
    expect(page.locator("#where")).to_contain_text("not yet saved")
    expect(page.locator("#game-pending")).to_contain_text("Waiting to be sent (1)")
    assert Game.objects.get(pk=game.pk).actions.count() == 0

    connection(phone, page, on=True)
    expect(page.locator("#game-pending")).to_be_hidden()
    game.refresh_from_db()
    assert [action.kind for action in game.actions.all()] == ["next_phase"]
    screen_is_the_server(page, game)  # the page opened from the copy, drawn as the server has it
    page.reload()
    screen_is_the_server(page, game)
    phone.close()


def test_two_tabs_of_one_phone_send_what_waited_once(live_server, new_context, game: Game):
    """Both tabs hold the phone's queue; back online both send it, and each action is
    applied once: the game moves on one phase, and each tab shows where it stands."""
    phone = logged_in_context(new_context, live_server, game.owner, PHONE)
    url = f"{live_server.url}/games/{game.pk}/"
    first, second = phone.new_page(), phone.new_page()
    for tab in (first, second):
        tab.goto(url)
    offers_kept(first, game)
    phone.set_offline(True)
    for tab in (first, second):
        tab.evaluate("window.dispatchEvent(new Event('offline'))")
    first.get_by_role("button", name="Next phase").click()
    expect(first.locator("#where")).to_contain_text("not yet saved")

    phone.set_offline(False)
    for tab in (second, first):  # the other tab hears the connection first
        tab.evaluate("window.dispatchEvent(new Event('online'))")
    expect(first.locator("#game-pending")).to_be_hidden()
    game.refresh_from_db()
    assert [action.kind for action in game.actions.all()] == ["next_phase"]
    screen_is_the_server(first, game)
    screen_is_the_server(second, game)  # it follows the game, without a reload
    phone.close()


def test_quick_taps_on_a_slow_club_link_land_in_order_and_the_screen_is_the_servers(
    live_server, new_context, game: Game
):
    phone = logged_in_context(new_context, live_server, game.owner, PHONE)
    page: Page = phone.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    link = throttle(page, 150, 40)
    for phase in ("Phase 2", "Phase 3", "Phase 4"):
        page.get_by_role("button", name="Next phase").click()
        expect(page.locator("#where")).to_contain_text(phase)  # drawn at once
        page.wait_for_timeout(300)
    expect(page.locator("#game-pending")).to_be_hidden(timeout=20_000)
    game.refresh_from_db()
    assert [action.kind for action in game.actions.all()] == ["next_phase"] * 3
    screen_is_the_server(page, game)
    unthrottle(link)
    phone.close()
