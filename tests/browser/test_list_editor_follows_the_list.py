"""Two tabs on one list editor: a change saved in one shows in the other by itself, with no
reload, while what the player is typing there stays as typed; the second tab's own changes
afterwards are made from what it shows now, never a conflict that is none."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_list_editor_browser import item_of, own_list, sign_in
from tests.browser.test_list_editor_offline import (
    THREE_ENTRIES,
    answered,
    by_id,
    leave,
    tab,
    two_tabs_in_conflict,
)

pytestmark = pytest.mark.browser

SAID = "Updated from another tab or device."


def saved_and_followed(first: Page, second: Page, entry: int, most: str, revision: int) -> None:
    """The first tab saves an entry's "At most"; the second tab shows it by itself."""
    field = item_of(first, "entries", entry).get_by_label("At most", exact=True)
    field.fill(most)
    leave(first, field)
    answered(first)
    followed = item_of(second, "entries", entry).get_by_label("At most", exact=True)
    expect(followed).to_have_value(most)
    expect(second.locator("#list-editor .meta")).to_contain_text(f"revision {revision}")


def test_another_tabs_change_comes_in_by_itself_and_the_name_being_typed_stays(
    live_server, page: Page
):
    user = sign_in(page.context, live_server, "ann")
    made = own_list(user, "into-the-dark", "Saxon raiders", THREE_ENTRIES)
    first, second = tab(page.context, live_server, made), tab(page.context, live_server, made)
    second.evaluate("window.__sameDocument = true")  # gone if it ever reloads
    # the second tab's player is typing a name and has not left the field yet
    name_b = item_of(second, "entries", 1).get_by_label("Name", exact=True)
    name_b.fill("Fyrd of the shire")
    saved_and_followed(first, second, 0, "3", revision=2)
    expect(second.locator("#list-status")).to_have_text(SAID)
    expect(name_b).to_have_value("Fyrd of the shire")
    expect(name_b).to_be_focused()
    assert second.evaluate("window.__sameDocument === true")
    # left, the name is saved over the list as it stands: no conflict, nothing undone
    leave(second, name_b)
    answered(second)
    expect(second.locator(".conflict")).to_have_count(0)
    entries = by_id(made)
    assert (entries["thegns"]["max"], entries["fyrd"]["name"]) == (3, "Fyrd of the shire")
    assert made.latest_revision == 3
    # and the first tab follows the second
    expect(item_of(first, "entries", 1).get_by_label("Name", exact=True)).to_have_value(
        "Fyrd of the shire"
    )


def test_a_focused_box_follows_another_tabs_tick_and_its_next_change_is_made_from_it(
    live_server, page: Page
):
    user = sign_in(page.context, live_server, "ann")
    made = own_list(user, "into-the-dark", "Saxon raiders", THREE_ENTRIES)
    first, second = tab(page.context, live_server, made), tab(page.context, live_server, made)
    boxes = 'form.values input[type="checkbox"]'
    box_a = item_of(first, "entries", 0).locator(boxes).first
    box_b = item_of(second, "entries", 0).locator(boxes).first
    field = (
        item_of(second, "entries", 0)
        .locator("form.values")
        .first.locator('input[name="field"]')
        .get_attribute("value")
    )
    box_b.focus()  # the player tabbed onto the box and has not changed it
    box_a.check()
    answered(first)
    # drawn from the list as it stands, focused or not: ticked, and ticked as drawn
    expect(box_b).to_be_checked()
    expect(box_b).to_be_focused()
    assert second.evaluate("(box) => box.defaultChecked", box_b.element_handle())
    box_b.press("Space")  # untick it: a change from the ticked box, as the list has it
    answered(second)
    expect(second.locator(".conflict")).to_have_count(0)
    expect(box_a).not_to_be_checked()  # the first tab follows the second
    assert by_id(made)["thegns"]["match"].get(field, []) == []
    assert made.latest_revision == 3


def test_a_conflict_still_to_choose_stays_as_another_tabs_change_comes_in(live_server, page: Page):
    made, first, second = two_tabs_in_conflict(page, live_server)
    name_a, name_b = (
        item_of(t, "entries", 0).get_by_label("Name", exact=True) for t in (first, second)
    )
    conflict = item_of(second, "entries", 0).locator(".conflict")
    # the first tab saves another entry: it comes in, the choice and what was typed stay
    saved_and_followed(first, second, 1, "5", revision=3)
    expect(conflict).to_contain_text("Name: changed elsewhere meanwhile (now “Huscarls”)")
    expect(name_b).to_have_value("Thegns of the hall")
    conflict.get_by_role("button", name="Keep mine").click()
    answered(second)
    expect(second.locator(".conflict")).to_have_count(0)
    entries = by_id(made)
    assert (entries["thegns"]["name"], entries["fyrd"]["max"]) == ("Thegns of the hall", 5)
    expect(name_a).to_have_value("Thegns of the hall")  # followed by the first tab


def test_after_keeping_theirs_the_fields_next_change_is_made_from_theirs(live_server, page: Page):
    made, first, second = two_tabs_in_conflict(page, live_server)
    name_a, name_b = (
        item_of(t, "entries", 0).get_by_label("Name", exact=True) for t in (first, second)
    )
    conflict = item_of(second, "entries", 0).locator(".conflict")
    conflict.get_by_role("button", name="Keep theirs").click()
    expect(second.locator(".conflict")).to_have_count(0)
    expect(name_b).to_have_value("Huscarls")
    # theirs is now what the field was drawn with: changed again, it saves
    name_b.fill("Huscarls of the hall")
    leave(second, name_b)
    answered(second)
    expect(second.locator(".conflict")).to_have_count(0)
    assert by_id(made)["thegns"]["name"] == "Huscarls of the hall"
    expect(name_a).to_have_value("Huscarls of the hall")
