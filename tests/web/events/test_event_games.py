"""Games attached to an event: attached by their owner (an entrant) or by starting from a
revealed army, detached by their owner only, and shown on the event's page by their summary
(the game's own, replayed from its log) to the organiser and the entrants, never to others."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from freezegun import freeze_time

from armybuilder.armies.services import create_army
from armybuilder.events import game_sources as sources
from armybuilder.events.models import EventGame
from armybuilder.games import services as games
from armybuilder.games.models import Game
from tests.support import army
from tests.web.events.helpers import AFTER_REVEAL, REVEAL, revealed_world, saved_army

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    found = revealed_world()
    with freeze_time(AFTER_REVEAL):
        found["from_event"] = sources.start_from_submission(
            found["alice"], found["alice_army"], found["bob_sub"]
        )
    found["own"] = games.start_game(
        found["alice"], army_a=found["alice_army"], army_b=found["alice_army"]
    )
    return found


def page(world, user, when=AFTER_REVEAL) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    with freeze_time(when):
        response = client.get(reverse("events:event", args=[world["event"].code]))
    assert response.status_code == 200
    return response.content.decode()


def post(user, world, game, do, *, client=None):
    client = client or Client()
    if user is not None:
        client.force_login(user)
    with freeze_time(AFTER_REVEAL):
        return client.post(
            reverse("events:games", args=[world["event"].code]), {"game": game.pk, "do": do}
        )


def test_a_game_started_from_a_revealed_army_is_attached_to_its_event(world):
    assert EventGame.objects.get(game=world["from_event"]).event == world["event"]
    assert not EventGame.objects.filter(game=world["own"]).exists()


def test_the_owner_attaches_and_detaches_a_game_of_the_events_rule_set(world):
    own = world["own"]
    assert f'<option value="{own.pk}">' in page(world, world["alice"])
    assert post(world["alice"], world, own, "attach").status_code == 302
    link = EventGame.objects.get(game=own)
    assert link.event == world["event"] and link.attached_by == world["alice"]
    assert post(world["alice"], world, own, "detach").status_code == 302
    assert not EventGame.objects.filter(game=own).exists()


@pytest.mark.parametrize("who", ["bob", "organiser", "carol", "anonymous"])
def test_no_one_but_the_owner_attaches_or_detaches_a_game(world, who):
    user = None if who == "anonymous" else world[who]
    own, attached = world["own"], world["from_event"]
    assert post(user, world, own, "attach").status_code == 404
    assert post(user, world, attached, "detach").status_code == 404
    assert not EventGame.objects.filter(game=own).exists()
    assert EventGame.objects.filter(game=attached).exists()


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"game": "x"},
        {"game": "99999", "do": "attach"},
        {"game": "9" * 19, "do": "detach"},
        {"game": "-1", "do": "detach"},
        {"game": "1", "do": "play"},
    ],
)
def test_bad_input_is_a_404_not_an_error(world, data):
    client = Client()
    client.force_login(world["alice"])
    with freeze_time(AFTER_REVEAL):
        response = client.post(reverse("events:games", args=[world["event"].code]), data)
    assert response.status_code == 404


def test_attaching_needs_the_csrf_token(world):
    client = Client(enforce_csrf_checks=True)
    assert post(world["alice"], world, world["own"], "attach", client=client).status_code == 403
    assert not EventGame.objects.filter(game=world["own"]).exists()


def test_a_game_of_another_rule_set_or_already_attached_is_refused(world):
    feudal = create_army(
        army("feudal-2017", [{"name": "Knights", "type": "knights"}], name="Normans"),
        owner=world["alice"],
    )
    other = games.start_game(world["alice"], army_a=feudal, army_b=feudal)
    assert f'value="{other.pk}"' not in page(world, world["alice"])
    post(world["alice"], world, other, "attach")
    assert not EventGame.objects.filter(game=other).exists()
    post(world["alice"], world, world["from_event"], "attach")  # already attached: stays once
    assert EventGame.objects.filter(game=world["from_event"]).count() == 1


def test_a_non_entrant_owner_is_offered_nothing_to_attach(world):
    carols = saved_army(world["carol"], name="Carol's host")
    game = games.start_game(world["carol"], army_a=carols, army_b=carols)
    assert "Attach a game" not in page(world, world["carol"])
    assert post(world["carol"], world, game, "attach").status_code == 404


def played(text: str) -> bool:
    """Whether the page shows an attached game's summary ("0 turns played", "1 turn ...")."""
    return re.search(r"\d+ turns? played", text) is not None


def _lose_a_unit(game: Game) -> str:
    unit = game.side_b["document"]["units"][0]
    games.remove_unit(game, version=game.version, unit_id=f"b:{unit['id']}", why="Fled")
    return unit["name"]


def test_the_event_page_shows_each_attached_games_summary_to_the_organiser_and_entrants(world):
    game = world["from_event"]
    _lose_a_unit(game)
    for who in ("organiser", "alice", "bob"):
        text = page(world, world[who])
        assert "Alice&#x27;s host v Bob&#x27;s huscarls" in text, who
        assert "1 turn played" in text
        assert "Bob&#x27;s huscarls lost 1 of" in text and " points)" in text
        assert "Alice&#x27;s host lost 0 of" in text
        assert reverse("games:game", args=[game.pk]) not in text  # the game stays private
    assert "Detach" in page(world, world["alice"]) and "Detach" not in page(world, world["bob"])


@pytest.mark.parametrize("who", ["carol", "anonymous"])
def test_strangers_do_not_see_the_events_games_even_on_a_public_event(world, who):
    world["event"].__class__.objects.filter(pk=world["event"].pk).update(public_after_reveal=True)
    text = page(world, None if who == "anonymous" else world[who])
    assert "Bob&#x27;s huscarls" in text  # the public event shows its armies
    assert not played(text) and 'id="games-h"' not in text


def test_before_the_reveal_entrants_see_only_their_own_attached_games(world):
    before = REVEAL - timedelta(hours=1)
    assert not played(page(world, world["bob"], before))
    assert played(page(world, world["alice"], before))
    assert played(page(world, world["organiser"], before))


def test_deleting_a_game_takes_it_off_the_event(world):
    world["from_event"].delete()
    assert not EventGame.objects.exists()
    assert not played(page(world, world["organiser"]))


def test_the_event_page_reads_several_games_in_a_bounded_number_of_queries(
    world, django_assert_max_num_queries
):
    def attach_more(n):
        for _ in range(n):
            with freeze_time(AFTER_REVEAL):
                game = sources.start_from_submission(
                    world["alice"], world["alice_army"], world["bob_sub"]
                )
            _lose_a_unit(game)

    client = Client()
    client.force_login(world["organiser"])
    url = reverse("events:event", args=[world["event"].code])
    attach_more(1)
    with freeze_time(AFTER_REVEAL), django_assert_max_num_queries(25) as two:
        client.get(url)
    attach_more(6)
    with freeze_time(AFTER_REVEAL), django_assert_max_num_queries(25) as eight:
        text = client.get(url).content.decode()
    assert text.count("turns played") + text.count("turn played") == 8
    assert len(eight.captured_queries) == len(two.captured_queries)
