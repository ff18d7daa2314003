"""Printing is honest. Online, Print gives the army as it is now and names the version it
makes. Offline, the order of battle kept on this device is offered only when it is of the
army as shown; otherwise the page says so and offers the browser's print of the page, whose
print stylesheet draws the roster from what is on screen."""

from __future__ import annotations

import io
import re

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from tests.browser.conftest import OFFLINE_LOAD_FAILURES
from tests.browser.test_builder_journeys import (
    make_army,
    open_builder,
    open_card,
    sign_in,
    wait_saved,
)
from tests.support import kept_with_editors, unit_id

KEPT_ROSTER = """async (url) => {
  for (let i = 0; i < 300; i++) {
    const kept = await caches.match(url);
    if (kept) { return kept.headers.get("X-Muster-Roster-Of"); }
    await new Promise((done) => setTimeout(done, 100));
  }
  return null;
}"""


def pdf_text(pdf: bytes) -> str:
    reader = PdfReader(io.BytesIO(pdf))
    return re.sub(r"\s+", " ", " ".join(page.extract_text() or "" for page in reader.pages))


def version_on_screen(page: Page) -> int:
    return int(page.locator("#army-version").get_attribute("value") or 0)


def rename_first(page: Page, name: str) -> None:
    open_card(page, 0)
    box = f"#u-{unit_id(page, 0)}-name"
    page.locator(box).fill(name)
    page.locator(box).press("Tab")


def print_offline(page: Page) -> None:
    page.locator("form.print-panel").get_by_role("button", name="Print").click()


def hold_operations(page: Page, saved):
    """The army's operations wait until the returned function lets them (and any later one)
    through: a request the route had not reached yet when released goes through too."""
    held = []

    def hold(route):
        if held and held[0] is None:
            route.continue_()
        else:
            held.append(route)

    page.route(f"**/armies/{saved.pk}/operations/", hold)

    def release():
        waiting = held[:]
        held[:] = [None]
        for route in waiting:
            route.continue_()

    return release


def roster_kept_under_the_worker(page: Page, live_server, saved) -> str:
    """The army's page opened under the worker, kept with its editors and its roster."""
    open_builder(page, live_server.url, saved)
    page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
    page.reload()
    expect(page.locator("#army-title")).to_be_visible()
    kept_with_editors(page)
    return page.evaluate(KEPT_ROSTER, f"/armies/{saved.pk}/roster.pdf")


@pytest.mark.browser
@pytest.mark.browser_context_args(service_workers="allow")
@pytest.mark.usefixtures("worker_settled")
@OFFLINE_LOAD_FAILURES
def test_offline_the_kept_pdf_is_offered_only_while_it_is_of_the_army_as_shown(
    live_server, page: Page
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    made = roster_kept_under_the_worker(page, live_server, saved)
    assert made == f"v{version_on_screen(page)}"
    page.context.set_offline(True)

    print_offline(page)
    status = page.locator("#print-status")
    expect(status).to_contain_text(f"of the army as shown (version {version_on_screen(page)})")
    link = status.get_by_role("link", name="Download the kept order of battle (PDF)")
    expect(link).to_have_attribute("href", f"/armies/{saved.pk}/roster.pdf")
    expect(status.get_by_role("button", name="Print this page")).to_have_count(0)

    # a change not saved yet: the kept file is no longer the army on screen
    rename_first(page, "Renamed offline")
    expect(page.locator("#pending-changes")).to_contain_text("1 change not yet saved")
    print_offline(page)
    expect(status).to_contain_text("not of the army as shown")
    expect(status).to_contain_text("with changes not yet saved")
    expect(
        status.get_by_role("link", name="Download the kept order of battle (PDF)")
    ).to_have_count(0)
    # the browser's print of this page, drawn from what is on screen
    page.evaluate(
        "() => { window.print = () => { window.printedPages = (window.printedPages || 0) + 1; }; }"
    )
    status.get_by_role("button", name="Print this page").click()
    assert page.evaluate("window.printedPages") == 1
    page.emulate_media(media="print")
    expect(page.locator("#add-unit-panel")).to_be_hidden()
    expect(page.locator("#settings")).to_be_hidden()
    first = unit_id(page, 0)
    expect(page.locator(f"#unit-{first}-summary .item-name")).to_be_visible()
    expect(page.locator(f"#unit-{first} .card-editor")).to_be_hidden()
    expect(page.locator("#unit-list > li.item")).to_have_count(2)
    expect(page.locator("#total-points")).to_be_visible()
    # the PDF link of the panel asks the same question before opening the kept file
    page.emulate_media(media="screen")
    status.evaluate("el => el.replaceChildren()")
    page.locator("#files").get_by_role("link", name="Order of battle (PDF)").click()
    expect(status).to_contain_text("not of the army as shown")


@pytest.mark.browser
@pytest.mark.browser_context_args(service_workers="allow")
@pytest.mark.usefixtures("worker_settled")
@OFFLINE_LOAD_FAILURES
def test_offline_right_after_a_saved_edit_the_older_kept_pdf_is_not_offered_as_current(
    live_server, page: Page
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    kept = roster_kept_under_the_worker(page, live_server, saved)
    rename_first(page, "Saved just now")
    wait_saved(page, f"#u-{unit_id(page, 0)}-name", "Saved just now")
    expect(page.locator("#army-version")).not_to_have_attribute("value", kept[1:])
    page.context.set_offline(True)  # before the worker kept a roster of the new version
    print_offline(page)
    status = page.locator("#print-status")
    expect(status).to_contain_text(
        f"is of version {kept[1:]}, not of the army as shown (version {version_on_screen(page)})"
    )
    expect(status.get_by_role("button", name="Print this page")).to_be_visible()
    expect(status.get_by_role("link")).to_have_count(0)


@pytest.mark.browser
def test_online_print_gives_the_army_as_it_is_now_and_names_its_version(live_server, page: Page):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    open_builder(page, live_server.url, saved)
    rename_first(page, "Printed as renamed")
    wait_saved(page, f"#u-{unit_id(page, 0)}-name", "Printed as renamed")
    version = version_on_screen(page)
    saved.refresh_from_db()
    assert version == saved.version
    with page.expect_download() as download_info:
        page.locator("form.print-panel").get_by_role("button", name="Print").click()
        expect(page.locator("#print-progress")).to_contain_text("Ready after")
    expect(page.locator("#print-progress")).to_contain_text(f"Version {version} of the army")
    with open(download_info.value.path(), "rb") as pdf:
        assert "Printed as renamed" in pdf_text(pdf.read())


@pytest.mark.browser
def test_online_print_waits_for_a_change_still_on_its_way_and_prints_it(live_server, page: Page):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    open_builder(page, live_server.url, saved)
    release = hold_operations(page, saved)  # the rename waits until Print was asked for
    asked = []  # the print requests the page made
    page.on(
        "request", lambda r: asked.append(r.url) if f"/armies/{saved.pk}/print/" in r.url else None
    )
    rename_first(page, "Printed once saved")
    expect(page.locator("#pending-changes")).to_contain_text("1 change not yet saved")
    page.locator("form.print-panel").get_by_role("button", name="Print").click()
    status = page.locator("#print-status")
    expect(status).to_contain_text("Saving your changes first")
    assert asked == []  # the server is not asked while it would print the version before
    with page.expect_download() as download_info:
        release()
        expect(page.locator("#print-progress")).to_contain_text("Ready after")
    saved.refresh_from_db()
    expect(page.locator("#print-progress")).to_contain_text(f"Version {saved.version} of the army")
    with open(download_info.value.path(), "rb") as pdf:
        assert "Printed once saved" in pdf_text(pdf.read())


@pytest.mark.browser
def test_online_a_pdf_link_waits_for_a_change_still_on_its_way(live_server, page: Page):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    open_builder(page, live_server.url, saved)
    release = hold_operations(page, saved)
    asked = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/roster.pdf") else None)
    rename_first(page, "Linked once saved")
    expect(page.locator("#pending-changes")).to_contain_text("1 change not yet saved")
    page.locator("#files").get_by_role("link", name="Order of battle (PDF)").click()
    expect(page.locator("#print-status")).to_contain_text("Saving your changes first")
    assert asked == []
    with page.expect_request(f"**/armies/{saved.pk}/roster.pdf"):
        release()
    saved.refresh_from_db()
    assert saved.document["units"][0]["name"] == "Linked once saved"
