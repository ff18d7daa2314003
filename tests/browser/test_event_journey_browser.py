"""A club event end to end in the browser: an organiser creates it with two lists pinned to
revisions, a 600-point limit and one restriction; three players join and submit (one
illegal, one late, one fine); the desk shows each; the checker asks for a change and the
player resubmits; a list author publishes a new revision meanwhile and the event still
checks against its pinned one."""

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from playwright.sync_api import BrowserContext, Page, expect

from armybuilder.catalog import services as catalog
from armybuilder.catalog.models import ArmyList
from armybuilder.events.models import Event, Submission
from tests.web.events.helpers import saved_army

pytestmark = pytest.mark.browser
TIMEOUT = 15_000
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def player(
    new_context: Callable[..., BrowserContext], live_server: Any, name: str, width: int = 1280
) -> tuple[Page, User]:
    context = new_context(viewport={"width": width, "height": 900})
    user = User.objects.create_user(name)
    client = Client()
    client.force_login(user)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    return page, user


def create_event(page: Page, live_server: Any) -> Event:
    page.goto(f"{live_server.url}/events/")
    page.get_by_role("link", name="Create an event").click()
    page.get_by_label("Name", exact=True).fill("Hastings Day")
    page.get_by_label("Date", exact=True).fill("2027-06-08")
    page.get_by_label("Place", exact=True).fill("Battle Abbey")
    page.get_by_label("Time zone", exact=True).select_option("Europe/London")
    page.get_by_label("Rule set", exact=True).select_option("into-the-dark")
    page.get_by_label("Points limit", exact=True).fill("600")
    for chosen in ("into-the-dark/viking/1", "into-the-dark/anglo-danish-1066/1"):
        page.locator(f'input[name=lists][value="{chosen}"]').check()
    tomorrow = timezone.localtime() + timedelta(days=1)
    page.get_by_label("Submission deadline", exact=True).fill(tomorrow.strftime("%Y-%m-%dT%H:%M"))
    page.get_by_label("Reveal time", exact=True).fill(
        (tomorrow + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    )
    page.get_by_label("Accept late submissions").check()
    page.get_by_label("At most this many units").fill("5")
    page.get_by_role("button", name="Create the event").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Hastings Day")
    expect(page.locator(".restrictions")).to_contain_text("At most 5 units.")
    expect(page.locator(".allowed-lists")).to_contain_text("Viking (Great Army), revision 1")
    return Event.objects.get(name="Hastings Day")


def join_and_submit(
    page: Page, live_server: Any, event: Event, army_name: str, *, late: bool = False
) -> None:
    page.goto(f"{live_server.url}/events/join/")
    page.get_by_label("The event's code").fill(event.code.lower())
    page.get_by_role("button", name="Find the event").click()
    page.get_by_role("button", name="Enter this event").click()
    submit(page, army_name, late=late)


def submit(page: Page, army_name: str, *, late: bool = False) -> None:
    page.get_by_label("Your Into the Dark armies").select_option(label=army_name)
    page.get_by_role("button", name="Check it for this event").click()
    name = f"Submit {army_name}" + (" (late)" if late else "")
    page.get_by_role("button", name=name).click()
    expect(page.locator(".messages")).to_contain_text("is locked in")


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"event-{name}.png"), full_page=True)


def test_an_organiser_runs_an_event_from_creation_to_a_checked_resubmission(
    new_context, live_server
):
    organiser, _ = player(new_context, live_server, "org")
    event = create_event(organiser, live_server)

    fine_page, fine = player(new_context, live_server, "fine")
    saved_army(fine, name="Fine host")
    join_and_submit(fine_page, live_server, event, "Fine host")

    bad_page, bad = player(new_context, live_server, "bad", width=390)
    saved_army(bad, name="Too big", extra=4)
    join_and_submit(bad_page, live_server, event, "Too big")
    expect(bad_page.locator(".held")).to_contain_text("Event restriction 1: At most 5 units.")
    shot(bad_page, "entry-390")

    # meanwhile a list author publishes a new revision: two hirdmen at least
    viking = ArmyList.objects.get(ruleset="into-the-dark", slug="viking")
    data = {**viking.data, "entries": [dict(e) for e in viking.data["entries"]]}
    data["entries"][0]["min"] = 2
    catalog.save_list(viking, data=data)

    organiser.goto(f"{live_server.url}/events/{event.code}/desk/")
    rows = organiser.locator("table.desk tbody tr")
    expect(rows.filter(has_text="fine")).to_contain_text("legal")
    expect(rows.filter(has_text="bad")).to_contain_text("not legal")
    expect(rows.filter(has_text="bad")).to_contain_text("Event restriction 1: At most 5 units.")

    # the checker asks for a change
    rows.filter(has_text="bad").get_by_role("link", name="Too big").click()
    organiser.get_by_label("Message to the player").fill("Five units at most, please.")
    organiser.get_by_label("Set submission 1 to").select_option("needs_changes")
    organiser.get_by_role("button", name="Send").click()
    organiser.goto(f"{live_server.url}/events/{event.code}/desk/")
    expect(rows.filter(has_text="bad")).to_contain_text("needs changes")

    saved_army(bad, name="Trimmed host")  # pinned to the new revision: one hirdmen too few there
    bad_page.goto(f"{live_server.url}/events/{event.code}/entry/")
    expect(bad_page.locator(".held")).to_contain_text("Needs changes")
    expect(bad_page.locator(".thread")).to_contain_text("Five units at most, please.")
    bad_page.get_by_label("Your Into the Dark armies").select_option(label="Trimmed host")
    bad_page.get_by_role("button", name="Check it for this event").click()
    expect(bad_page.locator(".revision-offer")).to_contain_text("this event uses revision 1")
    expect(bad_page.locator("body")).to_contain_text("Legal for this event")
    bad_page.get_by_role("button", name="Submit Trimmed host").click()
    expect(bad_page.locator(".held")).to_contain_text("Submission 2")

    # the deadline passes; a third player submits late
    Event.objects.filter(pk=event.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    late_page, late = player(new_context, live_server, "late")
    saved_army(late, name="Late host")
    join_and_submit(late_page, live_server, event, "Late host", late=True)

    organiser.goto(f"{live_server.url}/events/{event.code}/desk/")
    expect(organiser.locator(".totals")).to_contain_text(
        "3 entered · 3 submitted · 1 late · 0 not legal"
    )
    expect(rows.filter(has_text="late")).to_contain_text("late")
    expect(rows.filter(has_text="bad")).to_contain_text("Trimmed host")
    shot(organiser, "desk-1280")
    held = Submission.objects.filter(entrant__user=bad).order_by("-number").first()
    assert held.valid and held.list_revisions == {"viking": 1}
