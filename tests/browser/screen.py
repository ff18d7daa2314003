"""What the builder shows, read the same way from any page: the cards (ids in order,
summaries with name, size, points and problems, every field of an open card, the stat
line), the count, the total and the Legal badge. A page that has settled must read the
same as a fresh page of the same army in a new browser context."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Browser, Page, expect

from tests.support import kept_with_editors

TIMEOUT = 15_000

# the cards and totals as shown; a card's fields only where its editor is drawn
READ = """() => {
  const text = (el) => (el ? el.textContent.replace(/\\s+/g, " ").trim() : null);
  // a card's number as shown is a CSS counter (the server's own number is hidden)
  const summary = (el) => {
    if (!el) { return null; }
    const copy = el.cloneNode(true);
    copy.querySelectorAll(".item-number").forEach((n) => n.remove());
    return text(copy);
  };
  const cards = Array.from(document.querySelectorAll("#unit-list > li.item")).map((li) => {
    const card = { id: li.id, summary: summary(li.querySelector(".item-summary")) };
    const editor = li.querySelector(".card-editor:not(.pending-editor)");
    if (editor) {
      card.stats = text(editor.querySelector("dl.stats"));
      card.fields = {};
      editor.querySelectorAll("[data-field]").forEach((wrap) => {
        const controls = wrap.querySelectorAll("input:not([type=hidden]), select, textarea");
        card.fields[wrap.dataset.field] = Array.from(controls).map((c) =>
          c.type === "checkbox" || c.type === "radio" ? c.checked : c.value);
      });
    }
    return card;
  });
  const totals = document.getElementById("army-totals");
  const badge = totals ? totals.querySelector(".badge") : null;
  return {
    cards: cards,
    count: text(document.getElementById("units-count")),
    total: text(totals ? totals.querySelector(".total-line") : null),
    badge: text(badge),
    title: text(document.getElementById("army-title")),
    version: (document.getElementById("army-version") || {}).value,
  };
}"""

# every card's editor drawn (opened), so its fields and stat line can be read
OPEN_ALL = """async () => {
  for (const slot of Array.from(document.querySelectorAll("#unit-list > li.item .pending-editor"))) {
    await window.htmx.ajax("GET", slot.getAttribute("hx-get"), { target: slot, swap: "outerHTML" });
  }
}"""


def shown(page: Page) -> dict[str, Any]:
    return page.evaluate(READ)


def settled(page: Page) -> None:
    """Until nothing of the page's own is waiting: no unsent change, no answer being drawn,
    no fetch of the builder under way."""
    expect(page.locator("#pending-changes")).not_to_contain_text("not yet saved", timeout=TIMEOUT)
    expect(page.locator(".htmx-added, .htmx-settling, .htmx-request")).to_have_count(
        0, timeout=TIMEOUT
    )
    expect(page.locator("html[data-drawing]")).to_have_count(0, timeout=TIMEOUT)


def under_the_worker(page: Page, base: str, army_pk: int) -> None:
    """The army's builder page opened, then reloaded once the service worker is active:
    under the worker, kept with every card's editor for a reload without a connection."""
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{base}/armies/{army_pk}/")
    expect(page.locator("#army-title")).to_be_visible()
    page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
    page.reload()
    expect(page.locator("#army-title")).to_be_visible()
    kept_with_editors(page)


def sign_in_context(browser: Browser, live_server: Any, user: User, **kwargs: Any):
    client = Client()
    client.force_login(user)
    context = browser.new_context(**kwargs)
    cookie = client.cookies["sessionid"].value
    context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])
    return context


def fresh(browser: Browser, live_server: Any, user: User, army_pk: int) -> dict[str, Any]:
    """The army as a new context draws it (every card opened) and as export.json has it."""
    context = sign_in_context(browser, live_server, user)
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT)
        page.goto(f"{live_server.url}/armies/{army_pk}/")
        page.evaluate(OPEN_ALL)
        expect(page.locator("#unit-list .pending-editor")).to_have_count(0)
        drawn = shown(page)
        answer = context.request.get(f"{live_server.url}/armies/{army_pk}/export.json")
        assert answer.ok
        drawn["export"] = json.loads(answer.text())
        return drawn
    finally:
        context.close()


def same_as_fresh(page: Page, browser: Browser, live_server: Any, user: User, army_pk: int):
    """The page shows what a fresh page of the army shows: cards (ids in order, summaries,
    every field of each card whose editor is drawn, stat lines), count, total, badge; and
    the ids are those of export.json, none twice."""
    mine = shown(page)
    theirs = fresh(browser, live_server, user, army_pk)
    ids = [c["id"] for c in mine["cards"]]
    assert len(ids) == len(set(ids)), f"a card drawn twice: {ids}"
    saved = ["unit-" + u["id"] for u in theirs["export"].get("units") or []]
    assert ids == saved, f"cards shown {ids}, saved {saved} (version {mine['version']})"
    assert ids == [c["id"] for c in theirs["cards"]]
    for card, other in zip(mine["cards"], theirs["cards"], strict=True):
        assert card["summary"] == other["summary"], (card["id"], card["summary"], other["summary"])
        if "fields" in card:
            assert card["stats"] == other["stats"], (card["id"], card["stats"], other["stats"])
            assert card["fields"] == other["fields"], (card["id"], card["fields"], other["fields"])
    for key in ("count", "total", "badge", "title", "version"):
        assert mine[key] == theirs[key], key
    return theirs


def throttle(page: Page, latency_ms: float, kilobytes_per_second: float):
    """A slow link for this page (Chrome DevTools Protocol), both ways."""
    session = page.context.new_cdp_session(page)
    session.send("Network.enable")
    rate = kilobytes_per_second * 1024
    session.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": latency_ms,
            "downloadThroughput": rate,
            "uploadThroughput": rate,
        },
    )
    return session


def unthrottle(session) -> None:
    session.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )


class Held:
    """Requests to one route of a page wait (a link slower than any throttle) until
    ``let_go``: those held go on in order, and every later one goes straight through."""

    def __init__(self, page: Page, pattern: str) -> None:
        self.routes: list = []
        self.open = False
        page.route(pattern, self._hold)

    def _hold(self, route) -> None:
        if self.open:
            route.continue_()
        else:
            self.routes.append(route)

    def let_go(self) -> None:
        self.open = True
        waiting, self.routes = self.routes, []
        for route in waiting:
            route.continue_()
