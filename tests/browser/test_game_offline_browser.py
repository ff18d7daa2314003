"""A phone that loses the connection at the table plays on: its actions (phases, a mêlée
chosen from the modifiers the source allows, a removal taken back, a rally) show at once,
marked "not yet saved", survive the page being closed, and land in order when it is back,
where the other phone sees them. When the other phone moved the game on meanwhile, what
the offline phone did in the phase the game had left is refused and the player is told,
never silently dropped; what the screen shows is then what the server holds."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from armybuilder.games import presenters, selectors
from armybuilder.games.models import Game
from tests.browser.game_phones import card, connection, solo_game, two_phones

pytestmark = pytest.mark.browser

UNITS = [
    {"name": "Knights", "type": "knights"},
    {"name": "Serjeants", "type": "serjeants"},
    {"name": "Bowmen", "type": "bowmen"},
]
NAMES = ("Knights", "Serjeants", "Bowmen")


@pytest.fixture
def game(db):
    return solo_game("feudal-2017", UNITS, "Normans", "Saxons")


def offers_kept(page: Page, game: Game) -> None:
    """Until the page keeps the game's offers on the phone (asked once, as it opens)."""
    for _ in range(100):
        if page.evaluate(f"!!localStorage.getItem('muster-offers-{game.pk}')"):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the game's offers were never kept on the phone")


def choose(page: Page, attacker: str, target: str) -> None:
    page.locator("#attacker").select_option(value=attacker)
    page.locator("#target").select_option(value=target)
    page.get_by_role("button", name="Choose").click()


def server_sees(game: Game) -> tuple[int, str, dict[str, str]]:
    """Where the game stands on the server, and each unit's state in the page's words."""
    game.refresh_from_db()
    state = selectors.state_of(game)
    cards = {
        c.card.key: ("Removed" if c.state.removed else c.state.damage_text())
        for _, side in presenters.cards(game, state)
        for c in side
    }
    return state.turn, presenters.phase_names(game)[state.phase], cards


def screen_is_the_server(page: Page, game: Game) -> None:
    turn, phase, cards = server_sees(game)
    expect(page.locator("#where")).to_have_text(f"Turn {turn}, {phase}")
    expect(page.locator("#game")).to_have_attribute("data-version", str(game.version))
    for key, said in cards.items():
        expect(card(page, key).locator(".unit-state")).to_contain_text(said)
    expect(page.locator(".pending-note")).to_have_count(0)


def test_a_phone_offline_for_a_turn_plays_it_and_it_lands_in_order(live_server, new_context, game):
    with two_phones(live_server, new_context, game, NAMES) as phones:
        owners, owner, opponent, a, b = (
            phones.owners,
            phones.owner,
            phones.opponent,
            phones.a,
            phones.b,
        )
        offers_kept(owner, game)

        # the link drops at the start of the owner's turn
        connection(owners, owner, on=False)
        for phase in ("Phase 2", "Phase 3: Mêlée"):
            owner.get_by_role("button", name="Next phase").click()
            expect(owner.locator("#where")).to_contain_text(phase)
        expect(owner.locator("#where")).to_contain_text("not yet saved")
        # a mêlée, its modifiers those the source allows for the pair in Phase 3
        choose(owner, a["Knights"], b["Serjeants"])
        offline = owner.locator("#combat-offline")
        expect(offline.get_by_label("Armoured serjeants (applies by itself)")).to_be_checked()
        expect(offline.locator("input[value=woods_charged]")).to_have_count(0)
        offline.locator("input[value=flank]").check()
        offline.get_by_label("Die (leave empty to roll)").fill("3")
        offline.get_by_role("button", name="Apply when sent").click()
        expect(card(owner, b["Serjeants"])).to_contain_text("hits worked out when sent")
        # a removal, taken back before it was ever sent
        bowmen = card(owner, b["Bowmen"])
        bowmen.locator(".unit-more > summary").click()  # the card opens
        bowmen.get_by_text("Remove from the table…").click()
        bowmen.get_by_label("Why (routed, fled…)").fill("fled")
        bowmen.get_by_role("button", name="Remove Bowmen").click()
        expect(bowmen).to_contain_text("Removed: fled (not yet saved)")
        owner.get_by_role("button", name="Undo").click()
        expect(bowmen).not_to_contain_text("Removed")
        # the rally phase reached offline: its form is there
        owner.get_by_role("button", name="Next phase").click()
        expect(owner.locator("#where")).to_contain_text("Phase 4: Rally")
        owner.locator("#unit").select_option(value=a["Knights"])
        owner.get_by_role("button", name="Rally").click()
        expect(card(owner, a["Knights"])).to_contain_text("Rallies: worked out when sent")
        owner.get_by_role("button", name="Next phase").click()
        expect(owner.locator("#where")).to_contain_text("Turn 2, Phase 1")
        pending = owner.locator("#game-pending")
        expect(pending).to_contain_text("Waiting to be sent (6)")
        expect(pending).to_contain_text("offline")
        # nothing of it reached the other phone, which still follows the server
        expect(opponent.locator("#where")).to_have_text("Turn 1, Phase 1: Shoot")
        assert Game.objects.get(pk=game.pk).actions.count() == 0

        # the phone's page is closed offline; the next one, online, sends what waited
        owner.close()
        owners.set_offline(False)
        owner = owners.new_page()
        owner.goto(f"{live_server.url}/games/{game.pk}/")
        expect(owner.locator("#game-pending")).to_be_hidden()
        expect(opponent.locator("#where")).to_have_text("Turn 2, Phase 1: Shoot")
        game.refresh_from_db()
        kinds = [x.kind for x in game.actions.order_by("number")]
        assert kinds == ["next_phase", "next_phase", "combat", "next_phase", "rally", "next_phase"]
        fought = game.actions.get(kind="combat").payload
        assert fought["phase"] == "melee" and fought["dice"] == [3]
        assert "flank" in fought["modifiers"]
        expect(opponent.locator("#log")).to_contain_text("Knights against Serjeants")
        screen_is_the_server(owner, game)
        screen_is_the_server(opponent, game)


def test_what_the_offline_phone_did_in_a_phase_the_other_phone_left_is_refused_and_shown(
    live_server, new_context, game
):
    with two_phones(live_server, new_context, game, NAMES) as phones:
        owners, owner, opponent, a, b = (
            phones.owners,
            phones.owner,
            phones.opponent,
            phones.a,
            phones.b,
        )
        offers_kept(owner, game)
        connection(owners, owner, on=False)
        choose(owner, a["Bowmen"], b["Serjeants"])
        owner.locator("#combat-offline").get_by_label("Die (leave empty to roll)").fill("4")
        owner.get_by_role("button", name="Apply when sent").click()
        owner.get_by_role("button", name="Next phase").click()
        expect(owner.locator("#game-pending")).to_contain_text("Waiting to be sent (2)")
        # meanwhile the other phone moves the game on to Phase 2
        opponent.get_by_role("button", name="Next phase").click()
        expect(opponent.locator("#where")).to_have_text("Turn 1, Phase 2: Move")

        connection(owners, owner, on=True)
        refused = owner.locator("#game-refused")
        expect(refused).to_contain_text("2 actions were not applied")
        expect(refused).to_contain_text("Bowmen against Serjeants")
        expect(refused).to_contain_text("moved on")
        expect(owner.locator("#game-pending")).to_be_hidden()
        game.refresh_from_db()
        assert [x.kind for x in game.actions.all()] == ["next_phase"]  # advanced once
        screen_is_the_server(owner, game)
        # shown until the player has read it, across a reload too
        owner.reload()
        expect(refused).to_contain_text("Bowmen against Serjeants")
        refused.get_by_role("button", name="Dismiss").click()
        expect(refused).to_be_hidden()


def test_offline_a_combat_is_chosen_by_tapping_the_attackers_and_the_targets_cards(
    live_server, new_context, game
):
    with two_phones(live_server, new_context, game, NAMES) as phones:
        owners, owner, a, b = phones.owners, phones.owner, phones.a, phones.b
        offers_kept(owner, game)
        connection(owners, owner, on=False)
        for phase in ("Phase 2", "Phase 3: Mêlée"):
            owner.get_by_role("button", name="Next phase").click()
            expect(owner.locator("#where")).to_contain_text(phase)
        card(owner, a["Knights"]).get_by_role("button", name="Attacker: Knights").click()
        expect(owner.locator("#combat-offline")).to_have_count(0)  # half a pair: nothing yet
        card(owner, b["Serjeants"]).get_by_role("button", name="Target: Serjeants").click()
        offline = owner.locator("#combat-offline")
        expect(offline.get_by_label("Armoured serjeants (applies by itself)")).to_be_checked()
        offline.get_by_label("Die (leave empty to roll)").fill("3")
        offline.get_by_role("button", name="Apply when sent").click()
        expect(card(owner, b["Serjeants"])).to_contain_text("hits worked out when sent")
        connection(owners, owner, on=True)
        expect(owner.locator("#log li[data-kind=combat]")).to_have_count(1)
        screen_is_the_server(owner, game)
