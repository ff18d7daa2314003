"""The new-event form on a 390 px phone: the allowed lists shown as the chosen rule set's
checkbox group, narrowed by the search box to the lists whose name holds what is typed,
with ticked boxes kept in view and sent with the form."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armybuilder.events.models import Event
from tests.browser.test_axe_audit import VIEWPORTS, logged_in_context
from tests.web.events.helpers import player

pytestmark = pytest.mark.browser


def test_the_search_narrows_the_chosen_rule_sets_lists_and_a_ticked_one_is_saved(
    live_server, new_context, db
):
    organiser = player("org")
    context = logged_in_context(new_context, live_server, organiser, VIEWPORTS["phone"])
    try:
        page = context.new_page()
        page.goto(live_server.url + "/events/new/")
        groups = page.locator("fieldset.list-group:visible legend")
        page.locator("#id_ruleset").select_option("into-the-dark")
        expect(groups).to_have_text(["Into the Dark"])
        page.get_by_label("Find a list").fill("viking")
        shown = page.locator(".list-choice:visible label")
        expect(shown).to_have_count(1)
        expect(shown).to_contain_text(["Viking (Great Army), revision 1"])
        shown.first.click()
        page.get_by_label("Find a list").fill("anglo")
        # the ticked Viking box stays in view beside what the search finds
        expect(page.locator(".list-choice:visible input:checked")).to_have_count(1)
        page.get_by_label("Find a list").fill("")
        page.locator("#id_ruleset").select_option("feudal-2017")
        expect(groups).to_have_text(["Feudal Wargame Rules (2017)"])  # Viking's group hides
        page.locator("#id_ruleset").select_option("into-the-dark")
        page.fill("#id_name", "Phone muster")
        page.fill("#id_date", "2027-10-02")
        page.fill("#id_place", "Village hall")
        page.fill("#id_deadline", "2027-09-25T20:00")
        page.fill("#id_reveal_at", "2027-09-26T09:00")
        page.get_by_role("button", name="Create the event").click()
        expect(page.locator("h1")).to_have_text("Phone muster")
        event = Event.objects.get(name="Phone muster")
        assert [a.army_list.slug for a in event.allowed_lists.all()] == ["viking"]
    finally:
        context.close()
