"""At the table with no connection, a combat chosen on the phone shows its hits, its dice
and its steps (each citing the source's section) at once, worked out by the rules engine
in the page from the seed the phone chose; once the phone is back online the server's log
records exactly the same, and the page says so."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Page, expect

from armybuilder.games import services
from armybuilder.games.models import Game
from rules.combat import counted
from tests.browser.conftest import OFFLINE_LOAD_FAILURES, engine_ready
from tests.browser.game_phones import PHONE, card, connection, solo_game
from tests.browser.screen import Held
from tests.browser.test_game_pages_browser import _key

pytestmark = pytest.mark.browser

UNITS = [{"name": "Knights", "type": "knights"}, {"name": "Bowmen", "type": "bowmen"}]


def open_game(page: Page, live_server, game: Game) -> None:
    client = Client()
    client.force_login(game.owner)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    engine_ready(page)
    # the game's offers and table, kept on the phone as the page opens
    page.wait_for_function(
        f"() => (JSON.parse(localStorage.getItem('muster-offers-{game.pk}') || '{{}}')).table"
    )


@OFFLINE_LOAD_FAILURES
def test_offline_a_combat_shows_its_hits_and_steps_at_once_and_the_server_agrees(
    live_server, page_engine, db
):
    page: Page = page_engine
    game = solo_game("feudal-2017", UNITS, "Normans", "Saxons")
    bowmen, knights = _key(game, "a", "Bowmen"), _key(game, "b", "Knights")
    open_game(page, live_server, game)
    differences = page.evaluate_handle(
        "() => { const seen = []; document.addEventListener('muster:game-engine-differs',"
        " (e) => seen.push(e.detail)); return seen; }"
    )

    connection(page.context, page, on=False)
    page.locator("#attacker").select_option(value=bowmen)
    page.locator("#target").select_option(value=knights)
    page.get_by_role("button", name="Choose").click()
    offline = page.locator("#combat-offline")
    expect(offline).to_contain_text("worked out on this phone at once")
    offline.get_by_role("button", name="Apply when sent").click()  # no die: the phone's seed

    target = card(page, knights)
    worked = target.locator("[data-engine-worked]")
    expect(worked).to_contain_text("Turn 1, Phase 1: Shoot: Bowmen against Knights:")
    expect(worked).to_contain_text("(not yet saved)")
    expect(worked).to_contain_text(re.compile(r"Dice: \d \(rolled from seed [0-9a-f]{16}\)"))
    expect(worked.locator("ol.steps li cite").first).not_to_be_empty()
    said = worked.locator("p").first.inner_text()
    hits = int(re.search(r"Knights: (\d+) hits?\b", said).group(1))
    # the unit's new state, in the page's words, before any answer
    state = {0: "no hits", 1: "1 hit (not yet saved)"}.get(hits, f"{hits} hits (not yet saved)")
    expect(target).to_contain_text(state)  # the die is the phone's: 1 hit is said as one
    expect(page.locator("#game-pending")).to_contain_text(
        f"Bowmen against Knights (dice from this phone's seed): {said.split(' (not yet')[0]}"
    )
    assert Game.objects.get(pk=game.pk).actions.count() == 0

    connection(page.context, page, on=True)
    line = page.locator("#log li[data-kind=combat]")
    expect(line).to_have_attribute("data-engine", "same")
    expect(line).to_contain_text("Worked out on this phone: the same.")
    expect(page.locator("#game-differs")).to_be_hidden()
    expect(page.locator("#game-pending")).to_be_hidden()
    recorded = Game.objects.get(pk=game.pk).actions.get(kind="combat").payload
    assert recorded["result"]["hits"] == hits
    assert f"Dice: {recorded['dice'][0]} (rolled from seed {recorded['seed']})" in worked_text(line)
    assert differences.json_value() == []


def worked_text(line) -> str:
    return line.inner_text()


def choose(page: Page, attacker: str, target: str) -> None:
    page.locator("#attacker").select_option(value=attacker)
    page.locator("#target").select_option(value=target)
    page.get_by_role("button", name="Choose").click()


def test_online_work_out_is_answered_on_the_phone_and_applied_with_its_seed(
    live_server, page_engine, db
):
    page: Page = page_engine
    game = solo_game("feudal-2017", UNITS, "Normans", "Saxons")
    bowmen, knights = _key(game, "a", "Bowmen"), _key(game, "b", "Knights")
    open_game(page, live_server, game)
    choose(page, bowmen, knights)
    engine_ready(page)  # the pair chosen drew the page anew: its engine starts again
    posted = []
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
    page.get_by_role("button", name="Work out").click()

    here = page.locator("#combat-here")
    expect(here).to_contain_text("Bowmen against Knights:")
    expect(here).to_contain_text("(worked out on this phone)")
    expect(here.locator("ol.steps li cite").first).not_to_be_empty()
    shown = here.inner_text()
    dice = re.search(r"rolled from seed ([0-9a-f]{16})", shown)
    assert dice and posted == []  # nothing asked of the server to work it out

    here.get_by_role("button", name="Apply").click()
    line = page.locator("#log li[data-kind=combat]")
    expect(line).to_have_attribute("data-engine", "same")
    recorded = Game.objects.get(pk=game.pk).actions.get(kind="combat").payload
    assert recorded["seed"] == dice.group(1)
    result = recorded["result"]
    assert f"Knights: {counted(result['hits'], result['unit'])} (" in shown


@OFFLINE_LOAD_FAILURES
def test_a_server_result_other_than_the_phones_is_shown_both_ways_and_reported(
    live_server, page_engine, db
):
    page: Page = page_engine
    game = solo_game("feudal-2017", UNITS, "Normans", "Saxons")
    bowmen, knights = _key(game, "a", "Bowmen"), _key(game, "b", "Knights")
    open_game(page, live_server, game)
    page.evaluate(
        "() => { window.differs = []; document.addEventListener('muster:game-engine-differs',"
        " (e) => window.differs.push(e.detail)); }"
    )
    connection(page.context, page, on=False)
    choose(page, bowmen, knights)
    offline = page.locator("#combat-offline")
    offline.get_by_label("Die (leave empty to roll)").fill("4")
    offline.get_by_role("button", name="Apply when sent").click()
    expect(card(page, knights).locator("[data-engine-worked]")).to_contain_text(
        "Bowmen against Knights: 4 hits (4 in all)"
    )
    # meanwhile the other phone's bowmen hit the knights in the same phase
    services.apply_combat(
        game, version=game.version, attacker_id=bowmen, target_id=knights, modifiers=[], die=2
    )
    # the phone's drawing of that waits until its own combat has landed
    held = Held(page, re.compile(rf"/games/{game.pk}/(\?.*)?$"))
    connection(page.context, page, on=True)
    for _ in range(100):
        if Game.objects.get(pk=game.pk).actions.count() == 2:
            break
        page.wait_for_timeout(100)
    held.let_go()

    box = page.locator("#game-differs")
    expect(box).to_be_visible()
    expect(box).to_contain_text(
        "This phone: Turn 1, Phase 1: Shoot: Bowmen against Knights: 4 hits (4 in all)"
    )
    expect(box).to_contain_text(
        "The server: Turn 1, Phase 1: Shoot: Bowmen against Knights: 4 hits (6 in all)"
    )
    mine = page.locator("#log li[data-kind=combat][data-key]")
    expect(mine).to_have_attribute("data-engine", "differs")
    assert len(page.evaluate("window.differs")) == 1


@OFFLINE_LOAD_FAILURES
def test_offline_a_removal_a_force_morale_roll_and_a_rally_show_at_once_as_the_server_logs_them(
    live_server, page_engine, db
):
    page: Page = page_engine
    game = solo_game("feudal-2017", UNITS, "Normans", "Saxons")
    bowmen, knights = _key(game, "a", "Bowmen"), _key(game, "a", "Knights")
    open_game(page, live_server, game)
    page.evaluate(
        "() => { window.differs = []; document.addEventListener('muster:game-engine-differs',"
        " (e) => window.differs.push(e.detail)); }"
    )
    connection(page.context, page, on=False)
    # Normans lose their knights, roll force morale (two dice from the phone's seed)
    knights_card = card(page, knights)
    knights_card.locator(".unit-more > summary").click()  # the card opens
    knights_card.get_by_text("Remove from the table…").click()
    knights_card.get_by_label("Why (routed, fled…)").fill("fled")
    knights_card.get_by_role("button", name="Remove Knights").click()
    expect(knights_card).to_contain_text("Removed: fled (not yet saved)")
    expect(knights_card.locator(".unit-picks")).to_be_hidden()  # a removed unit is not picked
    morale = page.locator("form[data-op=force_morale][data-side-name=Normans]")
    morale.locator("#morale-count-a").select_option("2")
    morale.get_by_role("button", name="Force morale: Normans").click()
    rolled = page.locator("#side-a ~ [data-engine-worked]")
    expect(rolled).to_contain_text("force morale of Normans (1 of 2 units lost)")
    expect(rolled).to_contain_text(re.compile(r"Dice: \d, \d \(rolled from seed [0-9a-f]{16}\)"))
    # on to the rally phase, where the bowmen rally from the phone's seed
    for phase in ("Phase 2", "Phase 3", "Phase 4: Rally"):
        page.get_by_role("button", name="Next phase").click()
        expect(page.locator("#where")).to_contain_text(phase)
    page.locator("#unit").select_option(value=bowmen)
    page.get_by_role("button", name="Rally").click()
    rally = card(page, bowmen).locator("[data-engine-worked]")
    expect(rally).to_contain_text("Turn 1, Phase 4: Rally: Bowmen rallies:")
    expect(rally.locator("ol.steps li cite").first).not_to_be_empty()

    connection(page.context, page, on=True)
    for kind in ("remove", "force_morale", "rally"):
        expect(page.locator(f"#log li[data-kind={kind}]")).to_have_attribute("data-engine", "same")
    expect(page.locator("#game-differs")).to_be_hidden()
    assert page.evaluate("window.differs") == []
    assert [a.kind for a in Game.objects.get(pk=game.pk).actions.order_by("number")] == [
        "remove",
        "force_morale",
        "next_phase",
        "next_phase",
        "next_phase",
        "rally",
    ]
