"""The game companion on a 390 px phone: a combat chosen, worked out, applied and taken
back by the page's own forms; no sideways scroll; no serious or critical axe violation.
Screenshots go to test-artifacts/ (``game-<step>.png``)."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth.models import User
from playwright.sync_api import expect

from armybuilder.armies.services import create_army
from armybuilder.games import selectors, services
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_axe_audit import BLOCKING, VIEWPORTS, logged_in_context, readable
from tests.support import army

pytestmark = pytest.mark.browser

KNIGHTS = {"name": "Knights", "type": "knights"}
SERJEANTS = {"name": "Serjeants", "type": "serjeants"}


@pytest.fixture
def world(db):
    user = User.objects.create_user("gamer")
    mine = create_army(army("feudal-2017", [KNIGHTS, SERJEANTS], name="Normans"), owner=user)
    theirs = create_army(army("feudal-2017", [SERJEANTS, KNIGHTS], name="Saxons"), owner=user)
    game = services.start_game(user, army_a=mine, army_b=theirs)
    for _ in range(2):  # to Phase 3: Mêlée
        services.next_phase(game, version=game.version)
    return user, game


def audited(page, step: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"game-{step}.png"), full_page=True)
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{step}: {overflow}px of sideways scroll"
    blocking = [v for v in Axe().run(page).response["violations"] if v["impact"] in BLOCKING]
    assert not blocking, f"axe on {step}:\n" + readable(blocking)


def test_a_combat_worked_out_applied_and_undone_on_a_phone(live_server, new_context, world):
    user, game = world
    context = logged_in_context(new_context, live_server, user, VIEWPORTS["phone"])
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/games/{game.pk}/")
        audited(page, "page")
        page.locator("#attacker").select_option(value=_key(game, "a", "Knights"))
        page.locator("#target").select_option(value=_key(game, "b", "Knights"))
        page.get_by_role("button", name="Choose").click()
        page.get_by_label("Contacting the target's flank").check()
        page.locator("#combat").get_by_label("Die (leave empty to roll)").fill("3")
        audited(page, "pair")
        page.get_by_role("button", name="Work out").click()
        assert page.get_by_text("Die 3 +2 knights = 5 hits (3.2a)").is_visible()
        audited(page, "worked")
        page.get_by_role("button", name="Apply").click()
        # sent by the page's queue, then drawn from the server (the log shows it)
        expect(page.locator("#log")).to_contain_text("10 hits (10 in all)")
        assert selectors.state_of(game).of(_key(game, "b", "Knights")).damage == {"hits": 10}
        audited(page, "applied")
        page.get_by_role("button", name="Undo").click()
        expect(page.get_by_text("(undone)")).to_be_visible()
        assert selectors.state_of(game).of(_key(game, "b", "Knights")).damage == {}
    finally:
        context.close()


def test_a_combat_without_a_modifier_takes_four_taps_from_the_units_cards(
    live_server, new_context, world
):
    user, game = world
    context = logged_in_context(new_context, live_server, user, VIEWPORTS["phone"])
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/games/{game.pk}/")
        taps = 0

        def tap(locator):
            nonlocal taps
            locator.click()
            taps += 1

        # the units of both sides come first, above the combat's forms
        first_card = page.locator(".unit-card").first.bounding_box()
        assert first_card["y"] < page.locator("#combat").bounding_box()["y"]
        tap(page.get_by_role("button", name="Attacker: Knights").first)  # side a's knights
        expect(page.get_by_role("button", name="Attacker: Knights").first).to_have_attribute(
            "aria-pressed", "true")  # fmt: skip
        tap(page.locator("#side-b ~ .unit-cards").get_by_role("button", name="Target: Knights"))
        tap(page.get_by_role("button", name="Work out"))  # the die left empty: rolled
        tap(page.get_by_role("button", name="Apply"))
        expect(page.locator("#log")).to_contain_text("Knights against Knights")
        assert taps == 4
        assert game.actions.filter(kind="combat").count() == 1
        audited(page, "four-taps")
    finally:
        context.close()


def test_my_games_on_a_phone(live_server, new_context, world):
    user, _ = world
    context = logged_in_context(new_context, live_server, user, VIEWPORTS["phone"])
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/games/")
        audited(page, "mine")
    finally:
        context.close()


def _key(game, side: str, name: str) -> str:
    return next(c.key for c in selectors.side_view(game, key=side).cards if c.name == name)


def test_force_morale_rolled_through_the_pages_queue_routs_a_side(live_server, new_context, world):
    user, game = world
    for name in ("Knights", "Serjeants"):
        services.remove_unit(
            game, version=game.version, unit_id=_key(game, "b", name), why="Destroyed"
        )
    context = logged_in_context(new_context, live_server, user, VIEWPORTS["phone"])
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/games/{game.pk}/")
        form = page.locator('form[data-op="force_morale"]', has_text="Saxons")
        form.get_by_label("Dice (leave empty to roll)").fill("2")  # halved: 1, against 2 lost
        form.get_by_role("button", name="Force morale: Saxons").click()
        expect(page.locator("#side-b")).to_contain_text("Routed")
        expect(page.locator("#log")).to_contain_text("force morale of Saxons")
        assert selectors.state_of(game).routed["b"].endswith("(Force Morale)")
        audited(page, "routed")
    finally:
        context.close()


TWELVE = [
    {"name": name, "type": kind}
    for name, kind in (
        ("Knights", "knights"), ("Serjeants", "serjeants"), ("Bowmen", "bowmen"),
        ("Brigans", "brigans"), ("Freemen", "freemen"),
    )
] * 3  # fmt: skip


def test_a_feudal_game_of_twelve_units_a_side_is_at_most_three_phone_screens(
    live_server, new_context
):
    user = User.objects.create_user("twelve")
    sides = [
        create_army(army("feudal-2017", TWELVE[:12], name=name), owner=user)
        for name in ("Normans", "Saxons")
    ]
    game = services.start_game(user, army_a=sides[0], army_b=sides[1], seated=True)
    phone = VIEWPORTS["phone"]
    context = logged_in_context(new_context, live_server, user, phone)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/games/{game.pk}/")
        expect(page.locator(".unit-card")).to_have_count(24)
        high = page.evaluate("document.documentElement.scrollHeight")
        print(f"feudal 12 a side: {high} px, {high / phone['height']:.2f} screens")
        assert high <= 3 * phone["height"], f"{high} px: {high / phone['height']:.1f} screens"
        audited(page, "twelve-a-side")
    finally:
        context.close()
