"""Two phones play a Feudal game on their own seats (390 px): the owner's phone plays the
Normans, the link to play the Saxons. In the Normans' player turn the Saxons' phone is
offered no attacker and no Next phase, and a combat of its units asked for anyway is
refused with 3.1 cited; the Normans fight in four taps; in the Saxons' turn their phone
fights; each log line names the phone, and Undo on one phone takes back its own only."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from armybuilder.armies.services import create_army
from armybuilder.games import services
from armybuilder.games.models import Game
from tests.browser.game_phones import card, two_phones
from tests.browser.test_game_pages_browser import audited
from tests.support import army

pytestmark = pytest.mark.browser

UNITS = [{"name": "Knights", "type": "knights"}, {"name": "Serjeants", "type": "serjeants"}]
NAMES = ("Knights", "Serjeants")


@pytest.fixture
def game(db) -> Game:
    user = User.objects.create_user("owner")
    mine = create_army(army("feudal-2017", UNITS, name="Normans"), owner=user)
    theirs = create_army(army("feudal-2017", UNITS, name="Saxons"), owner=user)
    return services.start_game(user, army_a=mine, army_b=theirs, seated=True)


def to_melee(page: Page, other: Page, turn: int) -> None:
    for phase in ("Phase 2: Move", "Phase 3: Mêlée"):
        page.get_by_role("button", name="Next phase").click()
        expect(other.locator("#where")).to_have_text(f"Turn {turn}, {phase}")


def fight(page: Page, attacker: str, target: str) -> int:
    """A combat by its cards, the die rolled: the taps it took."""
    taps = 0
    for button in (
        card(page, attacker).get_by_role("button", name="Attacker: Knights"),
        card(page, target).get_by_role("button", name="Target: Serjeants"),
        page.get_by_role("button", name="Work out"),
        page.get_by_role("button", name="Apply"),
    ):
        button.click()
        taps += 1
    return taps


def test_each_phone_plays_its_own_side_in_the_sources_turn_order(live_server, new_context, game):
    with two_phones(live_server, new_context, game, NAMES) as phones:
        owner, opponent, a, b = phones.owner, phones.opponent, phones.a, phones.b
        expect(owner.locator("#seat")).to_have_text("This phone plays Normans.")
        expect(opponent.locator("#seat")).to_have_text("This phone plays Saxons.")
        expect(opponent.locator("#whose")).to_have_text("Normans' player turn")
        to_melee(owner, opponent, 1)

        # the Normans' player turn: nothing of the Saxons' fights
        expect(opponent.get_by_role("button", name="Next phase")).to_be_hidden()
        expect(opponent.get_by_role("button", name="Undo")).to_be_hidden()  # nothing of its own
        expect(opponent.locator("#combat-waiting")).to_have_text(
            "Normans' player turn: Saxons' units fight in their own player turn "
            "(3.1 One-Sided Mêlée)."
        )
        expect(opponent.locator(".unit-picks button", has_text="Attacker")).to_have_count(0)
        audited(opponent, "seat-waiting")
        opponent.goto(f"{opponent.url.split('?')[0]}?attacker={b['Knights']}"
                      f"&target={a['Serjeants']}#combat")  # fmt: skip
        refusal = opponent.locator("#combat [role=alert]")
        expect(refusal).to_contain_text("It is Normans' player turn")
        expect(refusal).to_contain_text("3.1 One-Sided Mêlée")

        assert fight(owner, a["Knights"], b["Serjeants"]) == 4
        expect(opponent.locator("#log li").first).to_contain_text("— Normans' phone")
        expect(card(opponent, b["Serjeants"]).locator(".unit-state")).not_to_contain_text("no hits")

        # the Normans' phone ends its player turn: the Saxons' comes, on their phone
        owner.get_by_role("button", name="Next phase").click()  # to Phase 4: Rally
        owner.get_by_role("button", name="Next phase").click()  # Turn 2: the Saxons'
        expect(opponent.locator("#whose")).to_have_text("Saxons' player turn")
        expect(owner.get_by_role("button", name="Next phase")).to_be_hidden()
        to_melee(opponent, owner, 2)
        assert fight(opponent, b["Knights"], a["Serjeants"]) == 4
        expect(owner.locator("#log li").first).to_contain_text("— Saxons' phone")

        # Undo on the Saxons' phone takes back its own combat, never the Normans'
        opponent.get_by_role("button", name="Undo").click()
        expect(owner.locator("#log li").first).to_contain_text("— Saxons' phone")
        expect(card(owner, a["Serjeants"]).locator(".unit-state")).to_have_text("no hits")
        opponent.get_by_role("button", name="Undo").click()  # its Next phases, then nothing
        opponent.get_by_role("button", name="Undo").click()
        expect(opponent.locator("#where")).to_have_text("Turn 2, Phase 1: Shoot")
        expect(owner.locator("#where")).to_have_text("Turn 2, Phase 1: Shoot")
        expect(owner.locator("#log li.undone")).to_have_count(3)
        expect(owner.get_by_role("button", name="Undo")).to_be_visible()  # its own stand
        combats = game.actions.filter(kind="combat")
        assert [(c.seat, c.undone) for c in combats] == [("a", False), ("b", True)]
        audited(owner, "seat-log")


DARK_AGES = [{"name": "Warband", "type": "warband"}, {"name": "Shieldwall", "type": "infantry"}]


def test_in_dark_ages_the_other_phone_is_refused_by_one_sided_melee(live_server, new_context):
    user = User.objects.create_user("dark")
    sides = [create_army(army("dark-ages-2015", DARK_AGES, name=name), owner=user)
             for name in ("Saxons", "Danes")]  # fmt: skip
    game = services.start_game(user, army_a=sides[0], army_b=sides[1], seated=True, first="b")
    with two_phones(live_server, new_context, game, ("Warband", "Shieldwall")) as phones:
        owner, opponent, a, b = phones.owner, phones.opponent, phones.a, phones.b
        expect(owner.locator("#whose")).to_have_text("Danes' player turn")  # Danes go first
        for phase in ("2) Shooting", "3) Melee"):
            opponent.get_by_role("button", name="Next phase").click()
            expect(owner.locator("#where")).to_have_text(f"Turn 1, {phase}")
        owner.goto(f"{owner.url.split('?')[0]}?attacker={a['Warband']}"
                   f"&target={b['Shieldwall']}#combat")  # fmt: skip
        refusal = owner.locator("#combat [role=alert]")
        expect(refusal).to_contain_text("It is Danes' player turn")
        expect(refusal).to_contain_text("One-Sided Melee")
        taps = 0
        for button in (
            card(opponent, b["Warband"]).get_by_role("button", name="Attacker: Warband"),
            card(opponent, a["Shieldwall"]).get_by_role("button", name="Target: Shieldwall"),
            opponent.get_by_role("button", name="Work out"),
            opponent.get_by_role("button", name="Apply"),
        ):
            button.click()
            taps += 1
        assert taps == 4
        expect(owner.locator("#log li").first).to_contain_text("Warband against Shieldwall")
        expect(owner.locator("#log li").first).to_contain_text("— Danes' phone")
        expect(owner.get_by_role("button", name="Undo")).to_be_hidden()  # nothing of its own
        assert [(c.seat, c.undone) for c in game.actions.filter(kind="combat")] == [("b", False)]
