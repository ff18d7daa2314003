"""The axe-core audit of the club-event pages on a desktop and a 390 px phone: no serious
or critical violation. Screenshots go to test-artifacts/ (``axe-event-<page>-<viewport>.png``)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone

from armybuilder.events import services
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_axe_audit import BLOCKING, VIEWPORTS, logged_in_context, readable
from tests.web.events.helpers import make_event, player, saved_army

pytestmark = pytest.mark.browser

# page -> (path, who looks: "organiser" or "entrant")
PAGES = {
    "event": ("/events/{code}/", "entrant"),
    "entry": ("/events/{code}/entry/?army={army}", "entrant"),
    "desk": ("/events/{code}/desk/", "organiser"),
    "edit": ("/events/{code}/edit/", "organiser"),
    "new": ("/events/new/", "organiser"),
    "submission": ("/events/{code}/armies/{submission}/", "organiser"),
    "pack": ("/events/{code}/pack/", "organiser"),
}


@pytest.fixture
def world(db):
    organiser = player("org")
    now = timezone.now()
    event = make_event(
        organiser, deadline=now + timedelta(days=1), reveal_at=now + timedelta(days=2)
    )
    bob = player("bob")
    entrant = services.join(event, user=bob)
    army = saved_army(bob, name="Bob's host", extra=4)
    made = services.submit(entrant, army=army, by=bob)
    services.post_note(
        entrant,
        by=organiser,
        text="Five units at most.",
        state="needs_changes",
        runs_event=True,
        seen=(made.pk, made.version),
    )
    return {
        "organiser": organiser,
        "entrant": bob,
        "event": event,
        "army": army,
        "submission": made,
    }


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("name", list(PAGES))
def test_axe_finds_no_serious_or_critical_violation_on_event_pages(
    live_server, new_context, world, name, viewport
):
    path, who = PAGES[name]
    context = logged_in_context(new_context, live_server, world[who], VIEWPORTS[viewport])
    try:
        page = context.new_page()
        url = live_server.url + path.format(
            code=world["event"].code, army=world["army"].pk, submission=world["submission"].pk
        )
        response = page.goto(url)
        assert response is not None and response.status == 200, url
        page.wait_for_load_state("networkidle")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"axe-event-{name}-{viewport}.png"), full_page=True)
        results = Axe().run(page)
        blocking = [v for v in results.response["violations"] if v["impact"] in BLOCKING]
        assert not blocking, f"axe on {name} ({viewport}):\n" + readable(blocking)
    finally:
        context.close()
