"""An event on a phone: an entrant opens and builds on a list the organiser pinned that is
shared by link with the organiser alone; the organiser approving an army that is not legal
is warned and approves it only by a second, explicit step."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from armybuilder.armies.models import Army
from armybuilder.catalog import services as catalog
from armybuilder.catalog.models import LINK, SharedList
from armybuilder.events import services
from armybuilder.events.models import Submission
from tests.browser.test_event_journey_browser import player
from tests.web.catalog.test_services_access import player_list
from tests.web.events.helpers import make_event, saved_army

pytestmark = pytest.mark.browser
PHONE = 390


def soon_event(organiser, **fields):
    now = timezone.now()
    return make_event(
        organiser, deadline=now + timedelta(hours=1), reveal_at=now + timedelta(hours=2), **fields
    )


def test_an_entrant_builds_on_a_link_shared_list_from_the_entry_page(new_context, live_server):
    page, eve = player(new_context, live_server, "eve", width=PHONE)
    _, organiser = player(new_context, live_server, "org", width=PHONE)
    author = player(new_context, live_server, "ann", width=PHONE)[1]
    shared = catalog.set_status(
        author, army_list=player_list(author, name="Ann's Wessex"), status=LINK
    )
    SharedList.objects.create(army_list=shared, user=organiser, token=shared.share_token)
    event = soon_event(organiser, lists=[shared.slug])
    services.join(event, user=eve)

    page.goto(f"{live_server.url}/events/{event.code}/entry/")
    page.locator(".start-army").get_by_role("link", name="Ann's Wessex").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Ann's Wessex")
    page.go_back()
    page.get_by_role("link", name="Start one").click()
    group = page.locator("fieldset[data-group=event]")
    expect(group.locator("legend")).to_have_text("Lists of my events")
    group.get_by_label("Ann's Wessex").check()
    page.get_by_label("Army name").fill("Eve's fyrd")
    page.get_by_role("button", name="Create army").click()
    page.wait_for_url(f"{live_server.url}/armies/*/**")
    army = Army.objects.get(owner=eve)
    assert army.document["army_list"] == shared.slug and army.name == "Eve's fyrd"


def test_approving_an_army_that_is_not_legal_warns_first(new_context, live_server):
    organiser_page, organiser = player(new_context, live_server, "org", width=PHONE)
    _, bob = player(new_context, live_server, "bob", width=PHONE)
    event = soon_event(organiser)  # at most 5 units
    entrant = services.join(event, user=bob)
    made = services.submit(entrant, army=saved_army(bob, name="Eight units", extra=3), by=bob)
    assert not made.valid

    organiser_page.goto(f"{live_server.url}/events/{event.code}/armies/{made.pk}/")
    organiser_page.get_by_label("Message to the player").fill("Let it pass this once")
    organiser_page.get_by_label("Set submission 1 to").select_option("approved")
    organiser_page.get_by_role("button", name="Send").click()
    expect(organiser_page.locator(".messages")).to_contain_text("Submission 1 is not legal")
    warning = organiser_page.locator(".confirm-approve")
    expect(warning).to_contain_text("the event allows at most 5")
    assert Submission.objects.get(pk=made.pk).state == Submission.SUBMITTED
    warning.get_by_role("button", name="Approve submission 1 although it is not legal").click()
    expect(organiser_page.locator(".messages")).to_contain_text("Sent to bob")
    assert Submission.objects.get(pk=made.pk).state == Submission.APPROVED
    expect(organiser_page.locator(".thread")).to_contain_text("Let it pass this once")
