"""Guided entries in Chromium: a d5 player takes an allied contingent in one tap per
unit, a Feudal player swaps a unit for the stand-in the list allows and undoes it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armybuilder.armies import services
from tests.browser.test_builder_journeys import (
    ARTIFACTS,
    TIMEOUT,
    document_of,
    open_builder,
    settled,
    sign_in,
)
from tests.support import unit_id

pytestmark = pytest.mark.browser


def test_a_d5_player_adds_an_allied_contingent_from_tiles_grouped_by_list(live_server, page):
    user = sign_in(page.context, live_server)
    saved = services.create_army(
        {"format": "muster.army/1", "name": "Raiders", "ruleset": "dark-ages-d5",
         "army_list": "viking", "units": []},
        owner=user,
    )  # fmt: skip
    open_builder(page, live_server.url, saved)
    group = page.locator("details.entry-group", has_text="Allies from Irish")
    expect(page.locator(".allies-head")).to_contain_text("Allies")
    group.locator("summary").click()
    for n, key in enumerate(("infantry", "infantry", "nobles")):
        group.locator(f"#add-entry-ally-irish-{key}").click()
        expect(page.locator(f"#unit-{unit_id(page, n)}")).to_be_visible()
        settled(page)
    # three allies: the list's tiles say the contingent is full; the page names lists
    expect(page.locator("#add-entry-ally-irish-raiders")).to_have_attribute("aria-disabled", "true")
    problems = page.locator("#issues").inner_text()
    assert "ally-" not in problems and "irish" not in problems
    page.screenshot(path=str(ARTIFACTS / "allies-d5.png"), full_page=True)
    document = document_of(saved)
    assert [u["ally"] for u in document["units"]] == ["irish"] * 3
    assert [u["name"] for u in document["units"]] == [
        "Irish spearmen",
        "Irish spearmen",
        "Irish nobles",
    ]


def test_a_feudal_stand_in_replaces_a_freemen_unit_and_undo_brings_it_back(live_server, page):
    user = sign_in(page.context, live_server)
    saved = services.create_army(
        {"format": "muster.army/1", "name": "Gwynedd", "ruleset": "feudal-2017",
         "army_list": "north-welsh",
         "units": [{"name": "Freemen of Arfon", "type": "freemen"},
                   {"name": "Teulu", "type": "knights"}]},
        owner=user,
    )  # fmt: skip
    before = document_of(saved)
    page.set_default_timeout(TIMEOUT)
    open_builder(page, live_server.url, saved)
    page.locator("#add-entry-freemen-as-brigans").click()
    expect(page.locator("#toast")).to_contain_text("Replaced Freemen of Arfon with Brigans")
    expect(page.locator("#unit-list > li.item")).to_have_count(2)  # replaced, not added
    first = page.locator("#unit-list > li.item").first.locator("summary")  # by place: undo
    expect(first).to_contain_text("Brigans")  # brings back the replaced unit, its own id
    settled(page)
    # nothing left to replace: the tile says so and stays marked
    tile = page.locator("#add-entry-freemen-as-brigans")
    expect(tile).to_have_attribute("aria-disabled", "true")
    expect(tile).to_contain_text("no Freemen to replace")
    page.locator("#toast").get_by_role("button", name="Undo").click()
    expect(first).to_contain_text("Freemen of Arfon")
    assert document_of(saved) == before


@pytest.mark.parametrize(
    "ruleset, list_slug", [("feudal-2017", "feudal"), ("dark-ages-d5", "viking")]
)
def test_nothing_moves_under_a_tap_while_the_builder_finishes_loading(
    live_server, page, ruleset, list_slug
):
    user = sign_in(page.context, live_server)
    saved = services.create_army(
        {"format": "muster.army/1", "name": "Still", "ruleset": ruleset, "army_list": list_slug,
         "units": []},
        owner=user,
    )  # fmt: skip
    page.add_init_script(
        "window.shifts = [];"
        "new PerformanceObserver(l => l.getEntries().forEach(e => window.shifts.push(e.value)))"
        ".observe({type: 'layout-shift', buffered: true});"
    )
    page.set_default_timeout(TIMEOUT)
    with page.expect_response(lambda r: r.url.endswith(f"/armies/{saved.pk}/lists/")):
        page.goto(f"{live_server.url}/armies/{saved.pk}/")  # the list-revision part loads after
    expect(page.locator("#list-upgrade:not([hx-trigger])")).to_have_count(1)  # swapped in
    settled(page)
    assert page.evaluate("window.shifts") == []
    expect(page.locator("#list-upgrade")).to_be_empty()  # nothing to say about the lists
