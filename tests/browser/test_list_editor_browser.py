"""A player writes an army list in the editor, starts an army on it from the home page
(the list comes first), builds from its tiles, and shares the list; an opponent copies it."""

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import BrowserContext, Page, expect

import rules
from armybuilder.armies.models import Army
from armybuilder.catalog.models import ArmyList

pytestmark = pytest.mark.browser
TIMEOUT = 10_000


def sign_in(context: BrowserContext, live_server: Any, username: str) -> User:
    user = User.objects.create_user(username)
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
    return user


def player(new_context: Callable[..., BrowserContext], live_server: Any, username: str) -> Page:
    context = new_context(viewport={"width": 1280, "height": 900})
    sign_in(context, live_server, username)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    return page


def write_list(page: Page, live_server: Any, ruleset: str, name: str, entry: str) -> None:
    page.goto(f"{live_server.url}/rulesets/{ruleset}/")
    page.get_by_role("link", name="Write your own army list").click()
    page.get_by_label("Name").fill(name)
    page.get_by_role("button", name="Create list").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Edit {name}")
    first = page.locator('fieldset.list-item[data-index="0"]')
    first.get_by_label("Name", exact=True).fill(entry)
    first.get_by_label("Name", exact=True).press("Tab")  # a change saves it
    expect(page.locator(".try-it")).to_contain_text(entry)
    first.get_by_label("At least", exact=False).first.fill("1")
    first.get_by_label("At least", exact=False).first.press("Tab")
    expect(page.locator("#list-editor .meta")).to_contain_text("revision 3")


def start_on_list(page: Page, live_server: Any, ruleset: str, name: str) -> None:
    title = rules.get_ruleset(ruleset).title
    page.goto(live_server.url + "/")
    page.get_by_role("button", name=f"Start an army with {title}").click()
    page.get_by_role("radio", name=name).check()
    page.get_by_role("button", name="Create army").click()
    expect(page.locator("#army-title")).to_be_visible()


@pytest.mark.parametrize(
    ("ruleset", "entry"), [("into-the-dark", "Thegns"), ("dewitt-medieval", "Bowmen")]
)
def test_a_player_writes_a_list_and_builds_a_legal_army_from_its_tiles(
    live_server, new_context, ruleset, entry
):
    page = player(new_context, live_server, "ann")
    write_list(page, live_server, ruleset, "My raiders", entry)
    start_on_list(page, live_server, ruleset, "My raiders")
    page.locator("#units").get_by_role("button", name=entry).click()
    expect(page.locator("#unit-list")).to_contain_text(entry)
    army = Army.objects.get()
    made = ArmyList.objects.get(name="My raiders")
    assert army.document["army_list"] == made.slug and army.list_pins == {made.slug: 3}
    list_codes = '[data-code="not-in-army-list"], [data-code^="army-list"]'
    expect(page.locator(list_codes)).to_have_count(0)
    page.context.close()


def test_a_shared_list_is_copied_by_an_opponent(live_server, new_context):
    page = player(new_context, live_server, "ann")
    write_list(page, live_server, "into-the-dark", "Saxon raiders", "Thegns")
    page.get_by_role("link", name="Saxon raiders").click()
    page.get_by_role("button", name="Share by link").click()
    link = page.locator("a.shared-link").get_attribute("href")
    assert link
    page.context.close()
    opponent = player(new_context, live_server, "bob")
    opponent.goto(link)
    expect(opponent.get_by_role("heading", level=1)).to_have_text("Saxon raiders")
    opponent.get_by_role("button", name="Copy this list").click()
    expect(opponent.get_by_role("link", name="Edit this list")).to_be_visible()
    copy = ArmyList.objects.get(author__username="bob")
    assert copy.name == "Saxon raiders" and copy.status == "private"
    opponent.context.close()
