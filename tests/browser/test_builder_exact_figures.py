"""The builder draws exact figures the moment a change is made, offline too: the page's
engine checks the army as the page holds it, and the server's answer, once it comes, says
the same (a difference would be reported on the page, and fails these tests)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Page, expect

import rules
from armybuilder.armies import services
from armybuilder.armies.changes import pipeline
from armybuilder.armies.changes.commands import SetValue
from armybuilder.armies.models import Army
from tests.browser.conftest import OFFLINE_LOAD_FAILURES, engine_ready
from tests.browser.screen import Held, throttle, unthrottle
from tests.support import army, fixture_lists, kept_with_editors, unit_id

TIMEOUT = 10_000

pytestmark = [pytest.mark.browser]

# Into the Dark: levy close unarmoured foot, 2 a figure + command 20 (12 figures: 44)
MILITIA = {"name": "Town Militia", "quality": "levy", "figures": 12}
LONGBOWS = {
    "name": "Longbows",
    "quality": "average",
    "armour": "armoured",
    "training": "missile",
    "missile_weapon": "longbow",
    "figures": 11,
}


def open_army(page: Page, live_server: Any, document: Any, *, offline_copy: bool) -> Army:
    user = User.objects.create_user("player", password="a-long-Pass-123")
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    saved = services.create_army(document, owner=user)
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{live_server.url}/armies/{saved.pk}/")
    expect(page.locator("#army-title")).to_be_visible()
    if offline_copy:
        # the worker controls the page before the connection goes (a card opened offline
        # brings its editor from the copy kept on the device)
        page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
        kept_with_editors(page)
    engine_ready(page)
    # the engine's first drawing of the page as it came: the server's figures, confirmed
    expect(page.locator("html")).to_have_attribute("data-exact-confirmed", str(saved.version))
    return saved


def open_card(page: Page, index: int) -> str:
    ident = unit_id(page, index)
    if page.locator(f"#unit-{ident} details").get_attribute("open") is None:
        page.locator(f"#unit-{ident} summary").click()
    expect(page.locator(f"#u-{ident}-name")).to_be_visible()
    return ident


def points(page: Page, ident: str):
    return page.locator(f"#unit-{ident}-summary .points")


def stat(page: Page, ident: str, label: str):
    return page.locator(f"#unit-{ident}-stats div", has=page.locator(f"dt:text-is('{label}')"))


def report_of(saved: Army) -> rules.Report:
    saved.refresh_from_db()
    return rules.check(rules.parse_document(saved.document, fixture_lists))


def back_online(page: Page) -> None:
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#pending-changes")).to_be_hidden()


def no_mismatch(page: Page) -> None:
    assert page.locator("html").get_attribute("data-engine-mismatch") is None


@OFFLINE_LOAD_FAILURES
@pytest.mark.browser_context_args(service_workers="allow")
@pytest.mark.usefixtures("worker_settled")
def test_offline_an_armour_change_shows_exact_points_and_total_at_once_which_the_server_confirms(
    live_server, page_engine
):
    page: Page = page_engine
    saved = open_army(
        page, live_server, army("into-the-dark", [MILITIA, LONGBOWS]), offline_copy=True
    )
    expect(page.locator("#total-points")).to_have_text("157")
    militia = open_card(page, 0)
    page.context.set_offline(True)
    page.locator(f"#u-{militia}-armour").select_option("armoured")
    # levy armoured: (2 + 2) a figure x 12 + command 20 = 68
    expect(points(page, militia)).to_have_text("68 pts")
    expect(page.locator("#total-points")).to_have_text("181")
    expect(page.locator(f"#unit-{militia}-summary .breakdown")).to_contain_text(
        "12 figures x 4 = 48"
    )
    expect(page.locator(f"#unit-{militia}-summary .item-kind")).to_contain_text("Armoured")
    expect(stat(page, militia, "hit on").locator("dd")).to_have_text("5+")
    expect(page.locator(".estimate-note")).to_have_count(0)
    expect(page.locator("#engine-status")).to_contain_text("worked out exactly on this device")

    back_online(page)
    expect(page.locator("html")).to_have_attribute("data-exact-confirmed", str(saved.version + 1))
    expect(points(page, militia)).to_have_attribute("data-points", "68")
    expect(page.locator("#total-points")).to_have_attribute("data-points", "181")
    found = report_of(saved)
    assert [u.points for u in found.units] == [68, 113] and found.total_points == 181
    no_mismatch(page)


@OFFLINE_LOAD_FAILURES
@pytest.mark.browser_context_args(service_workers="allow")
@pytest.mark.usefixtures("worker_settled")
def test_offline_a_d5_unit_made_determined_shows_18_hits_in_its_card_head_and_stat_line(
    live_server, page_engine
):
    page: Page = page_engine
    units = [{"name": "Hearth", "type": "infantry"}, {"name": "Fyrd", "type": "infantry"}]
    saved = open_army(page, live_server, army("dark-ages-d5", units), offline_copy=True)
    hearth = open_card(page, 0)
    kind = page.locator(f"#unit-{hearth}-summary .item-kind")
    expect(kind).to_contain_text("15 hits")
    page.context.set_offline(True)
    page.locator(f"#u-{hearth}-change").select_option("determined")
    expect(kind).to_contain_text("18 hits")
    expect(kind).not_to_contain_text("15 hits")
    expect(stat(page, hearth, "hits").locator("dd")).to_have_text("18 (Determined)")
    back_online(page)
    expect(page.locator("html")).to_have_attribute("data-exact-confirmed", str(saved.version + 1))
    expect(kind).to_contain_text("18 hits")
    no_mismatch(page)


@OFFLINE_LOAD_FAILURES
@pytest.mark.browser_context_args(service_workers="allow")
@pytest.mark.usefixtures("worker_settled")
def test_offline_a_feudal_unit_made_determined_shows_18_hits_in_its_card_head_and_stat_line(
    live_server, page_engine
):
    page: Page = page_engine
    units = [{"name": "Serjeants", "type": "serjeants"}]
    saved = open_army(page, live_server, army("feudal-2017", units), offline_copy=True)
    serjeants = open_card(page, 0)
    kind = page.locator(f"#unit-{serjeants}-summary .item-kind")
    expect(kind).to_contain_text("15 hits")
    page.context.set_offline(True)
    page.locator(f"#u-{serjeants}-advantage").select_option("determined")
    expect(kind).to_contain_text("18 hits")
    expect(stat(page, serjeants, "hits").locator("dd")).to_contain_text("18")
    back_online(page)
    expect(page.locator("html")).to_have_attribute("data-exact-confirmed", str(saved.version + 1))
    no_mismatch(page)


@OFFLINE_LOAD_FAILURES
@pytest.mark.browser_context_args(service_workers="allow")
@pytest.mark.usefixtures("worker_settled")
def test_offline_an_army_made_illegal_shows_the_badge_and_the_problem_at_once(
    live_server, page_engine
):
    page: Page = page_engine
    document = army("into-the-dark", [MILITIA, LONGBOWS], points_limit=200)
    saved = open_army(page, live_server, document, offline_copy=True)
    expect(page.locator("#verdict .badge")).to_have_text("Legal")
    longbows = open_card(page, 1)
    page.context.set_offline(True)
    page.locator(f"#u-{longbows}-figures").fill("24")  # 24 x 7.5 + 30 = 210: over 200
    expect(page.locator("#verdict .badge")).to_have_text("Illegal")
    expect(page.locator("#army-totals")).to_have_class("panel totals over")
    expect(page.locator("#points-left")).to_contain_text("over the limit")
    expect(page.locator("#issues .issue.error .message")).to_contain_text("the limit is 200")
    back_online(page)
    expect(page.locator("html")).to_have_attribute("data-exact-confirmed", str(saved.version + 1))
    expect(page.locator("#army-totals")).to_have_attribute("data-valid", "false")
    no_mismatch(page)


def test_on_a_slow_link_a_tapped_units_exact_figures_are_on_screen_before_the_server_answers(
    live_server, page_engine
):
    page: Page = page_engine
    document = army("into-the-dark", [MILITIA], army_list="viking")
    saved = open_army(page, live_server, document, offline_copy=False)
    link = throttle(page, 150, 40)
    held = Held(page, "**/operations/")
    try:
        before = page.locator("#total-points").text_content()
        tile = page.locator("#add-unit-panel button[name=preset][data-unit][data-points]").first
        cost = int(tile.get_attribute("data-points"))
        tile.click()
        added = page.locator("#unit-list > li.item[data-optimistic]")
        expect(added).to_have_count(1)
        # worked out on the phone: the cost's steps and the total, the server not asked yet
        expect(added.locator(".breakdown")).not_to_be_empty()
        expect(added.locator(".points")).to_have_text(f"{cost} pts")
        shown = str(int(before) + cost)
        expect(page.locator("#total-points")).to_have_text(shown)
        assert (
            len(held.routes) == 1
            and page.locator("#total-points").get_attribute("data-points") == before
        )
    finally:
        held.let_go()
        unthrottle(link)
    expect(page.locator("#pending-changes")).to_be_hidden()
    expect(page.locator("html")).to_have_attribute("data-exact-confirmed", str(saved.version + 1))
    expect(page.locator("#total-points")).to_have_attribute("data-points", shown)
    no_mismatch(page)


def test_a_change_made_elsewhere_is_in_the_figures_once_the_builder_is_drawn_anew(
    live_server, page_engine
):
    page: Page = page_engine
    document = army("into-the-dark", [MILITIA, LONGBOWS])
    saved = open_army(page, live_server, document, offline_copy=False)
    drawn = saved.version
    militia, longbows = open_card(page, 0), unit_id(page, 1)
    # another device gives the longbows 12 figures (120 points) meanwhile
    pipeline.run(saved, SetValue(longbows, "figures", 12))
    page.locator(f"#u-{militia}-armour").select_option("armoured")  # 68 points
    expect(points(page, militia)).to_have_text("68 pts")
    # the answer follows a version this page never drew: the builder is drawn anew, with the
    # saved document the engine then checks from
    page.wait_for_function(
        "n => JSON.parse(document.getElementById('engine-army').textContent).version === n",
        arg=drawn + 2,
    )
    expect(points(page, longbows)).to_have_text("120 pts")
    expect(page.locator("#total-points")).to_have_text("188")
    expect(page.locator("html")).to_have_attribute("data-exact-confirmed", str(drawn + 2))
    no_mismatch(page)


@OFFLINE_LOAD_FAILURES
@pytest.mark.browser_context_args(service_workers="allow")
@pytest.mark.usefixtures("worker_settled")
def test_an_offline_change_kept_over_an_offline_reload_is_priced_exactly_again(
    live_server, page_engine
):
    page: Page = page_engine
    saved = open_army(
        page, live_server, army("into-the-dark", [MILITIA, LONGBOWS]), offline_copy=True
    )
    # drawn again under the service worker, which keeps the engine's files it serves
    page.reload()
    engine_ready(page)
    page.context.set_offline(True)
    longbows = open_card(page, 1)
    page.locator(f"#u-{longbows}-figures").fill("2")  # 2 x 7.5 + 30 = 45
    page.locator(f"#u-{longbows}-figures").press("Tab")
    expect(points(page, longbows)).to_have_text("45 pts")
    page.on("dialog", lambda dialog: dialog.accept())  # the leave-page question: reload
    page.reload()
    expect(page.locator("#army-title")).to_be_visible()
    engine_ready(page)  # started again from the copy the device keeps
    # the kept page drew the server's figures; the change put back is worked out again
    expect(points(page, longbows)).to_have_text("45 pts")
    expect(page.locator("#total-points")).to_have_text("89")
    back_online(page)
    expect(page.locator("html")).to_have_attribute("data-exact-confirmed", str(saved.version + 1))
    assert [u.points for u in report_of(saved).units] == [44, 45]
    no_mismatch(page)
