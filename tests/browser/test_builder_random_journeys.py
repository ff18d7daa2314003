"""Seeded random journeys through the builder, on one or two devices (browser contexts):
add from the picker, duplicate, delete, move, a field's edit, a rename, a roll, Undo, a
setting, each step on a link that is online, throttled (50-300 ms, 40-200 KB/s) or
offline, with reloads and a tab closed and opened again. Once every device is back
online and has settled, each one shows what a fresh page of the army in a new context
shows (cards, ids in order, summaries, every field of an open card, stat lines, count,
total, Legal badge) and what export.json has; no card is drawn twice; every action a
device sent reached the server.

A few seeds run with the suite; ``make soak-builder`` runs many more
(``MUSTER_SOAK_SEEDS``, default 0 here) and prints how many passed."""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError

from armybuilder.armies.changes import saving
from armybuilder.armies.models import Army
from tests.browser.conftest import EDITOR_OF_A_UNIT_GONE, OFFLINE_LOAD_FAILURES, engine_ready, shoot
from tests.browser.screen import TIMEOUT, same_as_fresh, settled, sign_in_context
from tests.browser.test_builder_journeys import make_army, sign_in
from tests.support import kept_with_editors

pytestmark = [
    pytest.mark.browser,
    pytest.mark.browser_context_args(service_workers="allow"),
    OFFLINE_LOAD_FAILURES,
    # Undo with nothing of the player's to undo is refused (the page says so)
    pytest.mark.expected_console_errors(
        r"^Failed to load resource: the server responded with a status of 409 \(Conflict\)$"
    ),
    EDITOR_OF_A_UNIT_GONE,
]

RULESETS = ["into-the-dark", "feudal-2017", "dark-ages-d5"]
STEPS = 8
CI_SEEDS = [3, 11, 42]
SOAK_SEEDS = int(os.environ.get("MUSTER_SOAK_SEEDS", "0") or 0)
ACTIONS = [
    "add",
    "duplicate",
    "delete",
    "move",
    "edit",
    "rename",
    "roll",
    "undo",
    "settings",
    "reload",
    "reopen",
]


@dataclass
class Device:
    """One browser (a context of its own: its own storage, service worker and link)."""

    name: str
    context: BrowserContext
    url: str
    page: Page | None = None
    link: Any = None
    network: str = "online"
    sent: list[dict[str, Any]] = field(default_factory=list)
    # units acted on from a page drawn from a copy older than what the device saw saved
    # (its note says so): the server may no longer have them, and refuses those actions
    on_older_copy: set[str] = field(default_factory=set)
    rng_link: tuple[float, float] = (150.0, 80.0)  # the throttled link's latency, KB/s

    def open(self) -> Page:
        page = self.context.new_page()
        page.set_default_timeout(TIMEOUT)
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(self.url)
        expect(page.locator("#army-title")).to_be_visible()
        self.page = page
        self.link = None
        if self.network == "throttled":
            self.throttle(self.rng_link)
        return page

    def throttle(self, link: tuple[float, float]) -> None:
        assert self.page is not None
        self.rng_link = link
        if self.link is None:
            self.link = self.page.context.new_cdp_session(self.page)
            self.link.send("Network.enable")
        latency, kilobytes = link
        self.link.send(
            "Network.emulateNetworkConditions",
            {
                "offline": False,
                "latency": latency,
                "downloadThroughput": kilobytes * 1024,
                "uploadThroughput": kilobytes * 1024,
            },
        )

    def unthrottle(self) -> None:
        if self.link is not None:
            self.link.send(
                "Network.emulateNetworkConditions",
                {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
            )

    def go(self, network: str, rng: random.Random) -> None:
        """This device's link for the next step."""
        self.context.set_offline(network == "offline")
        if network == "throttled":
            self.throttle((rng.uniform(50, 300), rng.uniform(40, 200)))
        else:
            self.unthrottle()
        self.network = network


def record_sent(device: Device, operations_url: str):
    """Every batch of operations the device's pages post (read from the request)."""

    def seen(request) -> None:
        if request.method == "POST" and request.url.endswith(operations_url):
            try:
                body = json.loads(request.post_data or "{}")
            except ValueError:
                return
            device.sent.extend(body.get("operations") or [])

    return seen


def cards(page: Page):
    return page.locator("#unit-list > li.item:not([data-optimistic])")


def pick_card(page: Page, rng: random.Random, offline: bool) -> str | None:
    """A card the player can act on: offline, only one whose editor is on the page."""
    ids = cards(page).evaluate_all(
        """(els, offline) => els.filter((li) => !offline
             || li.querySelector('.card-editor:not(.pending-editor)')).map((li) => li.id)""",
        offline,
    )
    return rng.choice(ids) if ids else None


def open_card_of(page: Page, card_id: str) -> bool:
    """Opens the card (a new card opened by its answer may close this one meanwhile: one
    card of the list is open at a time, so the player taps it again). False when the card
    went meanwhile (an answer landing as the player reached for it: a roll, another
    device's delete): a player then taps another."""
    card = page.locator(f"#{card_id}")
    target = card_id.split("-", 1)[1]
    name = page.locator(f"#u-{target}-name")
    for _ in range(3):
        try:
            if card.locator("details").first.get_attribute("open", timeout=4000) is None:
                card.locator("summary").first.click(timeout=4000)
            name.wait_for(state="visible", timeout=4000)
            return True
        except PlaywrightError:
            if not card.count():
                return False
            continue
    name.wait_for(state="visible")
    return True


def tap_in_card(page: Page, card_id: str, button) -> bool:
    """Taps a button of an open card. An answer landing as the player reaches for it (a
    copy's card opening closes this one) hides it: the player opens the card again and
    taps. False when the card went meanwhile."""
    for _ in range(3):
        try:
            button.click(timeout=4000)
            return True
        except PlaywrightError:
            if not open_card_of(page, card_id):
                return False
    button.click()
    return True


def edit_field(page: Page, card_id: str, rng: random.Random, step: int) -> None:
    target = card_id.split("-", 1)[1]
    figures = page.locator(f"#u-{target}-figures")
    if figures.count() and rng.random() < 0.6:
        low = int(figures.get_attribute("min") or 1)
        high = int(figures.get_attribute("max") or low + 10)
        figures.fill(str(rng.randint(low, min(high, low + 12))))
        figures.press("Tab")
        return
    select = page.locator(f"#{card_id} .controls select").first
    if select.count() and rng.random() < 0.5:
        values = [
            v
            for v in select.locator("option:not([disabled])").evaluate_all(
                "els => els.map(o => o.value)"
            )
            if v != select.input_value()
        ]
        if values:
            select.select_option(rng.choice(values))
            return
    name = page.locator(f"#u-{target}-name")
    name.fill(f"Unit {step} {rng.randint(1, 99)}")
    name.press("Tab")


def act(device: Device, action: str, rng: random.Random, step: int, ruleset: str) -> str:
    """One player's action on the device's page; what was done (or why nothing)."""
    page = device.page
    assert page is not None
    offline = device.network == "offline"
    if action == "add":
        # a player taps only the tiles shown (an ally's sit in a closed group)
        tiles = page.locator("#add-unit-panel button.entry:not([aria-disabled=true]):visible")
        count = tiles.count()
        if not count:
            return "add: no tile"
        tiles.nth(rng.randrange(count)).click()
        return "add"
    if action in ("duplicate", "delete", "move", "edit"):
        card_id = pick_card(page, rng, offline)
        if card_id is None or (action == "delete" and cards(page).count() < 2):
            return f"{action}: no card"
        if not open_card_of(page, card_id):
            return f"{action}: the card went as it was tapped"
        if page.locator("#copy-older").count():
            device.on_older_copy.add(card_id.split("-", 1)[1])
        if action == "edit":
            edit_field(page, card_id, rng, step)
            return "edit"
        if action == "move":
            # a player taps only what is shown (Up on the first card and Down on the last are hidden)
            buttons = page.locator(f"#{card_id} [data-op=move]:not([disabled]):visible")
            count = buttons.count()
            if not count:
                return "move: nowhere"
            value = buttons.nth(rng.randrange(count)).get_attribute("data-value")
            button = page.locator(f"#{card_id} [data-op=move][data-value={value}]")
            return "move" if tap_in_card(page, card_id, button) else "move: the card went"
        button = page.locator(f"#{card_id} [data-op={action}]")
        return action if tap_in_card(page, card_id, button) else f"{action}: the card went"
    if action == "rename":
        box = page.locator("#army-name")
        box.fill(f"Army {step} {rng.randint(1, 999)}")
        box.press("Tab")
        return "rename"
    if action == "roll":
        button = page.locator("#roll form[data-op=roll] button")
        if ruleset != "feudal-2017" or not button.count():
            return "roll: not in this rule set"
        button.first.click()
        return "roll"
    if action == "undo":
        if offline:
            return "undo: offline"
        page.locator("#undo-button").click()
        return "undo"
    if action == "settings":
        box = page.locator("#army-limit")
        if box.count():
            box.fill(str(rng.choice([300, 400, 500, 600, 1000])))
            box.press("Tab")
        else:
            notes = page.locator("#army-notes")
            notes.fill(f"Notes {step}")
            notes.press("Tab")
        return "settings"
    if action == "reload":
        page.reload()
        expect(page.locator("#army-title")).to_be_visible()
        if device.network == "throttled":
            device.link = None
            device.throttle(device.rng_link)
        return "reload"
    if action == "reopen":
        page.close()
        device.open()
        return "reopen"
    raise AssertionError(action)


def settle_all(devices: list[Device], saved: Army) -> None:
    """Every device back online; each sends what waits, then follows the army by itself
    (no tab switch, no reload, nothing pressed) to its last version within a few seconds."""
    for device in devices:
        device.context.set_offline(False)
        device.unthrottle()
        device.network = "online"
    for device in devices:
        settled(device.page)
    saved.refresh_from_db()
    for device in devices:
        page = device.page
        expect(page.locator("#army-version")).to_have_value(str(saved.version), timeout=5000)
        settled(page)


def undone(log: list[str]) -> bool:
    """Whether Undo or a roll was pressed (they are not operations the queue sends)."""
    return any(line.endswith((" undo", " roll")) for line in log)


def journey(
    seed: int, browser: Browser, live_server: Any, user: User, log: list[str], engine: bool = False
) -> None:
    rng = random.Random(seed)
    ruleset = rng.choice(RULESETS)
    start = rng.randint(2, 4)
    saved = make_army(user, ruleset, start)
    url = f"{live_server.url}/armies/{saved.pk}/"
    operations_url = f"/armies/{saved.pk}/operations/"
    devices = []
    for n in range(rng.choice([1, 1, 2])):
        context = sign_in_context(browser, live_server, user, service_workers="allow")
        device = Device(name="AB"[n], context=context, url=url)
        context.on("request", record_sent(device, operations_url))
        devices.append(device)
    log.append(f"{ruleset}, {len(devices)} device(s)")
    try:
        for device in devices:
            page = device.open()
            page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
            page.reload()  # under the worker: kept for a reload without a connection
            kept_with_editors(page)
            if engine:
                engine_ready(page)
        for step in range(STEPS):
            device = rng.choice(devices)
            network = rng.choices(["online", "throttled", "offline"], [5, 3, 2])[0]
            device.go(network, rng)
            action = rng.choice(ACTIONS)
            log.append(
                f"{step}: {device.name} {network} " + act(device, action, rng, step, ruleset)
            )
            device.page.wait_for_timeout(rng.randint(0, 400))  # a player's pace
        settle_all(devices, saved)
        for device in devices:
            same_as_fresh(device.page, browser, live_server, user, saved.pk)
            if engine:  # the engine's figures of the saved army, held against the server's
                saved.refresh_from_db()
                engine_ready(device.page)
                expect(device.page.locator("html")).to_have_attribute(
                    "data-exact-confirmed", str(saved.version)
                )
        # every action a device sent reached the server (refused ones aside: a change to a
        # unit another device deleted, a conflict)
        sent_keys = [o["key"] for device in devices for o in device.sent]
        keys = saving.applied_keys(saved, sent_keys)
        for device in devices:
            for operation in device.sent:
                if operation.get("target") in device.on_older_copy:
                    continue  # a unit shown by an older copy, said so: it may be gone
                if len(devices) == 1 or operation.get("op") in ("add", "duplicate"):
                    assert operation["key"] in keys, operation
        # none applied twice: the units are those the army started with, plus one for each
        # add or duplicate, less one for each delete (on one device, without Undo or a
        # roll, which put back or replace units)
        sent = {o["key"]: o["op"] for device in devices for o in device.sent}
        ops = [op for key, op in sent.items() if key in keys]  # applied (each once)
        if len(devices) == 1 and "undo" not in ops and "roll" not in ops and not undone(log):
            saved.refresh_from_db()
            expected = start + ops.count("add") + ops.count("duplicate") - ops.count("delete")
            assert len(saved.document["units"]) == expected, sent
    except BaseException:
        # the devices' pages go with their contexts, before the failure's own screenshots
        for device in devices:
            shoot(device.context.pages, f"random-journey-{seed}-{device.name}")
        raise
    finally:
        for device in devices:
            device.context.close()


def run_journey(
    seed: int, browser: Browser, live_server: Any, page: Page, engine: bool = False
) -> None:
    user = sign_in(page.context, live_server)
    log: list[str] = []
    try:
        journey(seed, browser, live_server, user, log, engine)
    except (AssertionError, PlaywrightError) as failure:
        steps = "\n".join(log)
        raise AssertionError(f"journey of seed {seed}:\n{steps}\n{failure}") from failure


@pytest.mark.parametrize("seed", CI_SEEDS)
def test_a_random_journey_ends_with_every_device_showing_the_saved_army(
    live_server, page: Page, browser: Browser, seed: int
):
    run_journey(seed, browser, live_server, page)


@pytest.mark.skipif(not SOAK_SEEDS, reason="make soak-builder runs these")
@pytest.mark.parametrize("seed", range(1000, 1000 + SOAK_SEEDS))
def test_soak_random_journeys(live_server, page: Page, browser: Browser, seed: int):
    run_journey(seed, browser, live_server, page)


def test_a_random_journey_with_the_page_engine_never_finds_it_differing_from_the_server(
    live_server, page_engine: Page, browser: Browser
):
    """The same journey with the engine in every device's page: its figures, drawn after
    each action, are held against each answer of the server; a difference is logged as a
    console error, which fails the test."""
    run_journey(CI_SEEDS[1], browser, live_server, page_engine, engine=True)
