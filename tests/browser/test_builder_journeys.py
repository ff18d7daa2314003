"""Players' journeys through the builder, on each of the five rule sets, in Chromium.

Build a legal army from the picker; edits made in quick succession all land; two tabs;
undo after delete (and roll); the phone viewport; keyboard-only adding. The clicks each
common action takes are written to test-artifacts/clicks.json for ``make bench``
(bench/clicks.py), and screenshots of the builder to test-artifacts/.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import BrowserContext, Page, expect

import rules
from armybuilder.armies import services
from armybuilder.armies.models import Army
from armybuilder.catalog.selectors import get_list
from tests.browser import screen
from tests.support import example, item_url, unit_id

pytestmark = pytest.mark.browser

TIMEOUT = 10_000
# six sessions may share two cores: an answer can take seconds, never a wrong one
expect.set_options(timeout=TIMEOUT)
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CLICKS = ARTIFACTS / "clicks.json"

# rule set -> (army list, the picker buttons a player clicks for a legal army)
PLANS: dict[str, tuple[str | None, list[str]]] = {
    "into-the-dark": ("viking", ["hird", "bondi", "bondi"]),
    "dewitt-medieval": (None, []),
    "feudal-2017": ("feudal", ["core", "core", "core", "core", "t1", "t1"]),
    "dark-ages-2015": ("picts", ["infantry", "infantry", "infantry", "horse"]),
    "dark-ages-d5": ("picts", ["infantry", "infantry", "infantry", "horse"]),
}
RULESETS = list(PLANS)
# Journeys whose steps are the same on every rule set (saving, conflicts, undo) run on two
# each, the five spread between them; what differs by rule set (the picker, the cards on a
# phone, the keyboard path) runs on all five.


def record_clicks(action: str, ruleset: str, clicks: int, keys: int = 0) -> None:
    """One row of the clicks table (bench/clicks.py prints it)."""
    ARTIFACTS.mkdir(exist_ok=True)
    data = json.loads(CLICKS.read_text()) if CLICKS.exists() else {}
    data.setdefault(action, {})[ruleset] = {"clicks": clicks, "keys": keys}
    CLICKS.write_text(json.dumps(data, indent=2, sort_keys=True))


def sign_in(context: BrowserContext, live_server: Any, username: str = "player") -> User:
    user = User.objects.create_user(username, password="a-long-Pass-123")
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
    return user


def entry_units(ruleset: str, list_slug: str | None, keys: list[str]) -> list[dict[str, Any]]:
    found = get_list(ruleset, slug=list_slug) if list_slug else None
    entries = {e.key: e for e in rules.get_ruleset(ruleset).list_entries(found.data, None)} if found else {}  # fmt: skip
    return [dict(entries[k].values) for k in keys]


def make_army(user: User, ruleset: str, count: int = 3) -> Army:
    """An army of ``count`` units, from the list's entries where the plan has them."""
    list_slug, plan = PLANS[ruleset]
    keys = (plan * 2)[:count]
    units = entry_units(ruleset, list_slug, keys) if keys else []
    while len(units) < count:
        units.append({"name": f"Unit {len(units) + 1}"})
    for i, unit in enumerate(units):
        unit["name"] = f"{unit.get('name', 'Unit')} {i + 1}"
    document = {
        "format": "muster.army/1",
        "name": "Journey host",
        "ruleset": ruleset,
        "army_list": list_slug,
        "units": units,
    }
    return services.create_army(document, owner=user)


def settled(page: Page) -> None:
    """Until htmx has wired the content it swapped in (about 20 ms after the swap)."""
    # a locator, not wait_for_function: the page's CSP (no 'unsafe-eval') refuses the latter
    expect(page.locator(".htmx-added, .htmx-settling")).to_have_count(0)


def open_builder(page: Page, base: str, saved: Army) -> None:
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{base}/armies/{saved.pk}/")
    expect(page.locator("#army-title")).to_be_visible()


def open_card(page: Page, index: int) -> None:
    card = page.locator(f"#unit-{unit_id(page, index)} details")
    if card.get_attribute("open") is None:
        page.locator(f"#unit-{unit_id(page, index)} summary").click()
    expect(page.locator(f"#u-{unit_id(page, index)}-name")).to_be_visible()


def second_field(page: Page, index: int) -> tuple[str, str]:
    """A field of the unit other than its name, and a new value for it: the figures or
    stands where the rule set counts them, else the first select's next option."""
    for field, value in (("figures", "24"), ("stands", "6")):
        box = page.locator(f"#u-{unit_id(page, index)}-{field}")
        if box.count():
            return f"#u-{unit_id(page, index)}-{field}", value
    select = page.locator(f"#unit-{unit_id(page, index)} .controls select").first
    options = select.locator("option:not([disabled])")
    current = select.input_value()
    for i in range(options.count()):
        value = options.nth(i).get_attribute("value") or ""
        if value not in (current, ""):
            return f"#{select.get_attribute('id')}", value
    raise AssertionError("no second field to change")


def set_value(page: Page, selector: str, value: str) -> None:
    control = page.locator(selector)
    if control.evaluate("el => el.tagName") == "SELECT":
        control.select_option(value)
    else:
        control.fill(value)


def wait_saved(page: Page, selector: str, value: str) -> None:
    """Until the page's save of that control answered with ``value`` (its data-from)."""
    # the innermost [data-field] around the control (its only matches are its ancestors)
    wrap = page.locator("[data-field]", has=page.locator(selector)).last
    quoted = re.escape(json.dumps(value))
    expect(wrap).to_have_attribute("data-from", re.compile(f"^(?:{re.escape(value)}|{quoted})$"))


def document_of(saved: Army) -> dict[str, Any]:
    saved.refresh_from_db()
    return json.loads(json.dumps(saved.document))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_build_a_legal_army_from_the_picker_one_click_a_unit(live_server, page, ruleset):
    user = sign_in(page.context, live_server)
    list_slug, plan = PLANS[ruleset]
    saved = services.create_army(
        {"format": "muster.army/1", "name": "Picked", "ruleset": ruleset, "army_list": list_slug,
         "units": []},
        owner=user,
    )  # fmt: skip
    open_builder(page, live_server.url, saved)
    if not plan:  # no army lists in this rule set's source: the unit-type menu
        page.locator("#add-preset").select_option(index=1)
        page.locator("#add-preset-button").click()
        expect(page.locator(f"#unit-{unit_id(page, 0)}")).to_be_visible()
        page.locator("#add-preset-button").click()
        expect(page.locator(f"#unit-{unit_id(page, 1)}")).to_be_visible()
    for n, key in enumerate(plan):
        button = page.locator(f"#add-entry-{key}")
        button.click()
        expect(page.locator(f"#unit-{unit_id(page, n)}")).to_be_visible()
        settled(page)
        # the picker stays where it was: focus on the button just used
        expect(page.locator(f"#add-entry-{key}")).to_be_focused()
    if plan:
        record_clicks("add a list unit", ruleset, 1)
    expect(page.locator("#army-totals .badge")).to_have_text("Legal")
    screen.settled(page)  # a card is drawn at once: the database once every add landed
    saved.refresh_from_db()
    assert len(saved.document["units"]) == max(len(plan), 2 if not plan else 0)


@pytest.mark.parametrize("ruleset", ["into-the-dark", "dark-ages-d5"])
def test_rename_and_quick_unit_edits_all_land_after_a_reload(live_server, page, ruleset):
    user = sign_in(page.context, live_server)
    saved = make_army(user, ruleset, 2)
    open_builder(page, live_server.url, saved)
    open_card(page, 0)
    selector, value = second_field(page, 0)
    page.locator("#army-name").fill("Renamed host")
    set_value(page, selector, value)  # within 100 ms of the rename
    page.locator(f"#u-{unit_id(page, 0)}-name").fill("Halberdiers of Bern")
    expect(page.locator("#army-title")).to_have_text("Renamed host")
    expect(page.locator(f"#unit-{unit_id(page, 0)}-summary .item-name")).to_have_text(
        "Halberdiers of Bern"
    )
    wait_saved(page, selector, value)
    wait_saved(page, "#army-name", "Renamed host")
    page.reload()
    expect(page.locator("#army-title")).to_have_text("Renamed host")
    open_card(page, 0)
    expect(page.locator(f"#u-{unit_id(page, 0)}-name")).to_have_value("Halberdiers of Bern")
    expect(page.locator(selector)).to_have_value(value)
    document = document_of(saved)
    assert document["name"] == "Renamed host"
    assert document["units"][0]["name"] == "Halberdiers of Bern"


# the same field changed on both devices: the later save is refused with 409, which Chromium logs
@pytest.mark.expected_console_errors(
    r"^Failed to load resource: the server responded with a status of 409 \(Conflict\)$"
)
@pytest.mark.parametrize("ruleset", ["dewitt-medieval", "feudal-2017"])
def test_two_devices_different_fields_both_land_and_the_same_field_offers_a_choice(
    live_server, page, new_context, ruleset
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, ruleset, 2)
    open_builder(page, live_server.url, saved)
    # another device: tabs of one browser tell each other of a save at once and redraw,
    # so only a second browser can still hold the old name when it edits the same field
    device = new_context()
    session = Client()
    session.force_login(user)
    device.add_cookies(
        [{"name": "sessionid", "value": session.cookies["sessionid"].value, "url": live_server.url}]
    )
    other = device.new_page()
    # a device whose poll for the army's version has not come round yet: it follows the
    # army within a second or so, and the two players type inside that second
    other.route(re.compile(r".*/version\.json(\?.*)?$"), lambda route: route.fulfill(status=304))
    open_builder(other, live_server.url, saved)
    open_card(page, 0)
    open_card(other, 0)
    selector, value = second_field(other, 0)

    set_value(other, selector, value)
    wait_saved(other, selector, value)
    page.locator(f"#u-{unit_id(page, 0)}-name").fill("From tab one")
    expect(page.locator(f"#unit-{unit_id(page, 0)}-summary .item-name")).to_have_text(
        "From tab one"
    )
    wait_saved(page, f"#u-{unit_id(page, 0)}-name", "From tab one")
    # the other device has had no answer since: it never saw tab one's change
    document = document_of(saved)
    assert document["units"][0]["name"] == "From tab one"
    field = selector.split("-", 2)[2]  # "#u-<unit id>-<field>"
    assert str(document["units"][0][field.replace("-", "_")]) == value

    # the same field: the second tab's name was made from the old name
    other.locator(f"#u-{unit_id(other, 0)}-name").fill("From tab two")
    choice = other.locator(f"#u-{unit_id(other, 0)}-name-msg .conflict-choice")
    expect(choice).to_contain_text("From tab one")
    expect(choice).to_contain_text("From tab two")
    expect(other.locator("#unsaved")).to_be_visible()
    # online, a conflict says nothing of the points (they are the server's), no estimate
    expect(other.locator(".estimate-note")).to_have_count(0)
    assert document_of(saved)["units"][0]["name"] == "From tab one"
    choice.get_by_role("button", name="Keep mine").click()
    expect(other.locator(f"#unit-{unit_id(other, 0)}-summary .item-name")).to_have_text(
        "From tab two"
    )
    expect(other.locator("#unsaved")).to_be_hidden()
    assert document_of(saved)["units"][0]["name"] == "From tab two"


@pytest.mark.parametrize("ruleset", ["dark-ages-2015", "feudal-2017"])
def test_undo_after_delete_restores_the_army_exactly(live_server, page, ruleset):
    user = sign_in(page.context, live_server)
    saved = make_army(user, ruleset, 3)
    before = document_of(saved)
    open_builder(page, live_server.url, saved)
    open_card(page, 1)
    page.locator(
        f"#unit-{unit_id(page, 1)} .item-actions button.danger"
    ).click()  # no confirm: at once
    expect(page.locator("#unit-list > li.item")).to_have_count(2)
    settled(page)
    toast = page.locator("#toast")
    expect(toast).to_contain_text("Deleted")
    toast.get_by_role("button", name="Undo").click()
    expect(page.locator("#unit-list > li.item")).to_have_count(3)
    assert document_of(saved) == before
    if ruleset == "feudal-2017":
        page.evaluate("window.scrollTo(0, 0)")
        roll = page.get_by_role("button", name="Roll a force")
        box = roll.bounding_box()  # at the top of the builder, in the first screen
        assert box and box["y"] + box["height"] <= page.viewport_size["height"], box
        roll.click()  # no confirm either
        expect(page.locator("#toast")).to_contain_text("Rolled a force")
        expect(
            page.locator(f"#unit-{unit_id(page, 0)}")
        ).to_be_in_viewport()  # the rolled units are shown
        assert document_of(saved) != before
        page.locator("body").press("Control+z")  # outside text inputs: undo
        expect(page.locator(".notice.ok-notice")).to_contain_text("Undone: Rolled a force")
        assert document_of(saved) == before


def test_undo_takes_back_this_tabs_change_and_keeps_another_tabs(live_server, page):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 3)
    names = [u["name"] for u in document_of(saved)["units"]]
    open_builder(page, live_server.url, saved)
    open_card(page, 0)
    page.locator(f"#u-{unit_id(page, 0)}-name").fill("Mine")
    expect(page.locator(f"#unit-{unit_id(page, 0)}-summary .item-name")).to_have_text("Mine")
    wait_saved(page, f"#u-{unit_id(page, 0)}-name", "Mine")
    other = Client()  # another tab renames another unit after this page's change
    other.force_login(user)
    data = {"version": 1, "_field": "name", "_from": json.dumps(names[1]), "f.name": "Theirs"}
    assert other.post(item_url(saved, 1), data).status_code == 302
    page.locator("#undo-button").click()
    expect(page.locator(".notice.ok-notice")).to_contain_text("Undone:")
    units = document_of(saved)["units"]
    assert [u["name"] for u in units] == [names[0], "Theirs", names[2]]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_phone_viewport_has_no_horizontal_scroll_and_cards_fit(live_server, new_context, ruleset):
    context = new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        page = context.new_page()
        user = sign_in(context, live_server)
        saved = make_army(user, ruleset, 6)
        open_builder(page, live_server.url, saved)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"builder-phone-{ruleset}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        cards = page.locator("#unit-list").bounding_box()
        assert cards is not None
        # twelve collapsed cards fit two phone screens: six fit one
        assert cards["height"] <= 844
        open_card(page, 1)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.locator(f"#unit-{unit_id(page, 1)}").screenshot(
            path=str(ARTIFACTS / f"builder-phone-open-{ruleset}.png")
        )
        broken = page.evaluate(
            """() => [...document.querySelectorAll('#unit-list dl.stats dt, #unit-list .stat-label')]
                .filter(el => el.offsetParent !== null)
                .filter(el => {
                  const text = document.createRange();
                  text.selectNodeContents(el);
                  return new Set([...text.getClientRects()].map(r => Math.round(r.top))).size > 1;
                })
                .map(el => el.textContent)"""
        )
        assert broken == []  # a stat's name is read on one line, never broken mid-word
        small = page.evaluate(
            """() => [...document.querySelectorAll('#builder button, #builder summary')]
                .filter(el => el.offsetParent !== null)
                .map(el => el.getBoundingClientRect())
                .filter(r => r.height < 43.5).length"""
        )
        assert small == 0  # tap targets of at least 44 px
        squeezed = page.evaluate(
            """() => [...document.querySelectorAll('#unit-list input[type=checkbox]')]
                .filter(el => el.offsetParent !== null)
                .filter(el => el.getBoundingClientRect().width < 23.5).length"""
        )
        assert squeezed == 0  # a box keeps its size beside a long name
    finally:
        context.close()


@pytest.mark.parametrize("width", [1024, 1280])
def test_on_a_desktop_every_cost_breakdown_shows_to_its_result(live_server, page, width):
    page.set_viewport_size({"width": width, "height": 800})
    user = sign_in(page.context, live_server)
    # a general's unit: per figure, per unit, then the command cost and the result
    saved = services.create_army(example("dewitt-medieval-lance-and-bow.json"), owner=user)
    open_builder(page, live_server.url, saved)
    expect(page.locator("#unit-list .breakdown").first).to_contain_text("C-in-C +100 = 268")
    cut = page.evaluate(
        """[...document.querySelectorAll('#unit-list .breakdown')]
           .filter(el => el.scrollWidth > el.clientWidth + 1).map(el => el.textContent)"""
    )
    assert cut == []


def test_on_a_phone_an_illegal_armys_units_come_before_its_problems(live_server, new_context):
    context = new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    user = sign_in(context, live_server)
    archers = {"name": "Archers", "training": "melee", "missile_weapon": "foot_bow"}
    document = {"format": "muster.army/1", "name": "Phone host", "ruleset": "into-the-dark",
                "units": [archers]}  # fmt: skip
    saved = services.create_army(document, owner=user)
    open_builder(page, live_server.url, saved)
    expect(page.locator("#army-totals .badge")).to_have_text("Illegal")
    units, problems = page.locator("#units").bounding_box(), page.locator("#issues").bounding_box()
    assert units is not None and problems is not None
    assert units["y"] + units["height"] <= problems["y"]
    # the bar along the bottom counts the errors and takes the player to the first one
    expect(page.locator("#army-totals a.jump")).to_contain_text("1 error")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_keyboard_only_adding_a_unit_within_five_tabs(live_server, page, ruleset):
    user = sign_in(page.context, live_server)
    saved = make_army(user, ruleset, 1)
    open_builder(page, live_server.url, saved)
    page.set_viewport_size({"width": 1024, "height": 768})
    tabs = 0
    while tabs < 5:
        page.keyboard.press("Tab")
        tabs += 1
        if "Add a unit" in (page.evaluate("document.activeElement.textContent") or ""):
            break
    assert "Add a unit" in page.evaluate("document.activeElement.textContent")
    page.keyboard.press("Enter")  # the skip link: to the picker
    expect(page.locator("#add-unit")).to_be_focused()
    page.keyboard.press("Tab")
    keys = tabs + 2
    if page.evaluate("document.activeElement.tagName") == "SELECT":  # no list: type menu
        page.keyboard.press("Tab")
        keys += 1
    focused = page.evaluate("document.activeElement.closest('#add-unit-panel') !== null")
    assert focused and page.evaluate("document.activeElement.tagName") == "BUTTON"
    page.keyboard.press("Enter")
    expect(page.locator("#unit-list > li.item")).to_have_count(2)
    record_clicks("add a unit by keyboard", ruleset, 0, keys=keys + 1)
    # the card is drawn before the server saved it: the journey ends once the add landed,
    # never with a save in flight while the test database is emptied
    screen.settled(page)


def test_screenshots_of_six_units_collapsed_and_one_open_and_the_clicks_per_action(
    live_server, page
):
    user = sign_in(page.context, live_server)
    saved = make_army(user, "into-the-dark", 6)
    open_builder(page, live_server.url, saved)
    page.set_viewport_size({"width": 1024, "height": 768})
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "builder-desktop-collapsed.png"))
    # twelve collapsed cards fit one 1280x800 screen: six take at most half of it
    height = page.locator("#unit-list").bounding_box()["height"]
    assert height <= 400
    page.locator(f"#unit-{unit_id(page, 2)} summary").click()  # one click opens the card
    expect(page.locator(f"#u-{unit_id(page, 2)}-name")).to_be_visible()  # its editor came
    selector, value = second_field(page, 2)
    page.locator(f"#u-{unit_id(page, 2)}-armour").select_option(
        page.locator(
            f"#u-{unit_id(page, 2)}-armour option:not([disabled]):not(:checked)"
        ).first.get_attribute("value")
    )  # one more changes an option
    wait_saved(
        page,
        f"#u-{unit_id(page, 2)}-armour",
        page.locator(f"#u-{unit_id(page, 2)}-armour").input_value(),
    )
    assert (
        document_of(saved)["units"][2]["armour"]
        == page.locator(f"#u-{unit_id(page, 2)}-armour").input_value()
    )
    record_clicks("change an option", "into-the-dark", 2)
    page.screenshot(path=str(ARTIFACTS / "builder-desktop-open.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(ARTIFACTS / "builder-phone-one-open.png"), full_page=True)
    page.set_viewport_size({"width": 1024, "height": 768})
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    # a new army is private: one tap shares it, one more copies its link
    page.locator("#share").get_by_role("button", name="Turn sharing on (new link)").click()
    page.locator("#share").get_by_role("button", name="Copy").click()
    expect(page.locator("#share").get_by_role("button", name="Copied")).to_be_visible()
    record_clicks("share by link and copy the link", "into-the-dark", 2)
    # print: one click on the sheet in the "Print and export" panel
    page.locator("#files").get_by_role("link", name="Order of battle (preview)").click()
    expect(page).to_have_url(re.compile(r"/roster/$"))
    expect(page.get_by_text("Journey host").first).to_be_visible()
    record_clicks("print", "into-the-dark", 1)
