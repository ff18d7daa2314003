"""What a player types into the list editor before its script has come (a slow link, a
slow phone) is saved like the rest, never dropped."""

from __future__ import annotations

import pytest
from playwright.sync_api import Route, expect

from armybuilder.catalog.models import ArmyList
from tests.browser.test_list_editor_browser import player, saved

pytestmark = pytest.mark.browser


def test_fields_typed_before_the_editors_script_came_are_saved(live_server, new_context):
    page = player(new_context, live_server, "ann")
    held: list[Route] = []
    page.route("**/list-editor*.js", lambda route: held.append(route))
    page.goto(f"{live_server.url}/rulesets/feudal-2017/new-list/")
    page.get_by_label("Name").fill("Slow link list")
    page.get_by_role("button", name="Create list").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Edit Slow link list")
    for label, value in (("Period", "c. 1100"), ("Source note", "typed on the bus")):
        page.get_by_label(label, exact=True).fill(value)
        page.get_by_label(label, exact=True).press("Tab")
    assert held, "the editor's script was asked for"
    for route in held:
        route.continue_()
    page.unroute("**/list-editor*.js")
    expect(page.locator("#list-editor")).to_have_attribute(
        "data-list", str(ArmyList.objects.get(author__username="ann").pk)
    )
    page.wait_for_function("() => document.querySelector('#list-editor .change-state')")
    saved(page)
    made = ArmyList.objects.get(author__username="ann")
    assert (made.period, made.source_note) == ("c. 1100", "typed on the bus")
    page.reload()
    expect(page.get_by_label("Period", exact=True)).to_have_value("c. 1100")
