"""The upgrade diff of an army's list on a 390 px phone: the page never scrolls sideways,
no heading or cell breaks a word, the reasons a unit becomes illegal are read whole, and
a tightened limit says so, one change a line.
Screenshot: test-artifacts/list-upgrade-390.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

import rules
from armybuilder.armies import services
from armybuilder.catalog import services as catalog_services
from armybuilder.catalog.models import ArmyList
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_builder_journeys import sign_in
from tests.browser.test_pages_browser import horizontal_overflow
from tests.support import army

pytestmark = pytest.mark.browser

TIMEOUT = 15_000


def test_the_upgrade_diff_reads_cleanly_on_a_phone(live_server, page: Page):
    page.set_default_timeout(TIMEOUT)
    page.set_viewport_size({"width": 390, "height": 844})
    user = sign_in(page.context, live_server)
    viking = ArmyList.objects.get(ruleset="into-the-dark", slug="viking")
    entry = rules.get_ruleset("into-the-dark").list_entries(viking.data, None)[0]
    units = [dict(entry.values, name=f"Unit {i}") for i in range(2)]
    # a unit of the last entry, which the newer revision drops: a reason of its own
    last = rules.get_ruleset("into-the-dark").list_entries(viking.data, None)[-1]
    units.append(dict(last.values, name="Dropped"))
    saved = services.create_army(army("into-the-dark", units, army_list="viking"), owner=user)
    (limit,) = viking.data["limits"]
    first = {**viking.data["entries"][0], "max": 1, "note": "Fewer now."}
    catalog_services.save_list(
        viking,
        data={
            **viking.data,
            "limits": [{**limit, "max_share": "1/20"}],
            "entries": [first, *viking.data["entries"][1:-1]],
        },
    )
    page.goto(f"{live_server.url}/armies/{saved.pk}/lists/")
    panel = page.locator("#list-upgrade")
    expect(panel.locator("li[data-change]", has_text="(limit)")).to_contain_text("tightened")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "list-upgrade-390.png"), full_page=True)
    assert horizontal_overflow(page) <= 0
    # a cell narrower than its longest word would break it ("Poin ts now")
    # (the table's head row is kept for screen readers only on a phone, out of sight)
    broken = panel.locator("tbody th, td, li, h2, h3, p").evaluate_all(
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
    )
    assert broken == []
    assert ".;" not in panel.inner_text()
    # the reasons a unit is not legal after the upgrade are read whole, within the phone's
    # width: no cell of the table runs off the side (nor hides in a sideways scroll)
    reasons = panel.locator("table.unit-changes tbody td:nth-child(5) li")  # After
    expect(reasons.first).to_be_visible()
    edges = panel.locator("table.unit-changes th, table.unit-changes td, table.unit-changes li")
    sides = edges.evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; })"
    )
    assert sides and all(left >= 0 and right <= 390 for left, right in sides), sides
    scrolled = panel.locator(".table-wrap").evaluate("e => e.scrollWidth - e.clientWidth")
    assert scrolled <= 0
