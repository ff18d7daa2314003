"""Two phones at one Feudal game (and at a d5 Dark Ages one): the owner's (signed in) and
the opponent's (the link to play, no account) each act by the page's own forms, and after
every action the *other* phone shows it within the expect timeout without being reloaded
(game-follow.js); a phone in the middle of a form is only told the game moved on. A third,
with the link to watch, follows too and has no forms. At the end the owner's summary PDF
names the units lost."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import User
from django.utils.text import slugify
from playwright.sync_api import expect
from pypdf import PdfReader

from armybuilder.armies.services import create_army
from armybuilder.games import services
from tests.browser.game_phones import solo_game
from tests.browser.test_axe_audit import VIEWPORTS, logged_in_context
from tests.browser.test_game_pages_browser import _key
from tests.support import army

pytestmark = pytest.mark.browser

UNITS = [
    {"name": "Knights", "type": "knights"},
    {"name": "Serjeants", "type": "serjeants"},
    {"name": "Bowmen", "type": "bowmen"},
]
PHONE = VIEWPORTS["phone"]


@pytest.fixture
def game(db):
    return solo_game("feudal-2017", UNITS, "Normans", "Saxons")


def kept(page) -> None:
    """Marks the page: a reload would lose the mark."""
    page.evaluate("window.notReloaded = true")


def still_kept(page) -> None:
    assert page.evaluate("window.notReloaded === true"), "the page was reloaded"


def combat(page, attacker: str, target: str, die: str) -> None:
    page.locator("#attacker").select_option(value=attacker)
    page.locator("#target").select_option(value=target)
    page.get_by_role("button", name="Choose").click()
    page.locator("#combat").get_by_label("Die (leave empty to roll)").fill(die)
    page.get_by_role("button", name="Work out").click()
    page.get_by_role("button", name="Apply").click()


def follows(game, *pages) -> None:
    """Each page shows the game's latest version (its forms carry it)."""
    game.refresh_from_db()
    for page in pages:
        expect(page.locator("#game")).to_have_attribute("data-version", str(game.version))


def where(page):
    return page.locator("#where")


def log(page):
    return page.locator("#log")


def test_two_phones_follow_each_other_over_three_turns(live_server, new_context, game):
    play = services.set_link(game, which="play", on=True)
    view = services.set_link(game, which="view", on=True)
    a = {n: _key(game, "a", n) for n in ("Knights", "Serjeants", "Bowmen")}
    b = {n: _key(game, "b", n) for n in ("Knights", "Serjeants", "Bowmen")}
    contexts = [logged_in_context(new_context, live_server, game.owner, PHONE),
                new_context(viewport=PHONE), new_context(viewport=PHONE)]  # fmt: skip
    try:
        owner, opponent, watcher = (c.new_page() for c in contexts)
        owner.goto(f"{live_server.url}/games/{game.pk}/")
        opponent.goto(f"{live_server.url}/g/{play}/")
        watcher.goto(f"{live_server.url}/g/{view}/")
        for page in (opponent, watcher):
            kept(page)

        # turn 1: the owner's bowmen shoot, the opponent follows; the opponent's phases
        # and mêlée, the owner follows
        combat(owner, a["Bowmen"], b["Serjeants"], "4")
        kept(owner)
        expect(log(opponent)).to_contain_text("Bowmen")
        expect(log(watcher)).to_contain_text("Bowmen")
        for phase in ("Phase 2", "Phase 3: Mêlée"):
            opponent.get_by_role("button", name="Next phase").click()
            expect(where(owner)).to_contain_text(phase)
        combat(opponent, b["Knights"], a["Serjeants"], "3")
        kept(opponent)
        expect(log(owner)).to_contain_text("Knights")
        follows(game, owner)
        expect(owner.locator(f"#unit-{_slug(a['Serjeants'])}")).to_contain_text("hits")
        owner.get_by_role("button", name="Next phase").click()
        expect(where(opponent)).to_contain_text("Phase 4: Rally")
        # the rally, in the rally phase, by the opponent; taken back by the owner
        opponent.locator("#unit").select_option(value=b["Serjeants"])
        opponent.get_by_role("button", name="Rally").click()
        kept(opponent)
        expect(log(owner)).to_contain_text("rallies")
        owner.get_by_role("button", name="Undo").click()
        expect(log(opponent)).to_contain_text("(undone)")
        owner.get_by_role("button", name="Next phase").click()
        expect(where(opponent)).to_contain_text("Turn 2, Phase 1")

        # turn 2: the opponent's bowmen shoot; the owner removes a unit of theirs
        combat(opponent, b["Bowmen"], a["Bowmen"], "5")
        expect(log(owner)).to_contain_text("Turn 2")
        follows(game, owner, watcher)
        kept(owner)
        card = owner.locator(f"#unit-{_slug(b['Knights'])}")
        card.locator(".unit-more > summary").click()  # the card opens
        card.get_by_text("Remove from the table…").click()
        card.get_by_label("Why (routed, fled…)").fill("routed")
        card.get_by_role("button", name="Remove Knights").click()
        expect(opponent.locator(f"#unit-{_slug(b['Knights'])}")).to_contain_text("Removed")
        expect(watcher.locator(f"#unit-{_slug(b['Knights'])}")).to_contain_text("Removed")
        for _ in range(4):
            opponent.get_by_role("button", name="Next phase").click()
            kept(opponent)
        expect(where(owner)).to_contain_text("Turn 3, Phase 1")
        follows(game, owner, watcher)

        # turn 3: the owner is typing a die when the opponent acts: only a notice, and
        # the die typed stays; "Show it" draws the game as it stands
        owner.locator("#attacker").select_option(value=a["Bowmen"])
        owner.locator("#target").select_option(value=b["Serjeants"])
        owner.get_by_role("button", name="Choose").click()
        kept(owner)
        owner.locator("#combat").get_by_label("Die (leave empty to roll)").fill("6")
        still_kept(opponent)  # it followed the owner's Choose... and nothing else
        card = opponent.locator(f"#unit-{_slug(a['Knights'])}")
        card.locator(".unit-more > summary").click()  # the card opens
        card.get_by_text("Remove from the table…").click()
        card.get_by_role("button", name="Remove Knights").click()
        expect(owner.get_by_text("The game moved on:")).to_be_visible()
        expect(owner.locator(f"#unit-{_slug(a['Knights'])}")).not_to_contain_text("Removed")
        owner.get_by_role("button", name="Show it").click()
        expect(owner.locator(f"#unit-{_slug(a['Knights'])}")).to_contain_text("Removed")
        combat_die = owner.locator("#combat").get_by_label("Die (leave empty to roll)")
        expect(combat_die).to_have_value("6")
        expect(owner.get_by_text("The game moved on:")).to_be_hidden()
        still_kept(owner)
        owner.get_by_role("button", name="Work out").click()
        owner.get_by_role("button", name="Apply").click()
        expect(log(opponent)).to_contain_text("Turn 3")
        still_kept(watcher)

        # the link to watch: the state, no action forms, its POSTs 404
        expect(watcher.locator(f"#unit-{_slug(a['Knights'])}")).to_contain_text("Removed")
        assert watcher.locator("#game form").count() == 0
        token = watcher.evaluate('JSON.parse(document.body.getAttribute("hx-headers"))')
        refused = watcher.request.post(f"{live_server.url}/g/{view}/next-phase/",
                                       form={"version": str(game.version)}, headers=token,
                                       fail_on_status_code=False)  # fmt: skip
        assert refused.status == 404

        pdf = contexts[0].request.get(f"{live_server.url}/games/{game.pk}/summary.pdf")
        assert pdf.ok, pdf.status
        text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.body())).pages)
        assert "Turns played: 3" in text, text
        assert "Normans 1 of 3\nKnights" in text and "Saxons 1 of 3\nKnights" in text, text
    finally:
        for context in contexts:
            context.close()


def _slug(key: str) -> str:
    return slugify(key)


def test_a_d5_game_is_followed_both_ways(live_server, new_context, db):
    user = User.objects.create_user("owner")
    made = create_army(army("dark-ages-d5", [{"name": "A"}, {"name": "B"}], name="Host"),
                       owner=user)  # fmt: skip
    game = services.start_game(user, army_a=made, army_b=made)
    play = services.set_link(game, which="play", on=True)
    contexts = [logged_in_context(new_context, live_server, user, PHONE),
                new_context(viewport=PHONE)]  # fmt: skip
    try:
        owner, opponent = (c.new_page() for c in contexts)
        owner.goto(f"{live_server.url}/games/{game.pk}/")
        opponent.goto(f"{live_server.url}/g/{play}/")
        kept(opponent)
        for phase in ("2) Shooting", "3) Melee"):
            owner.get_by_role("button", name="Next phase").click()
            expect(where(opponent)).to_contain_text(phase)
        kept(owner)
        combat(opponent, _key(game, "b", "A"), _key(game, "a", "B"), "4")
        expect(log(owner)).to_contain_text("Dice: 4")
        follows(game, owner)
        still_kept(owner)
        card = owner.locator(f"#unit-{_slug(_key(game, 'b', 'B'))}")
        card.locator(".unit-more > summary").click()  # the card opens
        card.get_by_text("Remove from the table…").click()
        card.get_by_role("button", name="Remove B").click()
        expect(opponent.locator(f"#unit-{_slug(_key(game, 'b', 'B'))}")).to_contain_text("Removed")
        owner.get_by_role("button", name="Next phase").click()
        expect(where(opponent)).to_contain_text("4) Routs and Rallies")
        opponent.get_by_role("button", name="Undo").click()
        expect(where(owner)).to_contain_text("3) Melee")
    finally:
        for context in contexts:
            context.close()


def test_a_drawing_asked_before_a_newer_one_and_answered_after_it_is_not_drawn(
    live_server, new_context, game
):
    """The page asks for the game's drawing after its own action landed and again when
    the poll sees the game moved on; on a slow link the first answer can come last. It
    must not draw the game back to where it stood: a tap meanwhile would then be made
    from a phase the game has left, and refused."""
    phone = logged_in_context(new_context, live_server, game.owner, PHONE)
    page = phone.new_page()
    url = f"{live_server.url}/games/{game.pk}/"
    page.goto(url)
    page.evaluate(
        """() => {
          window.drawn = [];
          new MutationObserver(() => window.drawn.push(
              Number(document.getElementById('game').dataset.version)))
            .observe(document.body, {subtree: true, childList: true, attributes: true,
                                     attributeFilter: ['data-version']});
        }"""
    )
    held = []

    def hold_the_first(route):
        if route.request.resource_type != "fetch" or held:
            route.continue_()
            return
        # claimed before fetching: a second drawing asked while this one is fetched (the
        # poll's and the answer's, close together) goes through, it is not held as well
        held.append(route)
        held.append(route.fetch())  # the game as it stood after the tap
        services.next_phase(game, version=None)  # and the other phone moves it on

    page.route(url, hold_the_first)
    where(page).wait_for(state="visible")
    page.get_by_role("button", name="Next phase").click()
    expect(page.locator("#game")).to_have_attribute("data-version", "3")
    expect(where(page)).to_have_text("Turn 1, Phase 3: Mêlée")

    route, answer = held
    with page.expect_request_finished(lambda request: request.url == url):
        route.fulfill(response=answer)
    page.wait_for_timeout(1500)  # time for a late drawing to show, and a poll after it
    drawn = page.evaluate("window.drawn")
    assert drawn == sorted(drawn), f"the page went back to an older game: {drawn}"

    page.get_by_role("button", name="Next phase").click()
    expect(where(page)).to_contain_text("Phase 4")
    expect(page.locator("#game-pending")).to_be_hidden()
    expect(page.locator("#game")).to_have_attribute("data-version", "4")
    expect(page.locator("#game-refused")).to_be_hidden()
    assert [action.kind for action in game.actions.all()] == ["next_phase"] * 3
    phone.close()


def test_a_drawing_that_hangs_does_not_stop_the_page_following_the_game(
    live_server, new_context, game
):
    """The other phone moves the game on and the page asks for its drawing, which never
    comes (a link that stalls). When the game moves on again, the page asks anew and
    shows it: one stalled answer never stops a phone following the game."""
    phone = logged_in_context(new_context, live_server, game.owner, PHONE)
    page = phone.new_page()
    url = f"{live_server.url}/games/{game.pk}/"
    page.goto(url)
    stalled = []

    def stall_the_first(route):
        if route.request.resource_type != "fetch" or stalled:
            route.continue_()
        else:
            stalled.append(route)

    page.route(url, stall_the_first)
    where(page).wait_for(state="visible")
    services.next_phase(game, version=None)
    for _ in range(100):  # the poll sees it within a second and asks for the drawing
        if stalled:
            break
        page.wait_for_timeout(50)
    assert stalled, "the page asked for the game's drawing"
    services.next_phase(game, version=None)
    expect(page.locator("#game")).to_have_attribute("data-version", "3")
    expect(where(page)).to_have_text("Turn 1, Phase 3: Mêlée")
    with page.expect_request_finished(lambda request: request.url == url):
        stalled[0].continue_()  # the stalled drawing (the game at version 2 or later) comes
    page.wait_for_timeout(1500)  # time for it to show, and a poll after it
    expect(page.locator("#game")).to_have_attribute("data-version", "3")
    phone.close()
