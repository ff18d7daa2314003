"""A player writes an army list in the editor, starts an army on it from the home page
(the list comes first), builds from its tiles, and shares the list; an opponent copies it."""

import copy
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import BrowserContext, Page, expect

import rules
from armybuilder.armies.models import Army
from armybuilder.catalog.models import ArmyList
from tests.web.catalog.list_items import without_ids

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
    first = item_of(page, "entries", 0)
    first.get_by_label("Name", exact=True).fill(entry)
    first.get_by_label("Name", exact=True).press("Tab")  # a change saves it
    expect(page.locator(".try-it")).to_contain_text(entry)
    first.get_by_label("At least", exact=False).first.fill("1")
    first.get_by_label("At least", exact=False).first.press("Tab")
    expect(page.locator("#list-editor .meta")).to_contain_text("revision 3")


def item_of(page: Page, section: str, n: int) -> Any:
    """The n-th item of a section of the editor, as a player sees it (its forms post the
    item's id)."""
    return page.locator(f'section[aria-labelledby="{section}-h"] fieldset.list-item').nth(n)


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
    assert (copy.name, copy.status) == ("Saxon raiders — my copy", "private")
    opponent.context.close()


# -- the editor never hides a refusal, never loses typing, reshapes Dark Ages lists whole,
# and undoes back to the list as first written ----------------------------------------------


def own_list(user: User, ruleset: str, name: str, data: dict[str, Any]) -> ArmyList:
    from armybuilder.catalog import services
    from rules.list_document import ListDocument
    from rules.list_ids import items_in

    # each item's id is its key here, so a control's id reads as the item it edits
    data = copy.deepcopy(data)
    for item in items_in(data):
        if "key" in item:
            item.setdefault("id", item["key"])
    listed = ListDocument(ruleset, "mine", name, "", "", data)
    return services.create_list(user, listed=listed).army_list


def editor_of(
    new_context, live_server, ruleset: str, data: dict[str, Any]
) -> tuple[Page, ArmyList]:
    context = new_context(viewport={"width": 1280, "height": 900})
    user = sign_in(context, live_server, "ann")
    made = own_list(user, ruleset, "My list", data)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{live_server.url}/rulesets/{ruleset}/lists/{made.slug}/edit/")
    return page, made


def saved(page: Page) -> None:
    """Every queued change answered: the editor says nothing is being saved."""
    expect(page.locator("#list-editor.saving")).to_have_count(0)


TWO_ENTRIES = {
    "entries": [
        {"key": "thegns", "name": "Thegns", "match": {}, "min": 0, "max": 2},
        {"key": "fyrd", "name": "Fyrd", "match": {}, "min": 0, "max": 4},
    ]
}


def test_a_refused_count_is_shown_at_its_field_keeping_what_was_typed_with_the_nearest_value(
    live_server, new_context
):
    page, made = editor_of(new_context, live_server, "into-the-dark", TWO_ENTRIES)
    second = item_of(page, "entries", 1)
    second.get_by_label("At least").fill("9")
    second.get_by_label("At least").press("Tab")
    refusal = page.locator("#f-entries-fyrd-min-error")
    expect(refusal).to_contain_text("Entry 2, At least")
    expect(refusal).to_contain_text("at most 4 is fewer than at least 9")
    expect(refusal).to_contain_text("Allowed here: 0 to 4.")
    expect(refusal).not_to_contain_text("entries[")
    expect(page.locator("#f-entries-fyrd-min")).to_have_value("9")  # what was typed stays
    made.refresh_from_db()
    assert made.latest_revision == 1
    refusal.get_by_role("button", name="Use 4").click()
    expect(page.locator("#f-entries-fyrd-min")).to_have_value("4")
    expect(page.locator(".refusal")).to_have_count(0)
    made.refresh_from_db()
    assert made.data["entries"][1]["min"] == 4 and made.latest_revision == 2
    page.context.close()


def test_a_field_typed_at_once_after_another_is_saved_too(live_server, new_context):
    page, made = editor_of(new_context, live_server, "into-the-dark", TWO_ENTRIES)
    page.route("**/operations/", lambda route: (page.wait_for_timeout(400), route.continue_()))
    first = item_of(page, "entries", 0)
    first.get_by_label("Name", exact=True).fill("Huscarls")
    first.get_by_label("Name", exact=True).press("Tab")
    first.get_by_label("At least").fill("1")  # while the name's save is still on its way
    first.get_by_label("At least").press("Tab")
    saved(page)
    expect(first.get_by_label("At least")).to_have_value("1")
    expect(page.locator("#list-editor .meta")).to_contain_text("revision 3")
    made.refresh_from_db()
    assert made.data["entries"][0]["name"] == "Huscarls" and made.data["entries"][0]["min"] == 1
    page.reload()
    expect(first.get_by_label("At least")).to_have_value("1")
    page.context.close()


@pytest.mark.parametrize("ruleset", ["dark-ages-d5", "dark-ages-2015"])
def test_a_dark_ages_list_is_reshaped_in_one_step_that_keeps_six_units(
    live_server, new_context, ruleset
):
    shape = rules.get_ruleset(ruleset).list_shape()
    page, made = editor_of(new_context, live_server, ruleset, shape.empty)
    count = page.locator("#f-required-infantry-count")
    count.fill("2")
    count.press("Tab")
    then = page.get_by_role("button", name="Then raise Support’s Units to pick from 2 to 4.")
    expect(then).to_be_visible()
    expect(count).to_have_value("2")
    then.click()
    expect(page.locator("#f-choices-support-pick")).to_have_value("4")
    made.refresh_from_db()
    assert made.data["required"][0]["count"] == 2 and made.data["choices"][0]["pick"] == 4
    page.get_by_role("button", name="Add required unit").click()
    page.get_by_role("button", name="Then lower Infantry’s How many from 2 to 1.").click()
    expect(item_of(page, "required", 1).get_by_label("How many")).to_have_value("1")
    page.get_by_role("button", name="Add choice group").click()
    page.get_by_role("button", name="Then lower Support’s Units to pick from 4 to 3.").click()
    saved(page)
    made.refresh_from_db()
    assert [e["count"] for e in made.data["required"]] == [1, 1]
    assert [g["pick"] for g in made.data["choices"]] == [3, 1]
    assert rules.get_ruleset(ruleset).validate_army_list(made.data) == []
    page.context.close()


def test_undo_reaches_the_list_as_first_written_and_redo_comes_back(live_server, new_context):
    page, made = editor_of(new_context, live_server, "into-the-dark", TWO_ENTRIES)
    first = dict(made.data)
    name = page.locator("#f-entries-thegns-name")
    name.fill("Huscarls")
    name.press("Tab")
    expect(page.locator("#list-editor .meta")).to_contain_text("revision 2")
    most = page.locator("#f-entries-thegns-max")
    most.fill("3")
    most.press("Tab")
    expect(page.locator("#list-editor .meta")).to_contain_text("revision 3")
    page.get_by_role("button", name="Undo (back to revision 2)").click()
    expect(most).to_have_value("2")
    page.get_by_role("button", name="Undo (back to revision 1)").click()
    expect(name).to_have_value("Thegns")
    expect(page.get_by_role("button", name="Undo", exact=True)).to_be_disabled()
    made.refresh_from_db()
    assert made.data == first
    page.get_by_role("button", name="Redo (revision 2)").click()
    expect(name).to_have_value("Huscarls")
    page.get_by_role("link", name="History").click()
    expect(page.locator("#revision-6")).to_contain_text("Redo: revision 2 again")
    expect(page.locator("#revision-6")).to_contain_text("ann")
    expect(page.locator("#revision-2")).to_contain_text("Name: Thegns → Huscarls")
    page.context.close()


def test_a_shipped_feudal_list_is_written_again_from_an_empty_list_in_the_browser(
    live_server, new_context
):
    """The forms alone, as a player uses them, give the shipped list: the other rule sets'
    lists are rebuilt through the same form posts in
    tests/web/catalog/test_list_editor_rebuild.py."""
    from armybuilder.catalog import services

    page = player(new_context, live_server, "ann")
    shipped = ArmyList.objects.get(ruleset="feudal-2017", slug="north-welsh")
    page.goto(f"{live_server.url}/rulesets/feudal-2017/new-list/")
    page.get_by_label("Name").fill(shipped.name)
    page.get_by_role("button", name="Create list").click()
    for label, value in (("Period", shipped.period), ("Source note", shipped.source_note)):
        page.get_by_label(label, exact=True).fill(value)
        page.get_by_label(label, exact=True).press("Tab")
    # the columns rotate: each one set, the column it collides with given a free type
    page.locator("#f-columns-one-core").select_option(label="Freemen")
    page.get_by_role("button", name="Then Column T3 becomes Knights.").click()
    page.locator("#f-columns-one-t1").select_option(label="Knights")
    page.get_by_role("button", name="Then Column T3 becomes Bowmen.").click()
    for n, (old, new, most) in enumerate(
        (("Freemen", "Brigans", ""), ("Freemen", "Serjeants", "1"), ("Knights", "Cavalry", ""))
    ):
        page.get_by_role("button", name="Add replacement").click()
        replacement = item_of(page, "replacements", n)
        expect(replacement.locator('select[id$="-to"]')).to_be_visible()
        replacement.locator('select[id$="-to"]').select_option(label=new)
        replacement.locator('select[id$="-from"]').select_option(label=old)
        replacement.locator('input[id$="-max"]').fill(most)
        replacement.locator('input[id$="-max"]').press("Tab")
        saved(page)
        expect(page.locator(".refusal")).to_have_count(0)
    page.locator("#f-list-one-notes").fill("\n".join(shipped.data["notes"]))
    page.locator("#f-list-one-notes").press("Tab")
    saved(page)
    expect(page.locator("#list-editor .meta")).to_contain_text("revision")
    made = ArmyList.objects.get(author__username="ann")
    mine, theirs = services.export_document(made), services.export_document(shipped)
    for document in (mine, theirs):
        document.pop("slug"), document.pop("revision")
        document["data"] = without_ids(document["data"])  # each list's items have their own
    assert mine == theirs
    page.context.close()
