"""A club night: forty players behind one address (the club's wifi) sign up from the
event's link or code and land on the event, then make, import and print their armies
within the hour, each within an allowance of their own; a visitor without an account is
still limited by address; the service worker's copy of a roster made ahead costs nothing;
operators set every limit in the environment. The shipped limits, as shipped."""

import html
import json
import re
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from armybuilder import throttle
from armybuilder.armies.making.lifecycle import create_army
from armybuilder.armies.models import Army
from armybuilder.printing.prerender import prerender_army
from tests.support import army
from tests.web.events.helpers import make_event, player

pytestmark = pytest.mark.django_db

HALL = "10.20.30.40"  # the club's wifi: every player's address
PLAYERS = 40
PASSWORD = "a-long-Pass-123"


@pytest.fixture
def shipped(settings):
    """The shipped limits (the suite's own are generous); renders wait in the queue."""
    import armybuilder.settings as module  # the module: the suite's fixtures patch settings

    settings.MUSTER_RATE_LIMITS = module.MUSTER_RATE_LIMITS
    settings.MUSTER_VISITOR_RATE_LIMITS = module.MUSTER_VISITOR_RATE_LIMITS
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
    return settings


@pytest.fixture
def clock(monkeypatch) -> list[float]:
    """The limits' clock, from a minute into today (UTC): a test steps it on."""
    now = [time.time() // 86400 * 86400 + 60]
    monkeypatch.setattr(throttle.time, "time", lambda: now[0])
    return now


SIGN_UP_LINK = re.compile(r'href="(/accounts/signup/\?next=[^"]*)"')


def sign_up_from_the_event(visitor: Client, code: str, username: str, by_code: bool):
    """The flyer's way in: the event's page by its link, then Enter, and the log-in page's
    Sign up link; or by its code typed in, then the page's own Sign up link. Then the form
    as the page gives it."""
    event_url = f"/events/{code}/"
    if by_code:
        assert visitor.get("/events/join/", {"code": code.lower()})["Location"] == event_url
        page = visitor.get(event_url).content.decode()
    else:
        assert visitor.get(event_url).status_code == 200
        log_in = visitor.post(event_url + "enter/")["Location"]  # no account yet
        page = visitor.get(log_in).content.decode()
    sign_up = html.unescape(SIGN_UP_LINK.search(page)[1])
    form = visitor.get(sign_up).content.decode()
    carried = html.unescape(re.search(r'name="next" value="([^"]*)"', form)[1])
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD, "next": carried}
    return visitor.post(sign_up, data)


def test_forty_players_sign_up_from_one_address_and_each_lands_on_the_event(shipped, clock):
    event = make_event(player("organiser"))
    for n in range(PLAYERS):
        visitor = Client(REMOTE_ADDR=HALL)
        signed_up = sign_up_from_the_event(visitor, event.code, f"player{n}", by_code=n % 2 == 1)
        assert signed_up.status_code == 302, signed_up.content.decode()[:500]
        assert signed_up["Location"] == f"/events/{event.code}/"
        page = visitor.get(signed_up["Location"]).content.decode()
        assert "Enter this event" in page and f"player{n}" in page  # signed in, on the event
        clock[0] += 60  # forty sign-ups in forty minutes


def test_a_sign_up_script_on_one_address_is_stopped_and_told_the_way_back(shipped, clock):
    event = make_event(player("organiser"))
    event_url = f"/events/{event.code}/"

    def sign_up(n: int):
        data = {"username": f"script{n}", "password1": PASSWORD, "password2": PASSWORD}
        return Client(REMOTE_ADDR=HALL).post(f"/accounts/signup/?next={event_url}", data)

    made = 0
    for hour in range(4):
        answers = [sign_up(hour * 100 + n).status_code for n in range(PLAYERS + 1)]
        made += answers.count(302)
        if hour < 3:  # forty an hour get in, the forty-first waits for the next hour
            assert answers == [302] * PLAYERS + [429]
        clock[0] += 3600
    assert made == 120  # then the day's limit: not one more today
    refused = sign_up(999)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 3600
    page = html.unescape(refused.content.decode())
    assert "Too many sign-ups from your address for now" in page
    assert f'<a href="{event_url}">Back to where you came from</a>' in page
    assert f'name="next" value="{event_url}"' in page  # trying again still leads there


def import_file(name: str) -> SimpleUploadedFile:
    doc = army("into-the-dark", [{"name": "Knights", "quality": "fanatic"}], name=name)
    return SimpleUploadedFile("army.json", json.dumps(doc).encode(), "application/json")


def test_forty_signed_in_players_on_one_address_make_import_and_print_within_the_hour(
    shipped, clock
):
    for n in range(PLAYERS):
        hall = Client(REMOTE_ADDR=HALL)
        hall.force_login(player(f"player{n}"))
        for side in ("Normans", "Saxons"):  # two armies each: 80 from the address
            made = hall.post("/armies/new/", {"ruleset": "into-the-dark", "name": side})
            assert made.status_code == 302, made.content.decode()[:300]
        imported = hall.post("/armies/import/", {"document": import_file(f"Host {n}")})
        assert imported.status_code == 302, imported.content.decode()[:300]
        pk = Army.objects.get(document__name=f"Host {n}").pk
        for sheet in ("roster", "qrs"):  # two renders each: 80 from the address
            printed = hall.get(f"/armies/{pk}/{sheet}.pdf")
            assert printed.status_code == 302  # queued: its progress page
            assert printed["Location"].startswith("/prints/")
        clock[0] += 80  # all within 53 minutes
    assert Army.objects.count() == 3 * PLAYERS


def test_visitors_without_an_account_are_still_limited_by_their_address(shipped, clock):
    count, _ = shipped.MUSTER_VISITOR_RATE_LIMITS["import"]
    visitor = Client(REMOTE_ADDR=HALL)
    answers = [visitor.post("/armies/import/", {}).status_code for _ in range(count + 1)]
    assert 429 not in answers[:count] and answers[count] == 429
    assert Client(REMOTE_ADDR="10.20.30.41").post("/armies/import/", {}).status_code != 429
    signed_in = Client(REMOTE_ADDR=HALL)  # a player on that address: their own allowance
    signed_in.force_login(player("member"))
    assert signed_in.post("/armies/import/", {}).status_code != 429


def test_a_roster_made_ahead_is_fetched_again_and_again_without_using_the_allowance(shipped, clock):
    shipped.MUSTER_RATE_LIMITS = {**shipped.MUSTER_RATE_LIMITS, "pdf": (1, 600)}
    owner = player("member")
    saved = create_army(army("into-the-dark", [{"name": "Knights"}], name="Host"), owner=owner)
    assert prerender_army.call(saved.pk, saved.version, "http://testserver").endswith("ready")
    hall = Client(REMOTE_ADDR=HALL)
    hall.force_login(owner)
    for _ in range(5):  # the page's Print, the service worker's copy in the background...
        for sheet in ("roster", "qrs"):
            kept = hall.get(f"/armies/{saved.pk}/{sheet}.pdf")
            assert kept.status_code == 200 and kept["Content-Type"] == "application/pdf"
            assert kept["X-Muster-Cache"] == "hit"
    panel = hall.get(f"/armies/{saved.pk}/print/", {"sheet": "roster"}, headers={"HX-Request": "1"})
    assert panel.status_code == 200
    # the one render of the allowance is still there, then the limit holds
    assert hall.get(f"/armies/{saved.pk}/roster.pdf", {"paper": "letter"}).status_code == 302
    assert hall.get(f"/armies/{saved.pk}/qrs.pdf", {"paper": "letter"}).status_code == 429


def test_every_limit_is_set_in_the_environment_and_a_wrong_value_stops_the_start(monkeypatch):
    import armybuilder.settings as module
    from armybuilder import limits

    assert module.MUSTER_RATE_LIMITS == throttle.DEFAULT_LIMITS  # the documented defaults
    assert module.MUSTER_VISITOR_RATE_LIMITS == throttle.DEFAULT_VISITOR_LIMITS
    monkeypatch.setenv("MUSTER_LIMIT_PDF", "50/300")
    monkeypatch.setenv("MUSTER_VISITOR_LIMIT_SIGNUP_DAY", " 200/86400 ")
    assert limits.from_environment("MUSTER_LIMIT_", throttle.DEFAULT_LIMITS)["pdf"] == (50, 300)
    visitors = limits.from_environment("MUSTER_VISITOR_LIMIT_", throttle.DEFAULT_VISITOR_LIMITS)
    assert visitors["signup-day"] == (200, 86400) and visitors["signup"] == (40, 3600)
    monkeypatch.setenv("MUSTER_LIMIT_IMPORT", "lots")
    with pytest.raises(ValueError, match="MUSTER_LIMIT_IMPORT='lots': write requests/seconds"):
        limits.from_environment("MUSTER_LIMIT_", throttle.DEFAULT_LIMITS)
