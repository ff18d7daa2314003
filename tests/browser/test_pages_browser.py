"""Home, rule-set pages, My armies and the share page in a real browser, on a desktop and
on 360-390 px phones: one-click start, cards without clipping, undo after delete, tap
targets, the focus ring. Screenshots go to test-artifacts/ (``pages-*.png``)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from armybuilder.armies import services
from armybuilder.armies.models import Army
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_axe_audit import logged_in_context
from tests.support import example

pytestmark = pytest.mark.browser

TIMEOUT = 10_000
PHONES = [360, 390]
LONG_NAME = "The Household Knights of Count Odo of Bayeux and Their Mounted Serjeants"


@pytest.fixture
def alice(db):
    user = User.objects.create_user("alice", password="a-long-Pass-123")
    services.regenerate_share_token(
        services.create_army(example("feudal-2017-roll-4.json"), owner=user)
    )
    document = example("into-the-dark-source-examples.json")
    document["name"] = LONG_NAME
    services.regenerate_share_token(services.create_army(document, owner=user))
    return user


def shoot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"pages-{name}.png"), full_page=True)


def horizontal_overflow(page: Page) -> int:
    """How many pixels the page is wider than the viewport (0: no sideways scrolling)."""
    return page.evaluate(
        "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
        " - window.innerWidth"
    )


def small_targets(page: Page) -> list[str]:
    """Visible buttons and links styled as buttons under 44 px, checkboxes under 24 px."""
    return page.evaluate(
        """() => [...document.querySelectorAll(
              'button, a.button, input[type=submit], input[type=checkbox], input[type=radio]')]
            .filter(el => el.offsetParent !== null && !el.closest('.visually-hidden'))
            .map(el => [el, el.getBoundingClientRect()])
            .filter(([el, r]) => {
              const min = el.matches('input[type=checkbox], input[type=radio]') ? 24 : 44;
              return r.height < min || r.width < min;
            })
            .map(([el, r]) => `${el.outerHTML.slice(0, 80)} ${r.width}x${r.height}`)"""
    )


def test_home_starts_a_feudal_army_in_one_click(live_server, page: Page):
    page.set_default_timeout(TIMEOUT)
    page.goto(live_server.url + "/")
    shoot(page, "home-desktop")
    page.get_by_role("button", name="Start an army with Feudal Wargame Rules (2017)").click()
    build_freely(page)
    expect(page.locator("#army-title")).to_have_text("New Feudal Wargame Rules (2017) army")
    draft = Army.objects.get()
    assert draft.ruleset == "feudal-2017" and draft.owner is None
    assert page.url == f"{live_server.url}/armies/{draft.pk}/"


def build_freely(page: Page) -> None:
    """Starting asks for the army list first: choose none."""
    page.get_by_label("Build freely from the rule set's troop options").check()
    page.get_by_role("button", name="Create army").click()


def test_a_rule_set_page_leads_with_start_and_its_lists(live_server, page: Page):
    page.set_default_timeout(TIMEOUT)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(live_server.url + "/rulesets/feudal-2017/")
    shoot(page, "ruleset-desktop")
    start = page.get_by_role("button", name="Start an army")
    lists = page.locator("#lists")
    for above_the_fold in (start, lists):
        box = above_the_fold.bounding_box()
        assert box is not None and box["y"] + box["height"] < 800
    start.click()
    build_freely(page)
    expect(page.locator("#army-title")).to_have_text("New Feudal Wargame Rules (2017) army")


@pytest.mark.parametrize("width", PHONES)
def test_my_armies_becomes_cards_on_a_phone_with_nothing_clipped(
    live_server, new_context, alice, width
):
    context = logged_in_context(new_context, live_server, alice, {"width": width, "height": 800})
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT)
        page.goto(live_server.url + "/armies/")
        shoot(page, f"my-armies-phone-{width}")
        assert horizontal_overflow(page) <= 0
        assert page.locator("table.armies thead").bounding_box()["height"] <= 1  # read aloud only
        before = "getComputedStyle(document.querySelector('td[data-label=Legality]'), '::before')"
        assert page.evaluate(f"{before}.content") == '"Legality: "'  # each value is labelled
        for army in Army.objects.all():
            card = page.locator(f"#army-{army.pk}")
            card_box = card.bounding_box()
            assert card_box["x"] >= 0 and card_box["x"] + card_box["width"] <= width
            for label in ("Open", "Export", "Duplicate", "Delete"):
                action = card.get_by_role(
                    "button" if label in ("Duplicate", "Delete") else "link",
                    name=f"{label} {army.name}",
                )
                box = action.bounding_box()
                assert box["height"] >= 44
                # full width of the card, and the whole word shows ("Expor", "Duplic" before)
                assert box["width"] >= card_box["width"] - 40
                assert action.evaluate("el => el.scrollWidth <= el.clientWidth")
                expect(action).to_have_text(label)
        assert small_targets(page) == []
    finally:
        context.close()


def test_my_armies_is_a_table_on_a_desktop(live_server, new_context, alice):
    context = logged_in_context(new_context, live_server, alice, {"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(live_server.url + "/armies/")
        shoot(page, "my-armies-desktop")
        expect(page.locator("table.armies thead")).to_be_visible()
        headers = page.locator("table.armies thead th").all_inner_texts()
        assert headers == [
            "Army",
            "Rule set",
            "Army list",
            "Points",
            "Legality",
            "Updated",
            "Actions",
        ]
        assert horizontal_overflow(page) <= 0
    finally:
        context.close()


def test_deleting_an_army_acts_at_once_and_undo_brings_it_back(live_server, new_context, alice):
    context = logged_in_context(new_context, live_server, alice, {"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT)
        page.goto(live_server.url + "/armies/")
        target = Army.objects.get(document__name=LONG_NAME)
        page.get_by_role("button", name=f"Delete {LONG_NAME}").click()  # no confirm step
        toast = page.locator("#undo-delete")
        expect(toast).to_contain_text(f"Deleted {LONG_NAME}.")
        expect(page.locator(f"#army-{target.pk}")).to_have_count(0)
        expect(page.get_by_role("heading", name="Recently deleted")).to_be_visible()
        shoot(page, "my-armies-undo-phone")
        toast.get_by_role("button", name="Undo").click()
        expect(page.locator(f"#army-{target.pk}")).to_be_visible()
        expect(page.get_by_text(f"Restored {LONG_NAME}.")).to_be_visible()
        expect(page.get_by_role("heading", name="Recently deleted")).to_have_count(0)
        assert Army.objects.get(pk=target.pk).deleted_at is None
    finally:
        context.close()


@pytest.mark.parametrize("width", PHONES)
def test_my_pages_never_scroll_sideways_on_a_phone(live_server, new_context, alice, width):
    army = Army.objects.filter(owner=alice).first()
    context = logged_in_context(new_context, live_server, alice, {"width": width, "height": 800})
    try:
        page = context.new_page()
        paths = ["/", "/armies/", f"/s/{army.share_token}/"]
        paths += [f"/rulesets/{slug}/" for slug in (
            "into-the-dark", "dewitt-medieval", "feudal-2017", "dark-ages-2015", "dark-ages-d5"
        )]  # fmt: skip
        for path in paths:
            page.goto(live_server.url + path)
            assert horizontal_overflow(page) <= 0, path
            assert small_targets(page) == [], path
            wide_tables = page.evaluate(
                """[...document.querySelectorAll('.table-wrap')]
                   .filter(el => el.scrollWidth > el.clientWidth + 1).map(el => el.innerText.slice(0, 40))"""
            )
            assert wide_tables == [], path  # no table to scroll sideways inside the page
            if width == 360 and path.startswith("/rulesets/into"):
                shoot(page, "ruleset-phone-360")
    finally:
        context.close()


@pytest.mark.parametrize("width", PHONES)
@pytest.mark.parametrize("signed_in", [True, False])
def test_on_a_phone_the_header_takes_two_lines(live_server, new_context, alice, width, signed_in):
    viewport = {"width": width, "height": 800}
    if signed_in:
        alice.username = "alice-of-the-very-long-user-name"
        alice.save()
        context = logged_in_context(new_context, live_server, alice, viewport)
    else:
        context = new_context(viewport=viewport)
    page = context.new_page()
    page.goto(live_server.url + "/armies/")
    rows = page.evaluate(
        """[...document.querySelectorAll('header.site .brand, header.site nav > *')]
           .filter(el => el.offsetParent !== null)
           .map(el => Math.round(el.getBoundingClientRect().top))"""
    )
    assert len(set(rows)) == 2, rows  # the brand, then every link on one line
    links = page.locator("header.site nav a:visible, header.site nav button:visible")
    names = [n.strip() for n in links.all_inner_texts()]
    if signed_in:
        assert names[:2] == ["Start building", "My armies"] and names[-1] == "Log out"
    else:
        assert names == ["Start building", "My armies", "Events", "Log in", "Sign up"]
    assert horizontal_overflow(page) <= 0
    assert small_targets(page) == []
    if width == 390 and signed_in:
        shoot(page, "header-phone-390")


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    def luminance(rgb: tuple[int, int, int]) -> float:
        parts = []
        for c in rgb:
            c = c / 255
            parts.append(c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
        relative = 0.2126 * parts[0] + 0.7152 * parts[1] + 0.0722 * parts[2]
        return relative

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def rgb(css: str) -> tuple[int, int, int]:
    numbers = css[css.index("(") + 1 : css.index(")")].replace(",", " ").split()
    return tuple(int(float(n)) for n in numbers[:3])


def test_the_focus_ring_has_3_to_1_contrast_on_every_background(live_server, new_context, alice):
    context = logged_in_context(new_context, live_server, alice, {"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(live_server.url + "/armies/")
        page.keyboard.press("Tab")  # the skip link
        seen = 0
        for _ in range(20):  # header, every army's actions, the new-army form
            page.keyboard.press("Tab")
            found = page.evaluate(
                """() => {
                  const el = document.activeElement, style = getComputedStyle(el);
                  let bg = 'rgba(0, 0, 0, 0)', node = el.parentElement;
                  while (node && /rgba\\(.*, 0\\)|transparent/.test(bg)) {
                    bg = getComputedStyle(node).backgroundColor; node = node.parentElement;
                  }
                  if (/rgba\\(.*, 0\\)|transparent/.test(bg)) bg = getComputedStyle(document.body).backgroundColor;
                  return {tag: el.outerHTML.slice(0, 60), outline: style.outlineColor,
                          width: parseFloat(style.outlineWidth), styleName: style.outlineStyle, bg};
                }"""
            )
            assert found["styleName"] != "none" and found["width"] >= 3, found
            ratio = contrast(rgb(found["outline"]), rgb(found["bg"]))
            assert ratio >= 3, found | {"contrast": ratio}
            seen += 1
        assert seen == 20
        page.keyboard.press("Shift+Tab")
        shoot(page, "focus-ring")
    finally:
        context.close()
