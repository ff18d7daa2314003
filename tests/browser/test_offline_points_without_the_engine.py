"""Where the page's engine is not there (turned off, not ready yet), nothing in the page
prices a change: offline, a card or total a change has moved shows no number but says
"points when back online"; back online, the server's figures come."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Page, expect

import rules
from armybuilder.armies import services
from armybuilder.armies.models import Army
from tests.support import army, kept_with_editors, unit_id

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

# Into the Dark: levy close unarmoured foot (12 figures: 44); average armoured longbows
# (11 figures: 113)
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


def test_without_the_engine_an_offline_change_shows_no_number_until_the_server_prices_it(
    live_server, page: Page
):
    _user, saved = open_army(page, live_server)
    total = page.locator("#total-points")
    expect(total).to_have_text("157")
    militia, longbows = unit_id(page, 0), open_card(page, 1)
    page.context.set_offline(True)
    box = page.locator(f"#u-{longbows}-figures")
    box.fill("12")
    box.press("Tab")
    expect(page.locator(f"#u-{longbows}-figures-wrap .field-state")).to_contain_text("Not saved")
    expect(points(page, longbows)).to_have_text("points when back online")
    expect(page.locator("#army-totals .total-line")).to_contain_text("points when back online")
    expect(total).to_have_text("—")
    # a card no change moved keeps the server's points
    expect(points(page, militia)).to_have_text("44 pts")
    expect(page.get_by_text("offline estimate")).to_have_count(0)

    back_online(page)
    expect(points(page, longbows)).to_have_text("120 pts")  # 12 x 7.5 + 30
    expect(total).to_have_text("164")
    assert server_points(saved) == ([44, 120], 164)


def test_without_the_engine_a_unit_duplicated_offline_leaves_the_total_to_the_server(
    live_server, page: Page
):
    _user, saved = open_army(page, live_server)
    militia = open_card(page, 0)
    page.context.set_offline(True)
    page.locator(f"#unit-{militia} .item-actions").get_by_role("button", name="Duplicate").click()
    expect(page.locator("#pending-changes")).to_contain_text("1 change not yet saved")
    expect(page.locator("#army-totals .total-line")).to_contain_text("points when back online")
    expect(page.locator("#total-points")).to_have_text("—")
    back_online(page)
    expect(page.locator("#total-points")).to_have_text("201")  # 44 + 44 + 113
    assert server_points(saved) == ([44, 44, 113], 201)


def back_online(page: Page) -> None:
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#pending-changes")).to_be_hidden()
    expect(page.locator(".estimate-note")).to_have_count(0)
