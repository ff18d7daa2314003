"""An organiser's day in the browser: the reveal stays a reveal until the organiser
reopens it, an approval on a page left open does not land on a newer submission, and a
player's reply stays on the organiser's thread after a resubmission."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from armybuilder.events import services
from armybuilder.events.models import Event, Submission
from armybuilder.events.selectors import approved_submissions, held
from tests.browser.test_event_journey_browser import player
from tests.web.events.helpers import make_event, saved_army

pytestmark = pytest.mark.browser


def soon_event(organiser):
    now = timezone.now()
    return make_event(
        organiser, deadline=now + timedelta(hours=1), reveal_at=now + timedelta(hours=2)
    )


def test_a_late_army_after_the_reveal_is_refused_until_the_organiser_reopens(
    new_context, live_server
):
    organiser_page, organiser = player(new_context, live_server, "org")
    page, bob = player(new_context, live_server, "bob")
    event = soon_event(organiser)
    entrant = services.join(event, user=bob)
    first = services.submit(entrant, army=saved_army(bob, name="Approved host"), by=bob)
    Submission.objects.filter(pk=first.pk).update(state=Submission.APPROVED)
    saved_army(bob, name="Swapped host")

    page.goto(f"{live_server.url}/events/{event.code}/entry/")
    page.get_by_label("Your Into the Dark armies").select_option(label="Swapped host")
    page.get_by_role("button", name="Check it for this event").click()
    # the deadline and the reveal pass while the page is open
    past = timezone.now() - timedelta(minutes=1)
    Event.objects.filter(pk=event.pk).update(deadline=past - timedelta(hours=1), reveal_at=past)
    page.get_by_role("button", name="Submit Swapped host").click()
    expect(page.locator(".messages")).to_contain_text("final unless the organiser reopens")
    assert [s.pk for s in approved_submissions(event)] == [first.pk]
    expect(page.get_by_role("button", name="Submit Swapped host")).to_have_count(0)

    organiser_page.goto(f"{live_server.url}/events/{event.code}/desk/")
    organiser_page.get_by_text("Reopen submissions", exact=True).click()
    organiser_page.get_by_role("button", name="Yes, reopen submissions after the reveal").click()
    expect(organiser_page.locator(".messages")).to_contain_text("every entrant was told")

    page.goto(f"{live_server.url}/events/{event.code}/")
    expect(page.locator(".reopened")).to_contain_text("reopened submissions after the reveal")
    page.goto(f"{live_server.url}/events/{event.code}/entry/?army=")
    expect(page.locator(".thread")).to_contain_text("reopened submissions after the reveal")
    page.get_by_label("Your Into the Dark armies").select_option(label="Swapped host")
    page.get_by_role("button", name="Check it for this event").click()
    page.get_by_role("button", name="Submit Swapped host (late)").click()
    expect(page.locator(".messages")).to_contain_text("Submission 2 is locked in")


def test_an_approval_on_a_stale_submission_page_is_refused_and_the_desk_is_unchanged(
    new_context, live_server
):
    organiser_page, organiser = player(new_context, live_server, "org")
    bob_page, bob = player(new_context, live_server, "bob")
    event = soon_event(organiser)
    entrant = services.join(event, user=bob)
    first = services.submit(entrant, army=saved_army(bob, name="Five units"), by=bob)

    organiser_page.goto(f"{live_server.url}/events/{event.code}/desk/")
    organiser_page.get_by_role("link", name="Five units").click()
    expect(organiser_page.get_by_role("heading", level=1)).to_have_text("Five units")

    # meanwhile the player resubmits an army that is not legal
    saved_army(bob, name="Eight units", extra=3)
    bob_page.goto(f"{live_server.url}/events/{event.code}/entry/")
    bob_page.get_by_label("Your Into the Dark armies").select_option(label="Eight units")
    bob_page.get_by_role("button", name="Check it for this event").click()
    bob_page.get_by_role("button", name="Submit Eight units").click()
    expect(bob_page.locator(".messages")).to_contain_text("Submission 2 is locked in")

    organiser_page.get_by_label("Message to the player").fill("All good")
    organiser_page.get_by_label("Set submission 1 to").select_option("approved")
    organiser_page.get_by_role("button", name="Send").click()
    expect(organiser_page.locator(".messages")).to_contain_text("submitted again at")
    expect(organiser_page.locator(".messages")).to_contain_text("look at the new one")
    expect(organiser_page.get_by_label("Message to the player")).to_have_value("All good")
    expect(organiser_page.locator(".stale")).to_contain_text("submission 2")
    newest = held(entrant)
    assert newest.number == 2 and newest.state == Submission.SUBMITTED and not newest.valid
    assert Submission.objects.get(pk=first.pk).state == Submission.SUBMITTED

    organiser_page.goto(f"{live_server.url}/events/{event.code}/desk/")
    expect(organiser_page.locator(".totals")).to_contain_text("1 not legal · 0 approved")
    row = organiser_page.locator("table.desk tbody tr").filter(has_text="bob")
    expect(row).to_contain_text("submitted")
    expect(row).to_contain_text("not legal")


def test_a_reply_before_a_resubmission_is_on_the_organisers_thread_after_it(
    new_context, live_server
):
    organiser_page, organiser = player(new_context, live_server, "org")
    bob_page, bob = player(new_context, live_server, "bob")
    event = soon_event(organiser)
    entrant = services.join(event, user=bob)
    services.submit(entrant, army=saved_army(bob, name="First host"), by=bob)
    saved_army(bob, name="Second host")

    bob_page.goto(f"{live_server.url}/events/{event.code}/entry/")
    bob_page.get_by_label("Write to the organiser").fill("May I swap the ram for a sling?")
    bob_page.get_by_role("button", name="Send").click()
    bob_page.get_by_label("Your Into the Dark armies").select_option(label="Second host")
    bob_page.get_by_role("button", name="Check it for this event").click()
    bob_page.get_by_role("button", name="Submit Second host").click()
    expect(bob_page.locator(".messages")).to_contain_text("Submission 2 is locked in")

    organiser_page.goto(f"{live_server.url}/events/{event.code}/desk/")
    organiser_page.get_by_role("link", name="Second host").click()
    thread = organiser_page.locator(".thread")
    expect(thread).to_contain_text("May I swap the ram for a sling?")
    expect(thread).to_contain_text("(about submission 1)")
    expect(thread).not_to_contain_text("No messages yet")


def test_a_restriction_tightened_after_three_submissions_marks_the_illegal_ones(
    new_context, live_server
):
    organiser_page, organiser = player(new_context, live_server, "org")
    event = make_event(
        organiser,
        restrictions=[],
        points_limit=None,
        deadline=timezone.now() + timedelta(hours=1),
        reveal_at=timezone.now() + timedelta(hours=2),
    )
    pages = {}
    for name, extra in (("small", 0), ("mid", 1), ("big", 1)):
        pages[name], user = player(new_context, live_server, name)
        services.submit(
            services.join(event, user=user),
            army=saved_army(user, name=f"{name} host", extra=extra),
            by=user,
        )
    organiser_page.goto(f"{live_server.url}/events/{event.code}/edit/")
    organiser_page.get_by_label("At most this many units").fill("3")
    organiser_page.get_by_role("button", name="Save the event").click()
    expect(organiser_page.locator(".messages")).to_contain_text("Event saved")

    organiser_page.goto(f"{live_server.url}/events/{event.code}/desk/")
    expect(organiser_page.locator(".totals")).to_contain_text("3 submitted · 0 late · 2 not legal")
    rows = organiser_page.locator("table.desk tbody tr")
    expect(rows.filter(has_text="mid host")).to_contain_text("the event allows at most 3")
    expect(rows.filter(has_text="small host")).not_to_contain_text("not legal")

    big = pages["big"]
    big.goto(f"{live_server.url}/events/{event.code}/entry/")
    expect(big.locator(".held")).to_contain_text("not legal")
    expect(big.locator(".held")).to_contain_text("the event allows at most 3")
    expect(big.locator(".thread")).to_contain_text(
        "What changed: restrictions now: At most 3 units."
    )
