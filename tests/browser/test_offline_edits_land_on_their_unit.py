"""Offline edits are kept per unit (by its id), and land on the unit they were made on."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from playwright.sync_api import Browser, Page, expect

from armybuilder.armies.models import Revision
from tests.browser.conftest import OFFLINE_LOAD_FAILURES
from tests.browser.screen import under_the_worker
from tests.browser.test_builder_journeys import make_army, open_builder, open_card, sign_in
from tests.support import kept_with_editors, unit_id

pytestmark = [
    pytest.mark.browser,
    pytest.mark.browser_context_args(service_workers="allow"),
    OFFLINE_LOAD_FAILURES,
    pytest.mark.usefixtures("worker_settled"),
]


def exported(browser: Browser, live_server, user) -> dict:
    """The army as a fresh browser of the same player downloads it (export.json)."""
    client = Client()
    client.force_login(user)
    context = browser.new_context()
    cookie = client.cookies["sessionid"].value
    context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])
    try:
        army_pk = user.armies.get().pk
        answer = context.request.get(f"{live_server.url}/armies/{army_pk}/export.json")
        assert answer.ok
        return json.loads(answer.text())
    finally:
        context.close()


def type_offline(page: Page, index: int, figures: str) -> None:
    open_card(page, index)
    box = page.locator(f"#u-{unit_id(page, index)}-figures")
    box.fill(figures)
    box.press("Tab")
    state = page.locator(f"#u-{unit_id(page, index)}-figures-wrap .field-state")
    expect(state).to_contain_text("Not saved")


def test_offline_the_same_field_of_two_units_both_land_on_reconnect_without_a_reload(
    live_server, page: Page, browser: Browser
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 3)
    open_builder(page, live_server.url, saved)
    kept_with_editors(page)  # a card opened offline brings its editor from the worker
    page.context.set_offline(True)
    type_offline(page, 1, "8")
    type_offline(page, 2, "9")
    expect(page.locator("#pending-changes")).to_contain_text("2 changes not yet saved")
    page.context.set_offline(False)
    expect(page.locator("#pending-changes")).to_be_hidden()
    units = exported(browser, live_server, user)["units"]
    assert [u["figures"] for u in units] == [saved.document["units"][0]["figures"], 8, 9]
    assert [u["id"] for u in units] == [u["id"] for u in saved.document["units"]]


def test_an_offline_edit_of_unit_3_kept_over_an_offline_reload_lands_on_unit_3(
    live_server, page: Page, browser: Browser
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 3)
    before = [u["figures"] for u in saved.document["units"]]
    under_the_worker(page, live_server.url, saved.pk)
    page.context.set_offline(True)
    type_offline(page, 2, "7")
    page.on("dialog", lambda dialog: dialog.accept())  # the leave-page question: reload
    page.reload()
    expect(page.locator("#army-title")).to_be_visible()
    open_card(page, 2)
    expect(page.locator(f"#u-{unit_id(page, 2)}-figures")).to_have_value("7")
    open_card(page, 0)
    expect(page.locator(f"#u-{unit_id(page, 0)}-figures")).to_have_value(str(before[0]))
    page.context.set_offline(False)
    expect(page.locator("#pending-changes")).to_be_hidden()
    units = exported(browser, live_server, user)["units"]
    assert [u["figures"] for u in units] == [before[0], before[1], 7]


def test_offline_rename_two_edits_a_delete_and_an_add_over_two_reloads_all_land_once_in_order(
    live_server, page: Page, browser: Browser
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 4)
    ids = [u["id"] for u in saved.document["units"]]
    under_the_worker(page, live_server.url, saved.pk)
    page.context.set_offline(True)
    page.locator("#army-name").fill("Renamed offline")
    page.locator("#army-name").press("Tab")
    type_offline(page, 0, "20")
    type_offline(page, 1, "21")
    open_card(page, 3)
    page.locator(f"#unit-{ids[3]} .item-actions button.danger").click()
    page.get_by_role("button", name="Add unit").click()
    expect(page.locator("#pending-changes")).to_contain_text("5 changes not yet saved")
    page.on("dialog", lambda dialog: dialog.accept())  # the leave-page question: reload
    for _ in range(2):
        page.reload()
        expect(page.locator("#army-title")).to_be_visible()
        expect(page.locator("#pending-changes")).to_contain_text("5 changes not yet saved")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#pending-changes")).to_be_hidden()
    army = exported(browser, live_server, user)
    assert army["name"] == "Renamed offline"
    units = army["units"]
    assert [u["id"] for u in units[:3]] == ids[:3]  # the fourth deleted, once
    assert len(units) == 4 and units[3]["id"] not in ids  # one unit added, once
    assert [u["figures"] for u in units[:2]] == [20, 21]
    assert units[2]["figures"] == saved.document["units"][2]["figures"]
    # in the order they were made, each once: the army's history since it was opened
    made = Revision.objects.filter(army=saved, version__gt=saved.version).order_by("version")
    assert [(r.op, r.target, r.item_id, r.field) for r in made] == [
        ("edit", "army", "", "name"),
        ("edit", "units", ids[0], "figures"),
        ("edit", "units", ids[1], "figures"),
        ("delete", "units", ids[3], ""),
        ("add", "units", units[3]["id"], ""),
    ]
