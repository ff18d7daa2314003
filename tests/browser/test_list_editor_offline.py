"""The list editor on the change protocol, in Chromium: edits made offline wait in the
device's queue, survive a reload without a connection and land on the entries they were
made on when it returns; two tabs editing one field of one entry get a conflict at that
field, never a silent overwrite, while a different field merges."""

from __future__ import annotations

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from armybuilder.catalog.models import ArmyList
from tests.browser.conftest import OFFLINE_LOAD_FAILURES
from tests.browser.test_list_editor_browser import TIMEOUT, item_of, own_list, sign_in
from tests.support import kept_with_editors

pytestmark = [
    pytest.mark.browser,
    pytest.mark.browser_context_args(service_workers="allow"),
    OFFLINE_LOAD_FAILURES,
    pytest.mark.usefixtures("worker_settled"),
]

THREE_ENTRIES = {
    "entries": [
        {"key": "thegns", "name": "Thegns", "match": {}, "min": 0, "max": 2},
        {"key": "fyrd", "name": "Fyrd", "match": {}, "min": 0, "max": 4},
        {"key": "ceorls", "name": "Ceorls", "match": {}, "min": 0, "max": 6},
    ]
}


def by_id(made: ArmyList) -> dict[str, dict]:
    made.refresh_from_db()
    return {entry["id"]: entry for entry in made.data["entries"]}


def leave(page: Page, control) -> None:
    control.press("Tab")  # leaving a field sends it


def answered(page: Page) -> None:
    """Every change of the page answered: nothing of the list waits to be saved."""
    expect(page.locator("#list-editor.saving")).to_have_count(0, timeout=TIMEOUT)
    expect(page.locator('#list-editor form[data-state="saving"]')).to_have_count(0)


def test_three_entries_edited_offline_land_on_their_entries_after_a_reload_offline(
    live_server, page: Page
):
    user = sign_in(page.context, live_server, "ann")
    made = own_list(user, "into-the-dark", "Saxon raiders", THREE_ENTRIES)
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{live_server.url}/rulesets/into-the-dark/lists/{made.slug}/edit/")
    page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
    page.reload()  # under the worker: the page is kept for a reload without a connection
    kept_with_editors(page)
    page.context.set_offline(True)
    edits = [(0, "Name", "Huscarls"), (1, "At most", "5"), (2, "Name", "Ceorls of the shire")]
    for n, label, value in edits:
        control = item_of(page, "entries", n).get_by_label(label, exact=True)
        control.fill(value)
        leave(page, control)
        state = item_of(page, "entries", n).locator("form[data-state] .change-state")
        expect(state).to_contain_text("Not saved yet")
    assert made.latest_revision == 1 and by_id(made)["thegns"]["name"] == "Thegns"
    page.reload()  # still offline: the kept page, the waiting changes laid back on it
    expect(page.get_by_role("heading", level=1)).to_have_text("Edit Saxon raiders")
    expect(page.locator("#offline-copy")).to_be_visible()
    for n, label, value in edits:
        control = item_of(page, "entries", n).get_by_label(label, exact=True)
        expect(control).to_have_value(value)
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    answered(page)
    expect(page.locator("#list-editor .meta")).to_contain_text("revision 4")
    # drawn from the server once it answers: no longer the copy kept on the device
    expect(page.locator("#offline-copy")).to_be_hidden()
    expect(page.locator("html[data-offline-copy]")).to_have_count(0)
    entries = by_id(made)
    assert [entries[i]["name"] for i in ("thegns", "fyrd", "ceorls")] == [
        "Huscarls",
        "Fyrd",
        "Ceorls of the shire",
    ]
    assert [entries[i]["max"] for i in ("thegns", "fyrd", "ceorls")] == [2, 5, 6]
    assert made.latest_revision == 4


def tab(context: BrowserContext, live_server, made: ArmyList) -> Page:
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{live_server.url}/rulesets/into-the-dark/lists/{made.slug}/edit/")
    return page


def two_tabs_in_conflict(page: Page, live_server) -> tuple[ArmyList, Page, Page]:
    """Ann's list open in two tabs; the second tab's player is typing over "Thegns" (kept
    as typed while the first tab's change comes in) when the first tab saves the same
    field as "Huscarls": the second tab's change, once left, is a conflict to choose."""
    user = sign_in(page.context, live_server, "ann")
    made = own_list(user, "into-the-dark", "Saxon raiders", THREE_ENTRIES)
    first, second = tab(page.context, live_server, made), tab(page.context, live_server, made)
    name_b = item_of(second, "entries", 0).get_by_label("Name", exact=True)
    name_b.fill("Thegns of the hall")
    name_a = item_of(first, "entries", 0).get_by_label("Name", exact=True)
    name_a.fill("Huscarls")
    leave(first, name_a)
    answered(first)
    assert by_id(made)["thegns"]["name"] == "Huscarls"
    leave(second, name_b)  # not saved over the first tab's change
    conflict = item_of(second, "entries", 0).locator(".conflict")
    expect(conflict).to_contain_text("Name: changed elsewhere meanwhile (now “Huscarls”)")
    return made, first, second


@pytest.mark.browser_context_args(service_workers="block")
def test_two_tabs_editing_one_field_get_a_conflict_there_and_other_fields_merge(
    live_server, page: Page
):
    made, first, second = two_tabs_in_conflict(page, live_server)
    name_a, name_b = (
        item_of(t, "entries", 0).get_by_label("Name", exact=True) for t in (first, second)
    )
    conflict = item_of(second, "entries", 0).locator(".conflict")
    expect(name_b).to_have_value("Thegns of the hall")  # what the player typed stays
    assert by_id(made)["thegns"]["name"] == "Huscarls" and made.latest_revision == 2
    second.reload()  # the choice is kept on the device until it is made
    expect(conflict).to_contain_text("Name: changed elsewhere meanwhile (now “Huscarls”)")
    expect(name_b).to_have_value("Thegns of the hall")
    # another field of the same entry, from the same stale tab, merges
    most_b = item_of(second, "entries", 0).get_by_label("At most", exact=True)
    most_b.fill("3")
    leave(second, most_b)
    answered(second)
    entry = by_id(made)["thegns"]
    assert (entry["name"], entry["max"]) == ("Huscarls", 3)
    # the player chooses: theirs kept as it is, or mine saved over it knowingly
    conflict.get_by_role("button", name="Keep mine").click()
    answered(second)
    expect(second.locator(".conflict")).to_have_count(0)
    assert by_id(made)["thegns"]["name"] == "Thegns of the hall"
    first.reload()
    expect(item_of(first, "entries", 0).get_by_label("Name", exact=True)).to_have_value(
        "Thegns of the hall"
    )
