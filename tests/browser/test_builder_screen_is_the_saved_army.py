"""The builder shows the army as saved: answers are applied in version order, a gap (a
change from another device, an answer that could not be applied) brings one fetch of
the builder morphed into place, and every part drawn from a unit follows it (its stat
line too). Each journey compares the page with a fresh page of the army."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from armybuilder.armies.changes import pipeline
from armybuilder.armies.changes.commands import Add, SetValue
from armybuilder.armies.models import Army
from tests.browser.screen import TIMEOUT, Held, same_as_fresh, settled, shown, throttle, unthrottle
from tests.browser.test_builder_journeys import make_army, open_builder, open_card, sign_in
from tests.support import unit_id

pytestmark = pytest.mark.browser


def tap(page: Page, index: int) -> None:
    page.locator("#add-unit-panel button.entry:not([aria-disabled=true])").nth(index).click()


def test_six_quick_taps_on_a_slow_link_draw_six_cards_the_server_has(
    live_server, page: Page, browser: Browser
):
    user = sign_in(page.context, live_server)
    page.set_default_timeout(TIMEOUT)
    page.goto(live_server.url + "/")
    page.get_by_label("Find an army list in every rule set").fill("Irish")
    results = page.locator("#find-results")
    d5 = results.locator("section, div, li", has=page.get_by_role("heading", name="(d5)"))
    results.locator("form", has_text="Irish").filter(has_not_text="Norse").nth(0)
    d5.locator("form", has_text="Irish").first.get_by_role("button").click()
    expect(page.locator("#army-title")).to_be_visible()
    army = Army.objects.get()
    assert army.ruleset == "dark-ages-d5"
    link = throttle(page, 150, 60)
    for n in range(6):
        tap(page, n % 3)
        page.wait_for_timeout(300)  # a player's pace, not a measurement
    settled(page)
    unthrottle(link)
    saved = Army.objects.get()
    assert len(saved.document["units"]) == 6
    assert len(shown(page)["cards"]) == 6
    same_as_fresh(page, browser, live_server, user, army.pk)


def test_a_change_from_another_device_between_two_of_mine_is_drawn(
    live_server, page: Page, browser: Browser
):
    """My answer follows a version the page never showed: the page fetches the builder
    once and shows the other device's rename and new unit, with my card still open."""
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 3)
    open_builder(page, live_server.url, saved)
    open_card(page, 1)
    saved.refresh_from_db()
    pipeline.run(saved, SetValue(saved.document["units"][2]["id"], "name", "Renamed on B"))
    saved.refresh_from_db()
    pipeline.run(saved, Add("units", "blank", "bnewunit", saved.version))
    box = page.locator(f"#u-{unit_id(page, 1)}-name")
    box.fill("Typed on A")
    box.press("Tab")
    settled(page)
    expect(page.locator("#unit-list > li.item")).to_have_count(4)
    expect(page.locator(f"#unit-{unit_id(page, 2)}-summary .item-name")).to_have_text(
        "Renamed on B"
    )
    # the card the player had open stays open
    expect(page.locator(f"#unit-{unit_id(page, 1)} details")).to_have_attribute("open", "")
    expect(page.locator("#pending-changes")).not_to_contain_text("another tab")
    same_as_fresh(page, browser, live_server, user, saved.pk)


@pytest.mark.parametrize(
    ("ruleset", "field"),
    [("feudal-2017", "advantage"), ("dark-ages-d5", "change")],
)
def test_determined_changes_the_open_cards_stat_line_and_back(
    live_server, page: Page, browser: Browser, ruleset, field
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, ruleset, 3)
    open_builder(page, live_server.url, saved)
    open_card(page, 0)
    card = page.locator(f"#unit-{unit_id(page, 0)}")
    stats = card.locator("dl.stats")
    expect(stats).to_contain_text("15")
    select = card.locator(f"[data-field='{field}'] select")
    select.select_option("determined")
    expect(stats).to_contain_text("18")
    expect(stats).not_to_contain_text("15")
    settled(page)
    same_as_fresh(page, browser, live_server, user, saved.pk)
    select.select_option("")
    expect(stats).to_contain_text("15")
    expect(stats).not_to_contain_text("18")
    settled(page)
    same_as_fresh(page, browser, live_server, user, saved.pk)


def test_notes_typed_while_a_roll_is_on_its_way_are_the_players_own_not_a_conflict(
    live_server, page: Page, browser: Browser
):
    """The roll writes the army's notes; the player types notes before its answer came
    back, made from the notes shown before the roll. They go in the next batch, which names
    the roll as this tab's own: saved, no conflict, and the page shows what is saved."""
    from armybuilder.armies import services
    from tests.support import army

    user = sign_in(page.context, live_server)
    saved = services.create_army(army("feudal-2017", [], army_list="feudal"), owner=user)
    open_builder(page, live_server.url, saved)
    link = throttle(page, 1500, 60)
    page.get_by_role("button", name="Roll a force").click()
    notes = page.locator("#army-notes")
    if not notes.is_visible():
        page.locator("#army-notes-wrap").locator("xpath=ancestor::details[1]/summary").click()
    notes.fill("Ambush on the left")
    notes.blur()
    settled(page)
    unthrottle(link)
    settled(page)
    saved.refresh_from_db()
    assert saved.document["notes"] == "Ambush on the left"
    assert saved.document["units"]  # the roll landed too
    expect(page.locator("[data-field].conflicted")).to_have_count(0)
    same_as_fresh(page, browser, live_server, user, saved.pk)


def test_an_open_cards_editor_fetched_before_an_edit_landed_does_not_draw_over_it(
    live_server, page: Page, browser: Browser
):
    """Another device renames a unit: the open card's editor is fetched again to follow
    it. On a slow link the player chooses Determined before that fetch answers, and the
    choice's answer (with its stat line) lands first: the editor drawn before it must not
    put the old stat line back."""
    user = sign_in(page.context, live_server)
    saved = make_army(user, "feudal-2017", 3)
    open_builder(page, live_server.url, saved)
    open_card(page, 0)
    first = unit_id(page, 0)
    card = page.locator(f"#unit-{first}")
    stats = card.locator("dl.stats")
    expect(stats).to_contain_text("15")
    editor_url = live_server.url + (card.get_attribute("data-editor") or "")
    held = []

    def hold(route):
        if held:
            route.continue_()
        else:
            held.append(route)  # claimed first: a later ask goes through while this one fetches
            held.append(route.fetch())  # the editor as the server drew it then

    page.route(editor_url, hold)
    saved.refresh_from_db()
    pipeline.run(saved, SetValue(first, "name", "Renamed elsewhere"))
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # asks the version
    expect(card.locator(".item-name")).to_have_text("Renamed elsewhere")
    for _ in range(200):  # the request reaches the route a moment after the page sent it
        if len(held) == 2:
            break
        page.wait_for_timeout(50)
    assert len(held) == 2, "the open card's editor is fetched again"

    card.locator("[data-field='advantage'] select").select_option("determined")
    expect(stats).to_contain_text("18")
    expect(page.locator("#pending-changes")).not_to_contain_text("not yet saved")
    route, answer = held
    route.fulfill(response=answer)
    settled(page)
    expect(stats).to_contain_text("18")
    same_as_fresh(page, browser, live_server, user, saved.pk)


def test_a_unit_being_deleted_has_its_editor_never_asked_for_again(
    live_server, page: Page, browser: Browser
):
    """The player deletes an open card on a slow link and another device's change is drawn
    before the delete lands: the server still draws the card, its editor older than the
    builder. Asking for that editor again would meet the delete (404) on its way: the card
    goes with the delete's answer, its editor is not fetched."""
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    open_builder(page, live_server.url, saved)
    open_card(page, 0)
    first, second = unit_id(page, 0), unit_id(page, 1)
    editor = Held(
        page, live_server.url + (page.locator(f"#unit-{first}").get_attribute("data-editor") or "")
    )
    delete = Held(page, f"**/armies/{saved.pk}/operations/")
    page.locator(f"#unit-{first} .item-actions").get_by_role("button", name="Delete").click()
    expect(page.locator("#pending-changes")).to_contain_text("Delete")
    saved.refresh_from_db()
    pipeline.run(saved, SetValue(second, "name", "Renamed elsewhere"))
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # asks the version
    expect(page.locator(f"#unit-{second}-summary .item-name")).to_have_text("Renamed elsewhere")
    for _ in range(200):  # the drawing done, or stuck on the editor asked for
        if editor.routes or not page.evaluate(
            "document.documentElement.hasAttribute('data-drawing')"
        ):
            break
        page.wait_for_timeout(50)
    asked = len(editor.routes)
    delete.let_go()
    expect(page.locator("#pending-changes")).to_be_hidden()
    editor.let_go()  # what was asked meets the delete now (404)
    assert asked == 0, "the editor of a unit being deleted was asked for again"
    settled(page)
    assert [card["id"] for card in shown(page)["cards"]] == [f"unit-{second}"]
    same_as_fresh(page, browser, live_server, user, saved.pk)
