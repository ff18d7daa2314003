"""What the device keeps offline, in Chromium with the service worker: every army page a
player opens (the first one on the device and one reached by its URL included) with its
roster, My armies as the signed-in player last saw it, nothing of the player once they log
out, and nothing of a share link once it is revoked and the device has been online since.
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Error, Page, expect

from armybuilder.armies import services
from armybuilder.armies.making import lifecycle
from armybuilder.armies.models import Army
from tests.browser.conftest import OFFLINE_LOAD_FAILURES
from tests.browser.test_builder_journeys import (
    ARTIFACTS,
    PLANS,
    TIMEOUT,
    document_of,
    entry_units,
    make_army,
    open_card,
    sign_in,
)
from tests.support import control, item_id

# the service worker is what these journeys prove
pytestmark = [
    pytest.mark.browser,
    pytest.mark.browser_context_args(service_workers="allow"),
    OFFLINE_LOAD_FAILURES,
]

NOT_KEPT = "This page has not been opened on this device yet"

# whether `url` is (wanted=true) or is not (false) among the kept pages, waiting up to 15 s
# for the worker to get there; answers what it found last
KEPT = """async ([url, wanted]) => {
  const kept = async () => {
    for (const name of (await caches.keys()).filter(n => n.startsWith('muster-pages-'))) {
      if (await (await caches.open(name)).match(url)) { return true; }
    }
    return false;
  };
  for (let i = 0; i < 150; i++) {
    if (await kept() === wanted) { return wanted; }
    await new Promise(done => setTimeout(done, 100));
  }
  return kept();
}"""
# whether the kept copy of `url` comes to hold `text`, waiting up to 15 s
KEPT_TEXT = """async ([url, text]) => {
  for (let i = 0; i < 150; i++) {
    const hit = await caches.match(url);
    if (hit && (await hit.text()).includes(text)) { return true; }
    await new Promise(done => setTimeout(done, 100));
  }
  return false;
}"""
FETCH = """url => fetch(url).then(
  r => [r.status, r.headers.get('content-type').split(';')[0]], e => 'no answer')"""
WORKER_READY = "navigator.serviceWorker.ready.then(r => !!r.active)"


@pytest.fixture(autouse=True)
def _worker_settled_before_the_context_closes(page: Page):
    """The context closes once the page's service worker is ready (at most 5 s), not in
    the middle of its install."""
    page.set_default_timeout(TIMEOUT)
    yield
    with suppress(Error):
        page.context.set_offline(False)
        page.evaluate(
            "Promise.race([navigator.serviceWorker.ready,"
            " new Promise(done => setTimeout(done, 5000))]).then(() => true)"
        )


def named_army(user: Any, name: str) -> Army:
    """An army of two units from the Viking list, named `name`."""
    list_slug, plan = PLANS["into-the-dark"]
    units = entry_units("into-the-dark", list_slug, plan[:2])
    for i, unit in enumerate(units):
        unit["name"] = f"{unit.get('name', 'Unit')} {i + 1}"
    document = {
        "format": "muster.army/1",
        "name": name,
        "ruleset": "into-the-dark",
        "army_list": list_slug,
        "units": units,
    }
    return services.create_army(document, owner=user)


def back_online(page: Page) -> None:
    """The connection returns: once the page sees it (navigator.onLine), its online event."""
    page.context.set_offline(False)
    page.evaluate(
        """async () => {
          for (let i = 0; i < 100 && !navigator.onLine; i++) {
            await new Promise(done => setTimeout(done, 50));
          }
          window.dispatchEvent(new Event('online'));
        }"""
    )


def kept(page: Page, url: str) -> bool:
    return page.evaluate(KEPT, [url, True])


def gone(page: Page, url: str) -> bool:
    return not page.evaluate(KEPT, [url, False])


def opens_offline(page: Page, url: str, text: str) -> bool:
    """Whether the page at `url` opens (offline) and shows `text`."""
    response = page.goto(url)
    return response is not None and response.ok and text in page.content()


def test_an_army_opened_first_by_its_url_reads_offline_with_its_roster_and_an_edit_lands(
    live_server, page: Page
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    url = f"{live_server.url}/armies/{saved.pk}/"
    roster = f"{url}roster.pdf"
    page.goto(url)  # the first page on this device: no worker saw it load
    expect(page.locator("#army-title")).to_be_visible()
    assert kept(page, url) and kept(page, roster)

    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#army-title")).to_have_text(saved.name)
    expect(page.locator("#offline-notice")).to_be_visible()
    expect(page.locator("#offline-copy")).to_contain_text("as last seen")
    print_link = page.locator("#files").get_by_role("link", name="Order of battle (PDF)")
    assert page.evaluate(FETCH, print_link.get_attribute("href")) == [200, "application/pdf"]

    # an edit made on the kept copy waits, and lands when the connection returns
    name = "#" + control(saved, 0, "name")
    open_card(page, 0)
    page.locator(name).fill("Named offline")
    page.locator(name).press("Tab")
    expect(page.locator(f"{name}-wrap .field-state")).to_contain_text("Not saved")
    page.set_viewport_size({"width": 390, "height": 844})
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "offline-builder-phone.png"))
    back_online(page)
    expect(page.locator(f"{name}-wrap .field-state")).to_have_text("Saved")
    units = document_of(saved)["units"]
    assert units[0]["name"] == "Named offline" and units[1]["name"] != "Named offline"


def test_my_armies_offline_lists_the_signed_in_players_armies_marked_offline(
    live_server, page: Page
):
    base = live_server.url
    page.goto(f"{base}/")  # a visitor first: the worker installs with the signed-out shell
    assert page.evaluate(WORKER_READY)
    # the player's armies stand before the browser holds their session: a fetch of the
    # worker's own under way as the cookie is set would otherwise keep an empty My armies
    user = User.objects.create_user("player", password="a-long-Pass-123")
    for name in ("Raiders of the Fens", "Shield Wall"):
        named_army(user, name)
    client = Client()
    client.force_login(user)
    page.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                               "url": base}])  # fmt: skip
    page.goto(f"{base}/")  # signed in now: the worker keeps this player's start page
    assert page.evaluate(KEPT_TEXT, [f"{base}/armies/", "Shield Wall"])

    page.context.set_offline(True)
    page.goto(f"{base}/armies/")
    armies = page.locator("table.armies")
    expect(armies).to_contain_text("Raiders of the Fens")
    expect(armies).to_contain_text("Shield Wall")
    expect(page.locator("h1")).to_have_text("My armies")
    expect(page.locator("#offline-notice")).to_contain_text("You are offline")
    expect(page.locator("#offline-copy")).to_be_visible()
    expect(page.get_by_text("You are building without an account")).to_have_count(0)
    page.set_viewport_size({"width": 390, "height": 844})
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "offline-my-armies-phone.png"), full_page=True)


# the army page's revisions, still loading as the player logs out, are no longer theirs (404)
@pytest.mark.expected_console_errors(
    r"^Response Status Error Code 404 from /armies/\d+/lists/, \[object HTMLDivElement\]$"
)
@pytest.mark.parametrize("browser_clears_site_data", [True, False], ids=["header", "worker"])
def test_after_log_out_none_of_the_players_pages_or_documents_open_offline(
    live_server, page: Page, browser_clears_site_data: bool
):
    base = live_server.url
    user = sign_in(page.context, live_server)
    saved = named_army(user, "Secret Host")
    army = f"{base}/armies/{saved.pk}/"
    pages = [army, f"{army}history/", f"{base}/armies/"]
    documents = [f"{army}export.json", f"{army}roster.pdf"]
    page.goto(army)
    expect(page.locator("#army-title")).to_be_visible()
    assert kept(page, army)  # the worker is ready: the pages and fetches below pass through it
    for url in pages[1:]:
        page.goto(url)
    for url in documents:
        assert page.evaluate(FETCH, url)[0] == 200
    assert [url for url in pages + documents if not kept(page, url)] == []
    # they do open offline while the player is signed in
    page.context.set_offline(True)
    assert opens_offline(page, army, "Secret Host")
    page.context.set_offline(False)
    page.goto(army)

    if not browser_clears_site_data:
        # a browser that ignores Clear-Site-Data: the worker alone must drop the copies
        def without_clear_site_data(route):
            answer = route.fetch(max_redirects=0)
            headers = {k: v for k, v in answer.headers.items() if k != "clear-site-data"}
            route.fulfill(response=answer, headers=headers)

        page.route("**/accounts/logout/", without_clear_site_data)
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    assert page.evaluate(WORKER_READY)
    assert [url for url in pages + documents if not gone(page, url)] == []

    page.context.set_offline(True)
    for url in pages:
        response = page.goto(url)
        assert response is not None and response.status == 503, url
        expect(page.get_by_text(NOT_KEPT)).to_be_visible()
        assert "Secret Host" not in page.content()
    for url in documents:
        assert page.evaluate(FETCH, url) == "no answer", url


# the revoked link's page answers 404 online, as it should
@pytest.mark.expected_console_errors(
    r"^Failed to load resource: the server responded with a status of 404 \(Not Found\)$"
)
@pytest.mark.parametrize(
    ("revoke", "online_again"),
    [
        ("regenerated", "the connection returns"),
        ("turned off", "the connection returns"),
        ("regenerated", "the link is opened again"),
    ],
)
def test_a_revoked_share_page_is_not_served_offline_once_the_device_has_been_online_since(
    live_server, page: Page, revoke: str, online_again: str
):
    owner = User.objects.create_user("owner", password="a-long-Pass-123")
    saved = named_army(owner, "Lent Host")
    services.regenerate_share_token(saved)  # new armies are private: its owner shares it
    shared = f"{live_server.url}/s/{saved.share_token}/"
    page.goto(shared)
    expect(page.get_by_text("Lent Host").first).to_be_visible()
    assert kept(page, shared) and kept(page, f"{shared}roster.pdf")
    if online_again == "the connection returns":
        page.context.set_offline(True)
        assert opens_offline(page, shared, "Lent Host")  # kept while the link is good

    if revoke == "regenerated":
        lifecycle.regenerate_share_token(saved)
    else:
        lifecycle.stop_sharing(saved)
    if online_again == "the connection returns":  # the worker asks the kept link again
        back_online(page)
    else:  # the link itself answers 404 now
        assert page.goto(shared).status == 404
    assert gone(page, shared) and gone(page, f"{shared}roster.pdf")

    page.context.set_offline(True)
    response = page.goto(shared)
    assert response is not None and response.status == 503
    expect(page.get_by_text(NOT_KEPT)).to_be_visible()
    assert "Lent Host" not in page.content()


def test_pages_opened_before_the_worker_was_ready_are_all_kept(live_server, page: Page):
    user = sign_in(page.context, live_server)
    first, second = named_army(user, "First Host"), named_army(user, "Second Host")
    urls = [f"{live_server.url}/armies/{army.pk}/" for army in (first, second)]
    for url in urls:  # the player goes on before a first worker has installed
        page.goto(url, wait_until="domcontentloaded")
    assert kept(page, urls[0]) and kept(page, urls[1])
    page.context.set_offline(True)
    assert opens_offline(page, urls[0], "First Host")


def test_a_page_the_first_worker_claims_while_it_loads_is_kept(live_server, page: Page):
    """The worker installed from another tab activates while this page is still loading:
    it takes the page over (a controller) without ever having seen it come."""
    user = sign_in(page.context, live_server)
    first, second = named_army(user, "First Host"), named_army(user, "Second Host")
    url = f"{live_server.url}/armies/{second.pk}/"
    held: list[Any] = []
    page.route("**/static/js/app.js*", lambda route: held.append(route))  # held: not run yet
    page.goto(url, wait_until="commit")
    other = page.context.new_page()
    other.goto(f"{live_server.url}/armies/{first.pk}/")
    assert other.evaluate(WORKER_READY)  # active: it claimed every page of the site
    page.wait_for_function("() => !!navigator.serviceWorker.controller")
    for route in held:
        route.continue_()
    expect(page.get_by_text("Second Host").first).to_be_visible()
    assert kept(page, url)
    other.close()
    page.context.set_offline(True)
    assert opens_offline(page, url, "Second Host")


# back online, the army's page asks for its version: the army is gone (404)
@pytest.mark.expected_console_errors(
    r"^Failed to load resource: the server responded with a status of 404 \(Not Found\)$"
)
def test_an_army_deleted_elsewhere_is_not_served_offline_once_the_device_has_been_online_since(
    live_server, page: Page
):
    user = sign_in(page.context, live_server)
    kept_army, deleted = named_army(user, "Kept Host"), named_army(user, "Gone Host")
    base = live_server.url
    page.goto(f"{base}/armies/{deleted.pk}/")
    assert kept(page, f"{base}/armies/{deleted.pk}/")
    page.goto(f"{base}/armies/{kept_army.pk}/")
    page.goto(f"{base}/armies/")
    page.context.set_offline(True)
    assert opens_offline(page, f"{base}/armies/{deleted.pk}/", "Gone Host")

    services.delete_army(deleted)  # on another device
    back_online(page)
    assert gone(page, f"{base}/armies/{deleted.pk}/")

    page.context.set_offline(True)
    response = page.goto(f"{base}/armies/{deleted.pk}/")
    assert response is not None and response.status == 503
    assert opens_offline(page, f"{base}/armies/{kept_army.pk}/", "Kept Host")
    page.goto(f"{base}/armies/")
    expect(page.locator("table.armies")).to_contain_text("Kept Host")
    expect(page.locator("table.armies")).not_to_contain_text("Gone Host")


def test_an_army_changed_online_reads_offline_as_last_saved(live_server, page: Page):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 2)
    url = f"{live_server.url}/armies/{saved.pk}/"
    page.goto(url)
    assert kept(page, url)
    name = "#" + control(saved, 0, "name")
    open_card(page, 0)
    page.locator(name).fill("Renamed online")
    page.locator(name).press("Tab")
    expect(page.locator(f"{name}-wrap .field-state")).to_have_text("Saved")
    # once the changes have settled the worker fetches the army's page again
    assert page.evaluate(KEPT_TEXT, [url, "Renamed online"])

    page.context.set_offline(True)
    page.reload()
    expect(page.locator(f"#unit-{item_id(saved, 0)}-summary .item-name")).to_have_text(
        "Renamed online"
    )
    expect(page.locator("#offline-copy")).to_be_visible()
