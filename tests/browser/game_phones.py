"""Games for the browser journeys: one between two of the owner's armies (solo play), and
two phones at it: the owner's (signed in) and the opponent's (the link to play, no
account, its seat taken with the page's button), each on its game page at 390 px."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.utils.text import slugify
from playwright.sync_api import BrowserContext, Page, expect

from armybuilder.armies.services import create_army
from armybuilder.games import services
from armybuilder.games.models import Game
from tests.browser.test_axe_audit import VIEWPORTS, logged_in_context
from tests.browser.test_game_pages_browser import _key
from tests.support import army

PHONE = VIEWPORTS["phone"]


def solo_game(ruleset: str, units: list[dict], mine: str, theirs: str) -> Game:
    """A game its owner plays against another army of theirs, both of ``units``."""
    user = User.objects.create_user("owner")
    return services.start_game(
        user,
        army_a=create_army(army(ruleset, units, name=mine), owner=user),
        army_b=create_army(army(ruleset, units, name=theirs), owner=user),
    )


def take_seat(page: Page) -> None:
    """The opponent's phone, on the link to play, taps "Take side ...'s seat" (opening the
    link never takes it) and is back on the page, now playing side B."""
    page.get_by_role("button", name="Take side").click()
    expect(page.locator("#seat")).to_contain_text("This phone plays")
    page.wait_for_load_state()  # its scripts running, as after a goto


def card(page: Page, key: str):
    return page.locator(f"#unit-{slugify(key)}")


@dataclass
class Phones:
    owners: BrowserContext
    opponents: BrowserContext
    owner: Page
    opponent: Page
    a: dict[str, str]  # side a's units by name: their keys in the game
    b: dict[str, str]


@contextmanager
def two_phones(
    live_server: Any, new_context: Any, game: Game, names: tuple[str, ...]
) -> Iterator[Phones]:
    play = services.set_link(game, which="play", on=True)
    owners = logged_in_context(new_context, live_server, game.owner, PHONE)
    opponents = new_context(viewport=PHONE)
    try:
        owner, opponent = owners.new_page(), opponents.new_page()
        owner.goto(f"{live_server.url}/games/{game.pk}/")
        opponent.goto(f"{live_server.url}/g/{play}/")
        if game.seated:  # on one phone the link to play holds no seat
            take_seat(opponent)
        yield Phones(owners, opponents, owner, opponent,
                     {n: _key(game, "a", n) for n in names},
                     {n: _key(game, "b", n) for n in names})  # fmt: skip
    finally:
        owners.close()
        opponents.close()


def connection(context: BrowserContext, page: Page, *, on: bool) -> None:
    """The phone's connection drops or returns, as the browser tells the page."""
    context.set_offline(not on)
    page.evaluate(f"window.dispatchEvent(new Event('{'online' if on else 'offline'}'))")
