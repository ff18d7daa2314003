"""Two phones play a Dark Ages 2015 game on their own seats: the Saxons (the owner's
phone) hold the Initiative and go first; at the start of the source's Turn 2 (the game's
Turn 3) the Danes' phone rolls for it, 1+3 against 6, and takes it (INITIATIVE): the log
says so on both phones, it is the Danes' player turn, and their units, not the Saxons',
are offered as attackers."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from armybuilder.armies.services import create_army
from armybuilder.games import selectors, services
from tests.browser.conftest import engine_ready
from tests.browser.game_phones import card, connection, two_phones
from tests.browser.test_game_offline_browser import offers_kept
from tests.support import army

pytestmark = pytest.mark.browser

UNITS = [{"name": "Warband", "type": "warband"}, {"name": "Shieldwall", "type": "infantry"}]
PHASES = ("2) Shooting", "3) Melee", "4) Eliminating Units")


def play_turn(page: Page, other: Page, turn: int) -> None:
    for phase in PHASES:
        page.get_by_role("button", name="Next phase").click()
        expect(other.locator("#where")).to_have_text(f"Turn {turn}, {phase}")
    page.get_by_role("button", name="Next phase").click()
    expect(other.locator("#where")).to_have_text(f"Turn {turn + 1}, 1) Movement")


def seated_game():
    """Saxons (the owner's phone, the Initiative at the start) v Danes (the link to play)."""
    user = User.objects.create_user("owner")
    sides = [create_army(army("dark-ages-2015", UNITS, name=name), owner=user)
             for name in ("Saxons", "Danes")]  # fmt: skip
    return services.start_game(user, army_a=sides[0], army_b=sides[1], seated=True)


def test_a_lost_initiative_roll_hands_the_first_player_turn_over(live_server, new_context):
    game = seated_game()
    with two_phones(live_server, new_context, game, ("Warband", "Shieldwall")) as phones:
        owner, opponent, a, b = phones.owner, phones.opponent, phones.a, phones.b
        expect(owner.locator("#initiative")).to_have_count(0)  # no roll in Turn 1
        play_turn(owner, opponent, 1)
        play_turn(opponent, owner, 2)
        expect(opponent.locator("#whose")).to_have_text("Saxons' player turn")
        roll = opponent.locator("#initiative")
        expect(roll).to_contain_text("INITIATIVE")
        roll.get_by_label("Dice: Saxons' D6, then Danes' (leave empty to roll)").fill("1 6")
        roll.get_by_role("button", name="Roll for the Initiative").click()
        said = "Turn 3: Saxons roll 1+3=4, Danes 6: Danes take the Initiative (INITIATIVE)"
        expect(owner.locator("#log li").first).to_contain_text(said)
        expect(opponent.locator("#log li").first).to_contain_text(said)
        expect(owner.locator("#whose")).to_have_text("Danes' player turn")
        expect(opponent.locator("#whose")).to_have_text("Danes' player turn")
        expect(owner.locator("#initiative")).to_have_count(0)
        expect(owner.locator(".unit-picks button", has_text="Attacker")).to_have_count(0)
        expect(
            card(opponent, b["Warband"]).get_by_role("button", name="Attacker: Warband")
        ).to_be_visible()
        expect(
            card(opponent, a["Warband"]).get_by_role("button", name="Attacker: Warband")
        ).to_have_count(0)
        assert selectors.state_of(game).holder == "b"
        assert game.actions.get(kind="initiative").seat == "b"


def test_a_roll_made_offline_says_whose_player_turn_it_is_at_once(
    live_server, new_context, settings, db
):
    settings.MUSTER_PAGE_ENGINE = True  # the page's rules engine works the roll out
    game = seated_game()
    with two_phones(live_server, new_context, game, ("Warband", "Shieldwall")) as phones:
        owner, opponent = phones.owner, phones.opponent
        engine_ready(opponent)
        play_turn(owner, opponent, 1)
        play_turn(opponent, owner, 2)
        offers_kept(opponent, game)
        connection(phones.opponents, opponent, on=False)
        roll = opponent.locator("#initiative")
        roll.get_by_label("Dice: Saxons' D6, then Danes' (leave empty to roll)").fill("2 6")
        roll.get_by_role("button", name="Roll for the Initiative").click()
        # worked out on the phone, as the server will: the Danes go first from now
        expect(roll).to_contain_text("Saxons roll 2+3=5, Danes 6: Danes take the Initiative")
        expect(opponent.locator("#whose")).to_have_text("Danes' player turn")
        connection(phones.opponents, opponent, on=True)
        expect(owner.locator("#log li").first).to_contain_text("Danes take the Initiative")
        expect(owner.locator("#whose")).to_have_text("Danes' player turn")
