"""Offline, a unit's points and the army's total follow a figures change at once, marked as
an estimate; a change the page cannot price says "points when back online"; back online,
the server's figures replace the estimate and equal it."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Page, expect

import rules
from armybuilder.armies import services
from armybuilder.armies.models import Army
from tests.support import DEWITT_ARCHER, DEWITT_KNIGHT, army, kept_with_editors, unit_id

TIMEOUT = 10_000

pytestmark = [
    pytest.mark.browser,
    pytest.mark.browser_context_args(service_workers="allow"),
    pytest.mark.usefixtures("worker_settled"),
    # offline on purpose: loads fail, and htmx logs each save it could not send
    pytest.mark.expected_console_errors(
        r"^Failed to load resource: net::ERR_(FAILED|INTERNET_DISCONNECTED)$",
        r"^Failed to load resource: the server responded with a status of 503 \(\)$",
        r"^htmx:(sendError|afterRequest), \[object HTML\w*Element\]$",
    ),
]

# Into the Dark: levy close unarmoured foot, 2 a figure + command 20 (12 figures: 44); average
# armoured longbows, (3 + 2) x 1.5 = 7.5 a figure + command 30 (11 figures: 112.5, so 113)
MILITIA = {"name": "Town Militia", "quality": "levy", "figures": 12}
LONGBOWS = {
    "name": "Longbows",
    "quality": "average",
    "armour": "armoured",
    "training": "missile",
    "missile_weapon": "longbow",
    "figures": 11,
}


def open_army(page: Page, live_server: Any, document: Any = None) -> tuple[User, Army]:
    user = User.objects.create_user("player", password="a-long-Pass-123")
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    document = document or army("into-the-dark", [MILITIA, LONGBOWS])
    saved = services.create_army(document, owner=user)
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{live_server.url}/armies/{saved.pk}/")
    expect(page.locator("#army-title")).to_be_visible()
    # the worker controls the page before the connection goes (its static files are kept)
    page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
    kept_with_editors(page)  # a card opened offline brings its editor from the worker
    return user, saved


def open_card(page: Page, index: int) -> str:
    """The card's id, its editor open."""
    ident = unit_id(page, index)
    if page.locator(f"#unit-{ident} details").get_attribute("open") is None:
        page.locator(f"#unit-{ident} summary").click()
    expect(page.locator(f"#u-{ident}-name")).to_be_visible()
    return ident


def points(page: Page, ident: str):
    return page.locator(f"#unit-{ident}-summary .points")


def server_points(saved: Army) -> tuple[list[int | None], int | None]:
    """Each unit's points and the total as the engine gives them for the stored army."""
    saved.refresh_from_db()
    report = rules.check(rules.parse_document(saved.document))
    return [u.points for u in report.units], report.total_points


def test_offline_figures_move_the_points_at_once_as_an_estimate_the_server_then_confirms(
    live_server, page: Page
):
    _user, saved = open_army(page, live_server)
    total = page.locator("#total-points")
    expect(total).to_have_text("157")
    militia, longbows = unit_id(page, 0), open_card(page, 1)
    page.context.set_offline(True)

    # a name costs nothing: the points stay the server's, unmarked
    page.locator(f"#u-{longbows}-name").fill("Yeomen")
    expect(page.locator(f"#u-{longbows}-name-wrap .field-state")).to_contain_text("Not saved")
    expect(page.locator(".estimate-note")).to_have_count(0)

    box = page.locator(f"#u-{longbows}-figures")
    box.fill("12")  # 12 x 7.5 + 30 = 120
    expect(points(page, longbows)).to_have_text("120 pts offline estimate")
    expect(points(page, longbows).locator(".estimate-note")).to_be_visible()
    expect(total).to_have_text("164")
    expect(page.locator("#army-totals .total-line")).to_contain_text("164 points offline estimate")
    box.fill("13")  # 97.5 + 30 = 127.5, rounded up once
    expect(points(page, longbows)).to_have_text("128 pts offline estimate")
    expect(total).to_have_text("172")
    box.press("Tab")
    expect(page.locator(f"#u-{longbows}-figures-wrap .field-state")).to_contain_text("Not saved")

    # the quality costs, and the page does not price it: no number, and the total neither
    open_card(page, 0)
    page.locator(f"#u-{militia}-quality").select_option("elite")
    expect(points(page, militia)).to_have_text("points when back online")
    expect(page.locator("#army-totals .total-line")).to_contain_text("points when back online")
    expect(total).not_to_have_text("172")
    expect(points(page, longbows)).to_have_text("128 pts offline estimate")

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#pending-changes")).to_be_hidden()
    expect(page.locator(".estimate-note")).to_have_count(0)
    # elite close unarmoured foot: 4 a figure x 12 + command 40 = 88
    expect(points(page, militia)).to_have_text("88 pts")
    expect(points(page, longbows)).to_have_text("128 pts")
    expect(total).to_have_text("216")
    assert server_points(saved) == ([88, 128], 216)


def test_two_units_estimated_offline_add_up_in_the_total_and_land_as_estimated(
    live_server, page: Page
):
    _user, saved = open_army(page, live_server)
    militia, longbows = open_card(page, 0), unit_id(page, 1)
    page.context.set_offline(True)
    page.locator(f"#u-{militia}-figures").fill("20")  # 40 + 20 = 60
    open_card(page, 1)
    page.locator(f"#u-{longbows}-figures").fill("1")  # 7.5 + 30 = 37.5, so 38
    expect(page.locator("#total-points")).to_have_text("98")
    expect(points(page, militia)).to_have_text("60 pts offline estimate")
    expect(points(page, longbows)).to_have_text("38 pts offline estimate")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#pending-changes")).to_be_hidden()
    expect(page.locator(".estimate-note")).to_have_count(0)
    expect(points(page, militia)).to_have_text("60 pts")
    expect(points(page, longbows)).to_have_text("38 pts")
    expect(page.locator("#total-points")).to_have_text("98")
    assert server_points(saved) == ([60, 38], 98)


def test_an_offline_figures_change_kept_over_an_offline_reload_is_still_shown_as_an_estimate(
    live_server, page: Page
):
    _user, saved = open_army(page, live_server)
    page.reload()  # under the worker: the page is kept for a reload without a connection
    expect(page.locator("#army-title")).to_be_visible()
    page.context.set_offline(True)
    longbows = open_card(page, 1)
    page.locator(f"#u-{longbows}-figures").fill("2")  # 15 + 30 = 45
    page.locator(f"#u-{longbows}-figures").press("Tab")
    expect(points(page, longbows)).to_have_text("45 pts offline estimate")
    page.on("dialog", lambda dialog: dialog.accept())  # the leave-page question: reload
    page.reload()
    expect(page.locator("#army-title")).to_be_visible()
    # the kept page drew the server's figures; the change put back is priced again
    expect(points(page, longbows)).to_have_text("45 pts offline estimate")
    expect(page.locator("#total-points")).to_have_text("89")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#pending-changes")).to_be_hidden()
    expect(page.locator(".estimate-note")).to_have_count(0)
    expect(points(page, longbows)).to_have_text("45 pts")
    assert server_points(saved) == ([44, 45], 89)


def test_dewitt_stands_are_estimated_offline_and_figures_per_stand_wait_for_the_server(
    live_server, page: Page
):
    # heavy cavalry with lance and shield: 14 a figure, 3 to a stand, C-in-C 100 (2 stands:
    # 184); light foot with longbow: 6 a figure (6 stands of 3: 108)
    units = [{**DEWITT_KNIGHT, "command": "c_in_c"}, DEWITT_ARCHER]
    _user, saved = open_army(page, live_server, army("dewitt-medieval", units))
    expect(page.locator("#total-points")).to_have_text("292")
    knights = open_card(page, 0)
    page.context.set_offline(True)
    page.locator(f"#u-{knights}-stands").fill("3")  # 126 + 100
    expect(points(page, knights)).to_have_text("226 pts offline estimate")
    expect(page.locator(f"#unit-{knights}-summary .item-size")).to_have_text("3 stands")
    expect(page.locator("#total-points")).to_have_text("334")
    page.locator(f"#u-{knights}-figures-per-stand").select_option("2")
    expect(points(page, knights)).to_have_text("points when back online")
    expect(page.locator("#army-totals .total-line")).to_contain_text("points when back online")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#pending-changes")).to_be_hidden()
    expect(page.locator(".estimate-note")).to_have_count(0)
    expect(points(page, knights)).to_have_text("184 pts")  # 3 stands of 2: 84 + 100
    expect(page.locator("#total-points")).to_have_text("292")
    assert server_points(saved) == ([184, 108], 292)


def test_a_unit_duplicated_offline_adds_its_points_to_the_estimate_the_server_then_confirms(
    live_server, page: Page
):
    _user, saved = open_army(page, live_server)
    militia = open_card(page, 0)
    page.context.set_offline(True)
    page.locator(f"#unit-{militia} .item-actions").get_by_role("button", name="Duplicate").click()
    expect(page.locator("#pending-changes")).to_contain_text("1 change not yet saved")
    expect(page.locator("#army-totals .total-line")).to_contain_text("201 points offline estimate")
    expect(page.locator("#total-points")).to_have_text("201")  # 44 + 44 + 113
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#pending-changes")).to_be_hidden()
    expect(page.locator(".estimate-note")).to_have_count(0)
    expect(page.locator("#total-points")).to_have_text("201")
    assert server_points(saved) == ([44, 44, 113], 201)
