"""The link to play is held by the phone that first takes its seat (390 px): the Saxons'
phone opens it, taps "Take side Saxons's seat" and plays; a third phone given the forwarded
link sees the game read-only with the message; the owner releases the seat on the links
panel; the third phone, reloaded, is offered the seat again, takes it and plays."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from armybuilder.armies.services import create_army
from armybuilder.games import services
from armybuilder.games.models import Game
from tests.browser.game_phones import PHONE, take_seat, two_phones
from tests.browser.test_game_pages_browser import audited
from tests.support import army

pytestmark = pytest.mark.browser

UNITS = [{"name": "Knights", "type": "knights"}, {"name": "Serjeants", "type": "serjeants"}]
HELD = "This seat is held by another phone. Ask the game's owner to release it."
ONLY = "Only this phone will play this side until the game's owner releases it."


@pytest.fixture
def game(db) -> Game:
    user = User.objects.create_user("owner")
    mine = create_army(army("feudal-2017", UNITS, name="Normans"), owner=user)
    theirs = create_army(army("feudal-2017", UNITS, name="Saxons"), owner=user)
    game = services.start_game(user, army_a=mine, army_b=theirs)
    services.choose_seats(game, seated=True, first="b")  # the Saxons' player turn first
    return game


def test_a_forwarded_link_to_play_only_watches_until_the_owner_releases_the_seat(
    live_server, new_context, game
):
    with two_phones(live_server, new_context, game, ("Knights",)) as phones:
        owner, opponent = phones.owner, phones.opponent
        expect(opponent.locator("#seat")).to_have_text("This phone plays Saxons.")
        opponent.get_by_role("button", name="Next phase").click()
        expect(owner.locator("#where")).to_have_text("Turn 1, Phase 2: Move")
        link = opponent.url.split("#")[0]

        third = new_context(viewport=PHONE)
        try:
            forwarded = third.new_page()
            forwarded.goto(link)
            expect(forwarded.locator("[data-seat-held]")).to_have_text(HELD)
            expect(forwarded.get_by_role("button", name="Next phase")).to_have_count(0)
            expect(forwarded.get_by_role("button", name="Take side")).to_have_count(0)
            expect(forwarded.locator("#where")).to_have_text("Turn 1, Phase 2: Move")
            audited(forwarded, "seat-held")

            owner.goto(f"{live_server.url}/games/{game.pk}/?links=open#links")
            expect(owner.locator("[data-seat-holder]")).to_contain_text("Held by a phone since")
            audited(owner, "seat-holder")
            owner.get_by_role("button", name="Release the seat").click()
            expect(owner.locator("[data-seat-holder]")).to_contain_text("Not held yet")

            forwarded.reload()
            expect(forwarded.locator("[data-seat-held]")).to_have_count(0)
            expect(forwarded.get_by_role("button", name="Take side Saxons's seat")).to_be_visible()
            expect(forwarded.get_by_text(ONLY)).to_be_visible()
            expect(forwarded.get_by_role("button", name="Next phase")).to_have_count(0)
            audited(forwarded, "seat-free")
            take_seat(forwarded)
            expect(forwarded.get_by_role("button", name="Take side")).to_have_count(0)
            expect(forwarded.locator("#seat")).to_have_text("This phone plays Saxons.")
            forwarded.get_by_role("button", name="Next phase").click()
            expect(owner.locator("#where")).to_have_text("Turn 1, Phase 3: Mêlée")
            opponent.reload()
            expect(opponent.locator("[data-seat-held]")).to_have_text(HELD)
        finally:
            third.close()
