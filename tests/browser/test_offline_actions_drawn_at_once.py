"""Offline, an added, duplicated, deleted or moved unit shows at once, marked "not yet
saved", and the count follows; with the page's engine the total is exact at once, without
it the page says the points come back online; after the tab is closed and opened again
offline the page shows the same; back online the cards and the total are the server's."""

from __future__ import annotations

import json
import time

import pytest
from django.test import Client
from playwright.sync_api import Browser, Page, expect

import rules
from armybuilder.armies import services
from armybuilder.armies.changes import pipeline
from armybuilder.armies.changes.commands import SetValue
from armybuilder.armies.models import Army
from armybuilder.catalog.selectors import army_lookup
from tests.browser.conftest import OFFLINE_LOAD_FAILURES, engine_ready
from tests.browser.screen import Held, same_as_fresh, settled, under_the_worker
from tests.browser.test_builder_journeys import (
    TIMEOUT,
    entry_units,
    make_army,
    open_builder,
    sign_in,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.browser_context_args(service_workers="allow"),
    OFFLINE_LOAD_FAILURES,
    pytest.mark.usefixtures("worker_settled"),
]

SHOWN = "Array.from(document.querySelectorAll('#unit-list > li.item:not([hidden])')).map(c => c.id)"


def shown(page: Page) -> list[str]:
    """The ids of the unit cards the player sees, in order."""
    return [card.removeprefix("unit-") for card in page.evaluate(SHOWN)]


def card_points(page: Page, ident: str) -> int:
    return int(page.locator(f"#unit-{ident}-summary .points").get_attribute("data-points"))


def opened(page: Page, ident: str) -> None:
    if page.locator(f"#unit-{ident} details").get_attribute("open") is None:
        page.locator(f"#unit-{ident} summary").click()
    expect(page.locator(f"#unit-{ident} .item-actions")).to_be_visible()


def exported(browser: Browser, live_server, user, saved: Army) -> dict:
    """The army as a fresh browser of the same player downloads it (export.json)."""
    client = Client()
    client.force_login(user)
    context = browser.new_context()
    cookie = client.cookies["sessionid"].value
    context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])
    try:
        answer = context.request.get(f"{live_server.url}/armies/{saved.pk}/export.json")
        assert answer.ok
        return json.loads(answer.text())
    finally:
        context.close()


def server_total(saved: Army) -> int:
    saved.refresh_from_db()
    return rules.check(rules.parse_document(saved.document, army_lookup(saved))).total_points


def test_offline_add_duplicate_delete_and_move_show_at_once_and_the_engine_totals_them(
    live_server, page_engine: Page, browser: Browser
):
    page = page_engine
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 3)  # Viking list: Hirdmen 1, Bondi 2, Bondi 3
    under_the_worker(page, live_server.url, saved.pk)
    engine_ready(page)
    first, second, third = shown(page)
    total = server_total(saved)
    expect(page.locator("#total-points")).to_have_text(str(total))
    tile = page.locator("#add-entry-hird")
    hird_cost = int(tile.locator(".entry-cost").text_content().split()[0])  # "112 pts"
    page.context.set_offline(True)

    tile.click()
    expect(page.locator("#unit-list > li.item[data-optimistic]")).to_have_count(1)
    added = page.locator("#unit-list > li.item[data-optimistic]").get_attribute("data-client-id")
    card = page.locator(f"#unit-{added}")
    expect(card.locator(".item-name")).to_have_text("Hirdmen")
    expect(card).to_contain_text("not yet saved")
    expect(page.locator("#units-count")).to_have_text("(4)")
    total += hird_cost
    expect(page.locator("#total-points")).to_have_text(str(total))
    expect(page.locator("#army-totals .estimate-note")).to_have_count(0)
    assert shown(page) == [first, second, third, added]

    opened(page, first)
    page.locator(f"#unit-{first} .item-actions").get_by_role("button", name="Duplicate").click()
    expect(page.locator("#unit-list > li.item[data-optimistic]")).to_have_count(2)
    copy = shown(page)[1]
    assert copy not in (first, second, third, added)
    expect(page.locator(f"#unit-{copy}")).to_contain_text("not yet saved")
    # the copy has its unit's name: the engine numbers the two as the server will
    expect(page.locator(f"#unit-{copy} .item-name")).to_have_text("Hirdmen 1 (2)")
    expect(page.locator(f"#unit-{first}-summary .item-name")).to_have_text("Hirdmen 1 (1)")
    total += card_points(page, first)
    expect(page.locator("#total-points")).to_have_text(str(total))
    expect(page.locator("#units-count")).to_have_text("(5)")

    opened(page, second)
    total -= card_points(page, second)
    page.locator(f"#unit-{second} .item-actions button.danger").click()
    expect(page.locator(f"#unit-{second}")).to_be_hidden()
    expect(page.locator("#toast")).to_contain_text("Deleted")
    expect(page.locator("#toast").get_by_role("button", name="Undo")).to_be_visible()
    expect(page.locator("#units-count")).to_have_text("(4)")
    expect(page.locator("#total-points")).to_have_text(str(total))

    opened(page, first)  # one card open at a time: opening the second closed it
    page.locator(f"#unit-{first} .item-actions").get_by_role("button", name="Down").click()
    expected = [copy, first, third, added]
    expect(page.locator("#unit-list > li.item:not([hidden])").first).to_have_id(f"unit-{copy}")
    assert shown(page) == expected
    expect(page.locator("#pending-changes")).to_contain_text("4 changes not yet saved")
    estimate = page.locator("#army-totals .total-line").text_content()

    # the tab closed and opened again without a connection: the same army on screen
    context = page.context
    page.close()
    again = context.new_page()
    again.set_default_timeout(TIMEOUT)
    again.goto(f"{live_server.url}/armies/{saved.pk}/")
    expect(again.locator("#army-title")).to_be_visible()
    expect(again.locator("#pending-changes")).to_contain_text("4 changes not yet saved")
    expect(again.locator("#unit-list > li.item[data-optimistic]")).to_have_count(2)
    engine_ready(again)  # started offline, from the copy the device keeps
    expect(again.locator("#unit-list > li.item:not([hidden])").first).to_have_id(f"unit-{copy}")
    assert shown(again) == expected
    expect(again.locator("#units-count")).to_have_text("(4)")
    expect(again.locator("#total-points")).to_have_text(str(total))
    assert again.locator("#army-totals .total-line").text_content() == estimate

    context.set_offline(False)
    again.evaluate("window.dispatchEvent(new Event('online'))")
    expect(again.locator("#pending-changes")).to_be_hidden()
    expect(again.locator("[data-optimistic], [data-optimistic-gone]")).to_have_count(0)
    units = exported(browser, live_server, user, saved)["units"]
    assert [u["id"] for u in units] == expected
    expect(again.locator("#unit-list > li.item")).to_have_count(4)
    assert shown(again) == expected
    assert server_total(saved) == total
    expect(again.locator("#total-points")).to_have_text(str(total))
    expect(again.locator(".estimate-note")).to_have_count(0)
    expect(again.locator("#units-count")).to_have_text("(4)")


def test_a_delete_made_offline_is_taken_back_by_its_undo_before_it_is_sent(
    live_server, page: Page, browser: Browser
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    under_the_worker(page, live_server.url, saved.pk)
    first, second = shown(page)
    total = page.locator("#total-points").text_content()
    page.context.set_offline(True)
    opened(page, first)
    page.locator(f"#unit-{first} .item-actions button.danger").click()
    expect(page.locator(f"#unit-{first}")).to_be_hidden()
    expect(page.locator("#total-points")).not_to_have_text(total)
    undo = page.locator("#toast").get_by_role("button", name="Undo")
    page.set_viewport_size({"width": 390, "height": 844})  # on a phone the toast reads on
    box, said = undo.bounding_box(), page.locator("#toast .toast-box").bounding_box()
    assert box and said and box["width"] > box["height"], f"Undo stands on one line: {box}"
    assert said["height"] < 70, f"the toast is no narrow column of four lines: {said}"
    undo.click()
    expect(page.locator(f"#unit-{first}")).to_be_visible()
    expect(page.locator("#pending-changes")).to_be_hidden()
    expect(page.locator("#total-points")).to_have_text(total)
    expect(page.locator(".estimate-note")).to_have_count(0)
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    assert [u["id"] for u in exported(browser, live_server, user, saved)["units"]] == [
        first,
        second,
    ]


def test_the_picker_counts_follow_a_unit_added_offline(live_server, page: Page):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 3)
    under_the_worker(page, live_server.url, saved.pk)
    tile = page.locator("#add-entry-bondi")
    before = tile.locator(".entry-count").text_content()
    page.context.set_offline(True)
    tile.click()
    expect(page.locator("#unit-list > li.item[data-optimistic]")).to_have_count(1)
    expect(tile.locator(".entry-count")).not_to_have_text(before)
    offline = tile.locator(".entry-count").text_content()
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#pending-changes")).to_be_hidden()
    expect(page.locator("[data-optimistic]")).to_have_count(0)
    # the server's own count once it drew the picker again: what the page had worked out
    expect(page.locator("#unit-list > li.item")).to_have_count(4)
    expect(page.locator("#add-entry-bondi .entry-count")).to_have_text(offline)


def test_the_picker_counts_follow_a_delete_and_a_duplicate_of_the_servers_cards(
    live_server, page: Page
):
    user = sign_in(page.context, live_server)
    units = entry_units("into-the-dark", "viking", ["hird", "hird", "bondi", "bondi"])
    for i, unit in enumerate(units):
        unit["name"] = f"{unit['name']} {i + 1}"
    document = {"format": "muster.army/1", "name": "Counts", "ruleset": "into-the-dark"}
    saved = services.create_army({**document, "army_list": "viking", "units": units}, owner=user)
    under_the_worker(page, live_server.url, saved.pk)
    _, second_hird, first_bondi, second_bondi = shown(page)
    hird, bondi = page.locator("#add-entry-hird"), page.locator("#add-entry-bondi")
    # the server's cards name the tiles they count on (Viking: Hirdmen 1-2, Bondi 2-8)
    expect(page.locator(f"#unit-{second_hird}")).to_have_attribute("data-entry", "entry:hird")
    expect(page.locator(f"#unit-{first_bondi}")).to_have_attribute("data-entry", "entry:bondi")
    expect(hird.locator(".entry-count")).to_have_text("list maximum reached")
    expect(hird).to_have_attribute("aria-disabled", "true")
    expect(bondi.locator(".entry-count")).to_have_text("up to 6 more")
    page.context.set_offline(True)

    opened(page, second_hird)
    page.locator(f"#unit-{second_hird} .item-actions button.danger").click()
    expect(page.locator(f"#unit-{second_hird}")).to_be_hidden()
    expect(hird.locator(".entry-count")).to_have_text("up to 1 more")
    expect(hird).not_to_have_attribute("aria-disabled", "true")  # room again: it adds

    opened(page, second_bondi)
    page.locator(f"#unit-{second_bondi} .item-actions").get_by_role(
        "button", name="Duplicate"
    ).click()
    expect(page.locator("#unit-list > li.item[data-optimistic]")).to_have_count(1)
    expect(page.locator("#unit-list > li.item[data-optimistic]")).to_have_attribute(
        "data-entry", "entry:bondi"
    )
    expect(bondi.locator(".entry-count")).to_have_text("up to 5 more")

    opened(page, first_bondi)
    page.locator(f"#unit-{first_bondi} .item-actions button.danger").click()
    expect(page.locator(f"#unit-{first_bondi}")).to_be_hidden()
    expect(bondi.locator(".entry-count")).to_have_text("up to 6 more")  # one copied, one gone

    hird.click()  # the tile the delete freed takes a unit offline too
    expect(page.locator("#unit-list > li.item[data-optimistic]")).to_have_count(2)
    expect(hird.locator(".entry-count")).to_have_text("list maximum reached")
    expect(hird).to_have_attribute("aria-disabled", "true")
    expect(page.locator("#units-count")).to_have_text("(4)")
    shown_offline = {
        "hird": hird.locator(".entry-count").text_content(),
        "bondi": bondi.locator(".entry-count").text_content(),
    }

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#pending-changes")).to_be_hidden()
    expect(page.locator("[data-optimistic], [data-optimistic-gone]")).to_have_count(0)
    expect(page.locator("#unit-list > li.item")).to_have_count(4)
    # the server's own counts once it drew the picker again: what the page had worked out
    for key, text in shown_offline.items():
        expect(page.locator(f"#add-entry-{key} .entry-count")).to_have_text(text)
    saved.refresh_from_db()
    kept = [u["id"] for u in saved.document["units"]]
    assert second_hird not in kept and first_bondi not in kept and len(kept) == 4


def test_online_the_card_drawn_at_once_is_replaced_in_place_by_the_servers(live_server, page: Page):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    open_builder(page, live_server.url, saved)
    add = Held(page, f"**/armies/{saved.pk}/operations/")  # until the drawn card is seen
    page.locator("#add-entry-bondi").click()
    drawn = page.locator("#unit-list > li.item[data-optimistic]")
    expect(drawn).to_have_count(1)
    expect(drawn).to_contain_text("not yet saved")
    ident = drawn.get_attribute("data-client-id")
    assert shown(page)[-1] == ident
    add.let_go()
    expect(page.locator("#pending-changes")).to_be_hidden()
    expect(page.locator("[data-optimistic]")).to_have_count(0)
    expect(page.locator(f"#unit-{ident}")).to_have_count(1)
    expect(page.locator(f"#unit-{ident}")).not_to_contain_text("not yet saved")
    assert shown(page)[-1] == ident
    saved.refresh_from_db()
    assert [u["id"] for u in saved.document["units"]] == shown(page)
    page.unroute_all(behavior="ignoreErrors")


WATCH_GONE = """ident => {
  window.__goneAt = [];
  new MutationObserver(() => {
    if (!document.getElementById("unit-" + ident)) { window.__goneAt.push(performance.now()); }
  }).observe(document.body, { childList: true, subtree: true });
}"""


def test_a_part_of_the_page_the_server_sends_meanwhile_never_hides_the_drawn_card(
    live_server, page: Page
):
    """The list's revisions (fetched as the builder opens) land while an added unit waits
    for its answer: the unit's card, drawn at once, stays on the screen throughout."""
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    revisions = []  # each waits until let go
    page.route(f"**/armies/{saved.pk}/lists/", lambda route: revisions.append(route))
    add = Held(page, f"**/armies/{saved.pk}/operations/")
    open_builder(page, live_server.url, saved)
    page.locator("#add-entry-bondi").click()
    drawn = page.locator("#unit-list > li.item[data-optimistic]")
    expect(drawn).to_have_count(1)
    ident = drawn.get_attribute("data-client-id")
    page.evaluate(f"({WATCH_GONE})({json.dumps(ident)})")
    assert revisions, "the builder asks for the list's revisions as it opens"
    with page.expect_response(f"**/armies/{saved.pk}/lists/"):
        revisions.pop().continue_()
    expect(page.locator(".htmx-added, .htmx-settling")).to_have_count(0)
    assert page.evaluate("window.__goneAt") == []
    assert shown(page)[-1] == ident
    add.let_go()
    expect(page.locator("[data-optimistic]")).to_have_count(0)
    saved.refresh_from_db()
    assert [u["id"] for u in saved.document["units"]] == shown(page)


def test_a_rule_set_without_points_counts_the_units_drawn_offline(live_server, page: Page):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "dark-ages-d5", 3)
    under_the_worker(page, live_server.url, saved.pk)
    line = page.locator("#army-totals .total-line")
    expect(line).to_have_text("3 units")
    tile = page.locator(
        "#add-unit-panel button[name=preset][data-unit]:not([aria-disabled=true])"
    ).first
    page.context.set_offline(True)
    tile.click()
    expect(page.locator("#unit-list > li.item[data-optimistic]")).to_have_count(1)
    expect(line).to_contain_text("4 units")
    expect(line).to_contain_text("offline estimate")
    expect(page.locator("#units-count")).to_have_text("(4)")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#pending-changes")).to_be_hidden()
    expect(page.locator("[data-optimistic]")).to_have_count(0)
    expect(line).to_have_text("4 units")


def test_a_general_and_a_unit_of_the_drop_down_added_offline_show_at_once(live_server, page: Page):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    under_the_worker(page, live_server.url, saved.pk)
    page.context.set_offline(True)

    page.get_by_role("button", name="Add a general").click()
    general = page.locator("#general-list > li.item[data-optimistic]")
    expect(general).to_have_count(1)
    expect(general).to_contain_text("not yet saved")
    expect(page.locator("#generals-count")).to_have_text("(1)")
    general_id = general.get_attribute("data-client-id")

    page.locator("#add-preset-button").click()  # the drop-down's unit: its points unknown here
    unit = page.locator("#unit-list > li.item[data-optimistic]")
    expect(unit).to_have_count(1)
    expect(unit).to_contain_text("not yet saved")
    expect(page.locator("#units-count")).to_have_text("(3)")
    expect(page.locator("#army-totals .total-line")).to_contain_text("points when back online")
    unit_id = unit.get_attribute("data-client-id")
    assert shown(page)[-1] == unit_id

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#pending-changes")).to_be_hidden()
    expect(page.locator("[data-optimistic]")).to_have_count(0)
    expect(page.locator(f"#general-{general_id}")).to_have_count(1)
    expect(page.locator("#generals-count")).to_have_text("(1)")
    expect(page.locator("#units-count")).to_have_text("(3)")
    expect(page.locator(".estimate-note")).to_have_count(0)
    expect(page.locator("#total-points")).to_have_text(str(server_total(saved)))
    assert [u["id"] for u in saved.document["units"]] == shown(page)


def test_a_redraw_from_another_devices_change_never_hides_the_drawn_card(live_server, page: Page):
    """Another device renames a unit while an added unit waits for its answer: the builder
    is drawn again (morphed) and the added unit's card stays on the screen throughout."""
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    open_builder(page, live_server.url, saved)
    first = shown(page)[0]
    opened(page, first)
    add = Held(page, f"**/armies/{saved.pk}/operations/")  # until the redraw is seen
    page.locator("#add-entry-bondi").click()
    drawn = page.locator("#unit-list > li.item[data-optimistic]")
    expect(drawn).to_have_count(1)
    ident = drawn.get_attribute("data-client-id")
    page.evaluate(f"({WATCH_GONE})({json.dumps(ident)})")
    saved.refresh_from_db()
    pipeline.run(saved, SetValue(first, "name", "Renamed on the phone"))
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # asks the version
    expect(page.locator(f"#unit-{first}-summary .item-name")).to_have_text("Renamed on the phone")
    expect(page.locator(f"#u-{first}-name")).to_have_value("Renamed on the phone")
    assert page.evaluate("window.__goneAt") == []
    assert shown(page)[-1] == ident
    add.let_go()
    expect(page.locator("[data-optimistic]")).to_have_count(0)
    saved.refresh_from_db()
    assert [u["id"] for u in saved.document["units"]] == shown(page)


def test_a_move_sent_as_the_tab_closed_is_shown_once_by_the_next_page(
    live_server, page: Page, browser: Browser
):
    """A card moved offline; the connection returns and the player closes the tab, which
    sends the move as it goes. The next page is drawn with the move saved while its queue
    still holds it: drawn ahead again it showed the card moved twice until a reload."""
    user = sign_in(page.context, live_server)
    saved = make_army(user, "feudal-2017", 4)
    under_the_worker(page, live_server.url, saved.pk)
    ids = shown(page)
    page.context.set_offline(True)
    opened(page, ids[1])
    page.locator(f"#unit-{ids[1]} [data-op=move][data-value=down]").click()
    moved = [ids[0], ids[2], ids[1], ids[3]]
    expect(page.locator("#pending-changes")).to_contain_text("not yet saved")
    assert shown(page) == moved
    page.context.set_offline(False)
    page.close(run_before_unload=True)  # the tab sends what waits as it goes
    for _ in range(100):
        saved.refresh_from_db()
        if [u["id"] for u in saved.document["units"]] == moved:
            break
        time.sleep(0.05)  # the keepalive request is on its way
    assert [u["id"] for u in saved.document["units"]] == moved
    again = page.context.new_page()
    again.set_default_timeout(TIMEOUT)
    again.goto(f"{live_server.url}/armies/{saved.pk}/")
    # the device's queue read (the move may still be in it) and sent again: then settled
    expect(again.locator("html[data-queue-read]")).to_have_count(1)
    settled(again)
    expect(again.locator("#pending-changes")).to_be_hidden()
    expect(again.locator("#army-version")).to_have_value(str(saved.version))
    assert shown(again) == moved
    same_as_fresh(again, browser, live_server, user, saved.pk)
