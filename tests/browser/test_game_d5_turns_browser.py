"""Two phones play three turns of a d5 Dark Age game: javelins shoot in the shooting phase
(shieldwall halving by itself), a melee, a banner's rally in Routs and Rallies taken back by
Undo from the other phone, a turn played by the opponent's phone offline and synced, a unit
removed; each phone follows the other, and the summary PDF names the units lost."""

from __future__ import annotations

import io

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from armybuilder.games import selectors
from armybuilder.games.models import Game
from tests.browser.game_phones import card, connection, solo_game, two_phones
from tests.browser.test_game_offline_browser import choose, offers_kept, screen_is_the_server

pytestmark = pytest.mark.browser

UNITS = [
    {"name": "Horse", "type": "cavalry", "missile": "javelin"},
    {"name": "Hearth", "type": "infantry", "banner": True},
    {"name": "Levy", "type": "infantry"},
]
NAMES = ("Horse", "Hearth", "Levy")


@pytest.fixture
def game(db):
    return solo_game("dark-ages-d5", UNITS, "Saxons", "Danes")


def next_phase(page: Page, other: Page, expected: str) -> None:
    page.get_by_role("button", name="Next phase").click()
    expect(other.locator("#where")).to_contain_text(expected)


def combat(page: Page, attacker: str, target: str, die: str) -> None:
    choose(page, attacker, target)
    page.locator("#combat").get_by_label("Die (leave empty to roll)").fill(die)
    page.get_by_role("button", name="Work out").click()
    page.get_by_role("button", name="Apply").click()


def test_two_phones_play_three_turns_of_a_d5_game(live_server, new_context, game: Game):
    with two_phones(live_server, new_context, game, NAMES) as phones:
        owner, opponent, a, b = phones.owner, phones.opponent, phones.a, phones.b
        owners, opponents = phones.owners, phones.opponents

        # turn 1: javelins in the shooting phase; a melee; the banner's rally, taken back
        next_phase(owner, opponent, "2) Shooting")
        choose(owner, a["Horse"], b["Hearth"])
        expect(
            owner.get_by_label("Shieldwall: infantry (front or flank) (applies by itself)")
        ).to_be_checked()
        owner.locator("#combat").get_by_label("Die (leave empty to roll)").fill("4")
        owner.get_by_role("button", name="Work out").click()
        expect(owner.locator("#combat")).to_contain_text("Roll 4 -1 javelins = 3 hits")
        owner.get_by_role("button", name="Apply").click()
        expect(card(opponent, b["Hearth"])).to_contain_text("2 hits")
        next_phase(opponent, owner, "3) Melee")
        combat(opponent, b["Levy"], a["Levy"], "5")
        expect(opponent.locator("#log")).to_contain_text("Levy against Levy")
        expect(owner.locator("#log")).to_contain_text("Levy against Levy")
        next_phase(opponent, owner, "4) Routs and Rallies")
        opponent.locator("#unit").select_option(value=b["Hearth"])
        opponent.locator("#rally").get_by_label("Die (leave empty to roll)").fill("4")
        opponent.get_by_role("button", name="Rally").click()
        expect(card(owner, b["Hearth"])).to_contain_text("no hits")
        expect(owner.locator("#log")).to_contain_text("Banner: half of 4 rounded up: 2")
        owner.get_by_role("button", name="Undo").click()
        expect(opponent.locator("#log")).to_contain_text("(undone)")
        expect(card(opponent, b["Hearth"])).to_contain_text("2 hits")
        next_phase(owner, opponent, "Turn 2, 1) Movement")

        # turn 2: the opponent's phone plays it offline, then syncs
        offers_kept(opponent, game)
        connection(opponents, opponent, on=False)
        for phase in ("2) Shooting", "3) Melee"):
            opponent.get_by_role("button", name="Next phase").click()
            expect(opponent.locator("#where")).to_contain_text(phase)
        choose(opponent, b["Horse"], a["Hearth"])
        offline = opponent.locator("#combat-offline")
        offline.get_by_label("Die (leave empty to roll)").fill("6")
        offline.get_by_role("button", name="Apply when sent").click()
        horse = card(opponent, a["Horse"])
        horse.locator(".unit-more > summary").click()  # the card opens
        horse.get_by_text("Remove from the table…").click()
        horse.get_by_label("Why (routed, fled…)").fill("routed")
        horse.get_by_role("button", name="Remove Horse").click()
        expect(horse).to_contain_text("Removed: routed (not yet saved)")
        for phase in ("4) Routs and Rallies", "Turn 3, 1) Movement"):
            opponent.get_by_role("button", name="Next phase").click()
            expect(opponent.locator("#where")).to_contain_text(phase)
        expect(owner.locator("#where")).to_contain_text("Turn 2, 1) Movement")
        connection(opponents, opponent, on=True)
        expect(owner.locator("#where")).to_contain_text("Turn 3, 1) Movement")
        expect(card(owner, a["Horse"])).to_contain_text("Removed")
        expect(opponent.locator("#game-pending")).to_be_hidden()

        # turn 3: the owner's levy is taken off the table by hand too
        levy = card(owner, b["Levy"])
        levy.locator(".unit-more > summary").click()  # the card opens
        levy.get_by_text("Remove from the table…").click()
        levy.get_by_label("Why (routed, fled…)").fill("fled")
        levy.get_by_role("button", name="Remove Levy").click()
        expect(card(opponent, b["Levy"])).to_contain_text("Removed")
        game.refresh_from_db()
        screen_is_the_server(owner, game)
        screen_is_the_server(opponent, game)
        summary = selectors.summary(game)
        assert summary.turns == 3
        assert [s.lost for s in summary.sides] == [("Horse",), ("Levy",)]

        pdf = owners.request.get(f"{live_server.url}/games/{game.pk}/summary.pdf")
        assert pdf.ok, pdf.status
        text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.body())).pages)
        assert "Turns played: 3" in text, text
        assert "Saxons 1 of 3\nHorse" in text and "Danes 1 of 3\nLevy" in text, text
