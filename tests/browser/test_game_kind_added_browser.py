"""A kind of game action added by one class (the toy note, tests/toy_ruleset/game_kinds.py)
played on a phone with the page's script running: its form, which names no ``data-op``, is
left by game-ops.js to post as a form, its line lands in the log, and the page's own Undo
takes it back through the batch of operations, with no script edited."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.game_phones import solo_game
from tests.browser.test_axe_audit import VIEWPORTS, logged_in_context
from tests.toy_ruleset.game_kinds import registered

pytestmark = pytest.mark.browser


@pytest.fixture
def note(settings):
    with registered(settings) as kind:
        yield kind


def test_a_kind_added_by_one_class_is_posted_logged_and_taken_back_on_a_phone(
    live_server, new_context, db, note
):
    game = solo_game("feudal-2017", [{"name": "Knights", "type": "knights"}], "Normans", "Saxons")
    user = game.owner
    context = logged_in_context(new_context, live_server, user, VIEWPORTS["phone"])
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/games/{game.pk}/")
        page.get_by_label("A note for the log, Turn 1").fill("The ford holds")
        page.get_by_role("button", name="Note it").click()
        expect(page.get_by_text("Noted.")).to_be_visible()
        expect(page.locator("#log")).to_contain_text("Turn 1: note: The ford holds")
        assert [a.kind for a in game.actions.all()] == ["note"]
        page.get_by_role("button", name="Undo").click()
        expect(page.locator("#log del")).to_contain_text("Turn 1: note: The ford holds")
        assert game.actions.get(kind="note").undone
    finally:
        context.close()
