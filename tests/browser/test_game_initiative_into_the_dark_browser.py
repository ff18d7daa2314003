"""Two phones play Into the Dark on their own seats: in Turn 1's "2) Dice for initiative"
the Saxons' phone (the owner's) rolls, 2 against 5, and the Normans win; only the Normans'
phone is offered Keep or Pass; they pass with one tap, and both phones say the Saxons hold
the Initiative and move first (Sequence of Play, 2. Dice for initiative; 3. Movement a.).
Offline, the phone's engine works the pass out and says so at once; a roll made offline
is worked out there too, and its winner's phone (the one phone, playing both sides)
offers Keep or Pass at once."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from armybuilder.armies.services import create_army
from armybuilder.games import selectors, services
from armybuilder.games.models import Game
from tests.browser.conftest import engine_ready
from tests.browser.game_phones import connection, solo_game, two_phones
from tests.browser.test_game_offline_browser import offers_kept
from tests.support import army

pytestmark = pytest.mark.browser

UNITS = [{"name": "Spears"}, {"name": "Archers", "missile_weapon": "foot_bow"}]
SECTION = "Sequence of Play, 2. Dice for initiative"


def seated_game():
    """Saxons (the owner's phone) v Normans (the link to play), Into the Dark."""
    user = User.objects.create_user("owner")
    sides = [create_army(army("into-the-dark", UNITS, name=name), owner=user)
             for name in ("Saxons", "Normans")]  # fmt: skip
    return services.start_game(user, army_a=sides[0], army_b=sides[1], seated=True)


def test_the_winner_passes_the_initiative_with_one_tap(live_server, new_context):
    game = seated_game()
    with two_phones(live_server, new_context, game, ("Spears", "Archers")) as phones:
        owner, opponent = phones.owner, phones.opponent
        expect(owner.locator("#initiative")).to_have_count(0)  # 1) Rallys first
        owner.get_by_role("button", name="Next phase").click()
        expect(opponent.locator("#where")).to_have_text("Turn 1, 2) Dice for initiative")
        roll = owner.locator("#initiative")
        expect(roll).to_contain_text(SECTION)
        roll.get_by_label("Dice: Saxons' D6, then Normans' (leave empty to roll)").fill("2 5")
        roll.get_by_role("button", name="Roll for the Initiative").click()
        said = f"Turn 1: Saxons 2, Normans 5: Normans win the Initiative roll: they keep it or pass it ({SECTION})"  # fmt: skip
        expect(owner.locator("#log li").first).to_contain_text(said)
        expect(opponent.locator("#log li").first).to_contain_text(said)
        choice = opponent.locator("#keep-or-pass")
        expect(choice).to_contain_text("Normans won the roll")
        expect(owner.locator("#keep-or-pass")).to_have_count(0)  # not the loser's to choose
        choice.get_by_role("button", name="Pass it to Saxons").click()
        passed = f"Turn 1: Normans pass the Initiative: Saxons move first ({SECTION})"
        expect(owner.locator("#log li").first).to_contain_text(passed)
        expect(owner.locator("#first")).to_have_text("Saxons hold the Initiative and move first.")
        expect(opponent.locator("#first")).to_have_text(
            "Saxons hold the Initiative and move first."
        )
        expect(opponent.locator("#keep-or-pass")).to_have_count(0)
        state = selectors.state_of(game)
        assert (state.holder, state.won, state.choosing) == ("a", "b", "")
        assert game.actions.get(kind="keep_or_pass").seat == "b"


def test_a_pass_made_offline_says_who_moves_first_at_once(live_server, new_context, settings, db):
    settings.MUSTER_PAGE_ENGINE = True  # the page's rules engine works the choice out
    game = seated_game()
    with two_phones(live_server, new_context, game, ("Spears", "Archers")) as phones:
        owner, opponent = phones.owner, phones.opponent
        engine_ready(opponent)
        owner.get_by_role("button", name="Next phase").click()
        expect(opponent.locator("#where")).to_have_text("Turn 1, 2) Dice for initiative")
        roll = owner.locator("#initiative")
        roll.get_by_label("Dice: Saxons' D6, then Normans' (leave empty to roll)").fill("1 6")
        roll.get_by_role("button", name="Roll for the Initiative").click()
        choice = opponent.locator("#keep-or-pass")
        expect(choice).to_contain_text("Normans won the roll")
        offers_kept(opponent, game)
        connection(phones.opponents, opponent, on=False)
        choice.get_by_role("button", name="Pass it to Saxons").click()
        # worked out on the phone, as the server will
        expect(choice).to_contain_text("Normans pass the Initiative: Saxons move first")
        expect(opponent.locator("#first")).to_have_text(
            "Saxons hold the Initiative and move first."
        )
        connection(phones.opponents, opponent, on=True)
        expect(owner.locator("#log li").first).to_contain_text("Normans pass the Initiative")
        expect(owner.locator("#first")).to_have_text("Saxons hold the Initiative and move first.")


def rolled_offline(
    game: Game, mover: Page, roller: Page, context: BrowserContext, dice: str
) -> None:
    """``mover`` moves the game on to the Initiative's phase; ``roller``, its engine started
    and the game's offers kept, goes offline and rolls ``dice`` (side A's first)."""
    engine_ready(roller)
    mover.get_by_role("button", name="Next phase").click()
    expect(roller.locator("#where")).to_have_text("Turn 1, 2) Dice for initiative")
    offers_kept(roller, game)
    connection(context, roller, on=False)
    roll = roller.locator("#initiative")
    roll.get_by_label("Dice: Saxons' D6, then Normans' (leave empty to roll)").fill(dice)
    roll.get_by_role("button", name="Roll for the Initiative").click()


def test_a_roll_made_offline_offers_its_winner_keep_or_pass_at_once(
    live_server, new_context, settings, db
):
    settings.MUSTER_PAGE_ENGINE = True  # the page's rules engine works the roll out
    game = seated_game()
    with two_phones(live_server, new_context, game, ("Spears", "Archers")) as phones:
        owner, opponent = phones.owner, phones.opponent
        rolled_offline(game, owner, opponent, phones.opponents, "1 6")
        # the winner's buttons, drawn on the phone from the roll it worked out
        choice = opponent.locator("#keep-or-pass")
        expect(choice).to_contain_text("Normans won the roll")
        choice.get_by_role("button", name="Pass it to Saxons").click()
        expect(choice).to_contain_text("Normans pass the Initiative: Saxons move first")
        expect(opponent.locator("#first")).to_have_text(
            "Saxons hold the Initiative and move first."
        )
        expect(opponent.locator("#game-pending li")).to_have_count(2)
        assert not game.actions.filter(kind__in=("initiative", "keep_or_pass")).exists()
        connection(phones.opponents, opponent, on=True)
        log = owner.locator("#log li")
        expect(log.first).to_contain_text(
            f"Turn 1: Normans pass the Initiative: Saxons move first ({SECTION})"
        )
        expect(log.nth(1)).to_contain_text(
            f"Turn 1: Saxons 1, Normans 6: Normans win the Initiative roll: they keep it or "
            f"pass it ({SECTION})"
        )
        expect(owner.locator("#first")).to_have_text("Saxons hold the Initiative and move first.")
        expect(opponent.locator("#keep-or-pass")).to_have_count(0)
        expect(opponent.locator("#game-pending")).to_be_hidden()
        made = list(game.actions.order_by("number").values_list("kind", "seat"))
        assert made == [("next_phase", "a"), ("initiative", "b"), ("keep_or_pass", "b")]
        state = selectors.state_of(game)
        assert (state.holder, state.won, state.choosing) == ("a", "b", "")


def test_on_one_phone_a_roll_made_offline_is_kept_with_one_tap(
    live_server, new_context, settings, db
):
    settings.MUSTER_PAGE_ENGINE = True
    game = solo_game("into-the-dark", UNITS, "Saxons", "Normans")  # one phone plays both
    with two_phones(live_server, new_context, game, ("Spears", "Archers")) as phones:
        owner = phones.owner
        rolled_offline(game, owner, owner, phones.owners, "6 1")
        choice = owner.locator("#keep-or-pass")
        expect(choice).to_contain_text("Saxons won the roll")
        choice.get_by_role("button", name="Keep it").click()
        expect(owner.locator("#first")).to_have_text("Saxons hold the Initiative and move first.")
        connection(phones.owners, owner, on=True)
        expect(phones.opponent.locator("#log li").first).to_contain_text(
            f"Turn 1: Saxons keep the Initiative and move first ({SECTION})"
        )
        expect(owner.locator("#game-pending")).to_be_hidden()
        made = list(game.actions.order_by("number").values_list("kind", flat=True))
        assert made == ["next_phase", "initiative", "keep_or_pass"]
