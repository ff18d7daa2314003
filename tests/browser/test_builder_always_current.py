"""The builder always shows the army as the server has it now, and keeps what was typed:
Back to the builder, and a reload straight after a change, show the latest values (unit
cards too) and the change typed just before lands, once."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from armybuilder.armies.changes import pipeline
from armybuilder.armies.changes.commands import SetValue
from armybuilder.armies.models import Army
from tests.browser.test_builder_journeys import (
    document_of,
    make_army,
    open_builder,
    open_card,
    sign_in,
)
from tests.support import unit_id

pytestmark = pytest.mark.browser


def rename_elsewhere(saved: Army, index: int, name: str) -> None:
    """Another device renames a unit (through the same edit pipeline)."""
    saved.refresh_from_db()
    unit = saved.document["units"][index]["id"]
    pipeline.run(saved, SetValue(unit, "name", name))


def names(saved: Army) -> list[str]:
    return [u["name"] for u in document_of(saved)["units"]]


def test_back_to_the_builder_shows_a_change_made_elsewhere_and_the_change_typed_before_leaving_lands(
    live_server, page: Page
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 3)
    open_builder(page, live_server.url, saved)
    page.on("dialog", lambda dialog: dialog.accept())  # the leave-page question, if asked
    open_card(page, 1)
    page.locator(f"#u-{unit_id(page, 1)}-name").fill("Typed before leaving")
    page.get_by_role("link", name="History").click()
    expect(page).to_have_url(f"{live_server.url}/armies/{saved.pk}/history/")
    rename_elsewhere(saved, 0, "Renamed on the phone")
    page.go_back()
    expect(page.locator(f"#unit-{unit_id(page, 0)}-summary .item-name")).to_have_text(
        "Renamed on the phone"
    )
    expect(page.locator(f"#unit-{unit_id(page, 1)}-summary .item-name")).to_have_text(
        "Typed before leaving"
    )
    expect(page.locator("#pending-changes")).not_to_contain_text("not yet saved")
    assert names(saved)[:2] == ["Renamed on the phone", "Typed before leaving"]
    assert document_of(saved)["units"][2]["name"] == saved.document["units"][2]["name"]


def test_a_reload_within_40_ms_of_a_change_shows_the_latest_values_and_the_change_lands_once(
    live_server, page: Page
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 3)
    open_builder(page, live_server.url, saved)
    page.on("dialog", lambda dialog: dialog.accept())  # the leave-page question, if asked
    rename_elsewhere(saved, 0, "Renamed on the tablet")  # this page still shows the old name
    open_card(page, 2)
    page.locator(f"#u-{unit_id(page, 2)}-name").fill("Typed then reloaded")
    page.wait_for_timeout(40)
    page.reload()
    expect(page.locator(f"#unit-{unit_id(page, 0)}-summary .item-name")).to_have_text(
        "Renamed on the tablet"
    )
    expect(page.locator(f"#unit-{unit_id(page, 2)}-summary .item-name")).to_have_text(
        "Typed then reloaded"
    )
    expect(page.locator("#pending-changes")).to_be_hidden()
    assert names(saved)[0] == "Renamed on the tablet"
    assert names(saved)[2] == "Typed then reloaded"
    saved.refresh_from_db()
    typed = saved.revisions.filter(field="name", after="Typed then reloaded")
    assert typed.count() == 1
