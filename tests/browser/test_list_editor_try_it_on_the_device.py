"""The list editor's "Try it" worked out on the device, on a 390 px phone: an author's own
list edited without a connection shows the sample army's points and problems at once, from
the page's engine, and once back online the server's drawing says the same (a difference
is reported on the page and on the console, which fails these tests)."""

from __future__ import annotations

import dataclasses

import pytest
from playwright.sync_api import Page, expect

import rules
from armybuilder.catalog.list_trial import try_list
from armybuilder.catalog.models import ArmyList
from tests.browser.conftest import OFFLINE_LOAD_FAILURES, engine_ready
from tests.browser.test_list_editor_browser import TIMEOUT, item_of, own_list, sign_in
from tests.browser.test_list_editor_offline import answered, leave
from tests.support import kept_with_editors

pytestmark = [pytest.mark.browser, OFFLINE_LOAD_FAILURES]

ITD = "into-the-dark"
AT_ONCE = 3_000  # the device's answer, with no server to wait for
MOUNTED_TOO_MANY = "Mounted troops: 450 of 798 points; the list allows at most 1/10 of the points."


def open_swiss(page: Page, live_server) -> ArmyList:
    page.set_viewport_size({"width": 390, "height": 844})
    page.set_default_timeout(TIMEOUT)
    user = sign_in(page.context, live_server, "ann")
    public = ArmyList.objects.get(ruleset=ITD, slug="swiss", author=None)
    made = own_list(user, ITD, "Our Swiss", public.data)
    page.goto(f"{live_server.url}/rulesets/{ITD}/lists/{made.slug}/edit/")
    engine_ready(page)
    return made


def test_an_own_list_edited_offline_shows_try_its_points_and_problems_at_once_as_the_server(
    live_server, page_engine
):
    page: Page = page_engine
    made = open_swiss(page, live_server)
    panel = page.locator("#list-try")
    # the engine tried the list as the server drew it, and agrees
    expect(panel).to_have_attribute("data-engine-check", "same")
    expect(panel.locator(".trial-points")).to_have_text("348 points")
    expect(panel.locator("[data-engine-status]")).to_have_attribute("data-engine-state", "ready")

    page.context.set_offline(True)
    mounted = item_of(page, "entries", 3)
    most = mounted.get_by_label("At most", exact=True)
    most.fill("3")
    leave(page, most)
    least = mounted.get_by_label("At least", exact=True)
    least.fill("3")
    leave(page, least)
    # three allied mounted men-at-arms: more mounted points than the list allows
    expect(panel).to_have_attribute("data-trial-from", "device", timeout=AT_ONCE)
    expect(panel.locator(".trial-points")).to_have_text("798 points", timeout=AT_ONCE)
    expect(panel.locator(".trial-problems .error")).to_have_text([MOUNTED_TOO_MANY])
    expect(panel.locator(".tiles li").last).to_have_text("3 × Allied mounted men-at-arms")
    expect(panel.locator("[data-trial-note]")).to_contain_text("changes not sent yet")
    made.refresh_from_db()
    assert made.latest_revision == 1  # nothing reached the server
    on_device = panel.locator("[data-trial-drawn]").inner_text()

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    answered(page)
    expect(page.locator("#list-editor .meta")).to_contain_text("revision 3")
    # the server's drawing is in place, and the engine's trial of it is the same
    expect(panel).to_have_attribute("data-trial-from", "server")
    expect(panel).to_have_attribute("data-engine-check", "same")
    assert panel.locator("[data-trial-drawn]").inner_text() == on_device
    made.refresh_from_db()
    server = try_list(rules.get_ruleset(ITD), made)
    assert (server.points, server.errors) == (798, (MOUNTED_TOO_MANY,))


def test_a_change_the_list_refuses_is_left_out_of_try_it_at_once_as_the_server_refuses_it(
    live_server, page_engine
):
    page: Page = page_engine
    made = open_swiss(page, live_server)
    panel = page.locator("#list-try")
    expect(panel).to_have_attribute("data-engine-check", "same")
    page.context.set_offline(True)
    pikemen = item_of(page, "entries", 0)
    least = pikemen.get_by_label("At least", exact=True)
    least.fill("9")  # more than its most, 8: the list refuses it
    leave(page, least)
    expect(panel.locator("[data-trial-note]")).to_contain_text(
        "Left out, the list refuses it: Entry 1, At least: at most 8 is fewer than at least 9.",
        timeout=AT_ONCE,
    )
    expect(panel.locator(".trial-points")).to_have_text("348 points")

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#list-editor .field-error").first).to_be_visible()
    expect(panel).to_have_attribute("data-engine-check", "same")
    made.refresh_from_db()
    assert made.latest_revision == 1


def make_mounted_three(page: Page) -> None:
    mounted = item_of(page, "entries", 3)
    for label in ("At most", "At least"):
        control = mounted.get_by_label(label, exact=True)
        control.fill("3")
        leave(page, control)


@pytest.mark.browser_context_args(service_workers="allow")
@pytest.mark.usefixtures("worker_settled")
def test_changes_left_offline_are_tried_again_by_the_page_reloaded_without_a_connection(
    live_server, page_engine
):
    page: Page = page_engine
    made = open_swiss(page, live_server)
    page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
    page.reload()  # under the worker: the page and the engine are kept on the device
    kept_with_editors(page)
    engine_ready(page)
    page.context.set_offline(True)
    make_mounted_three(page)
    panel = page.locator("#list-try")
    expect(panel.locator(".trial-points")).to_have_text("798 points", timeout=AT_ONCE)
    page.reload()  # still offline: the kept page, its engine, the waiting changes
    engine_ready(page)
    expect(panel).to_have_attribute("data-trial-from", "device")
    expect(panel.locator(".trial-points")).to_have_text("798 points")
    expect(panel.locator(".trial-problems .error")).to_have_text([MOUNTED_TOO_MANY])
    made.refresh_from_db()
    assert made.latest_revision == 1
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    answered(page)
    expect(panel).to_have_attribute("data-engine-check", "same")
    expect(panel.locator(".trial-points")).to_have_text("798 points")


@pytest.mark.expected_console_errors(
    r"^Muster engine: the server and this device differ on the list's Try it: server "
)
def test_a_server_trial_the_device_does_not_find_is_reported_on_the_panel_and_the_console(
    live_server, page_engine, monkeypatch
):
    from armybuilder.catalog import list_page_controls

    def one_point_more(ruleset, army_list):
        found = try_list(ruleset, army_list)
        return dataclasses.replace(found, points=found.points + 1)

    # a planted defect in the server's drawing: the page must not take it silently
    monkeypatch.setattr(list_page_controls, "try_list", one_point_more)
    page: Page = page_engine
    open_swiss(page, live_server)
    panel = page.locator("#list-try")
    expect(panel).to_have_attribute("data-engine-check", "differs")
    # the server stays the judge of what is shown; the difference is said, never hidden
    expect(panel.locator(".trial-points")).to_have_text("349 points")
