"""A game in both players' history: a signed-in opponent who opens one of its links keeps
it in their My games (with its summary and its PDF) while that link works; the owner
ending the link ends it there too, with nothing of the game left to read; the player may
take it out of their games, which leaves the game alone."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from armybuilder.armies.services import create_army
from armybuilder.games import services
from armybuilder.games.models import Game, GameSeat
from tests.support import army
from tests.web.games.conftest import to_phase, unit
from tests.web.games.test_views_links import links, shared
from tests.web.routes import signed_in

pytestmark = pytest.mark.django_db
MINE = reverse("games:mine")


def seats_of(client: Client) -> list[GameSeat]:
    return list(GameSeat.objects.filter(user_id=client.session["_auth_user_id"]))


def forget(seat: int) -> str:
    return reverse("games:forget_seat", args=[seat])


@pytest.mark.parametrize("which", ["play", "view"])
def test_a_signed_in_opponent_keeps_the_game_they_opened_by_a_link(game, owner_client, which):
    to_phase(game, "melee")
    services.remove_unit(
        game, version=game.version, unit_id=unit(game, "b", "Knights"), why="Routed"
    )
    token = links(owner_client, game, which)
    bob = signed_in("bob")
    assert bob.get(shared("game", token)).status_code == 200
    [seat] = seats_of(bob)
    assert (seat.game_id, seat.kind, seat.token) == (game.pk, which, token)
    page = bob.get(MINE).content.decode()
    assert "Games you play by a link" in page and f'href="/g/{token}/"' in page
    assert "Normans v Saxons" in page and "Normans" in page and "Saxons" in page
    what = "play" if which == "play" else "watch"
    assert f"By alice's link to {what}. Turn 1, Phase 3: Mêlée." in page
    assert "0 of 2" in page and "1 of 2 (Knights)" in page and "Points lost" not in page
    assert f'href="/g/{token}/summary.pdf"' in page
    assert f"/games/{game.pk}/" not in page  # the owner's URLs stay the owner's


def test_neither_the_owner_nor_a_visitor_without_an_account_takes_a_seat(game, owner_client):
    play, view = links(owner_client, game, "play"), links(owner_client, game, "view")
    for token in (play, view):
        assert owner_client.get(shared("game", token)).status_code == 200
        assert Client().get(shared("game", token)).status_code == 200
    assert not GameSeat.objects.exists()
    assert "Games you play by a link" not in owner_client.get(MINE).content.decode()


def test_only_the_page_takes_a_seat_and_opening_it_again_keeps_one(game, owner_client):
    view, play = links(owner_client, game, "view"), links(owner_client, game, "play")
    bob = signed_in("bob")
    for name in ("version", "export", "summary_pdf"):
        assert bob.get(shared(name, view)).status_code == 200, name
    assert not GameSeat.objects.exists()
    bob.get(shared("game", view))
    first = seats_of(bob)[0]
    bob.get(shared("game", play))  # the other link: the seat follows the last one opened
    [seat] = seats_of(bob)
    assert (seat.pk, seat.kind, seat.token) == (first.pk, "play", play)
    assert seat.first_seen == first.first_seen and seat.last_seen >= first.last_seen


@pytest.mark.parametrize("do", ["new", "off"])
def test_a_renewed_or_switched_off_link_leaves_nothing_of_the_game(game, owner_client, do):
    old = links(owner_client, game, "play")
    bob = signed_in("bob")
    bob.get(shared("game", old))
    renewed = links(owner_client, game, "play", do)
    page = bob.get(MINE).content.decode()
    assert "the owner switched this link off or made a new one" in page
    assert "alice's link to play" in page
    for leak in ("Normans", "Saxons", "Turn 1", "Knights", "Summary (PDF)", old, "/g/"):
        assert leak not in page, leak
    assert bob.get(shared("game", old)).status_code == 404
    assert bob.get(shared("summary_pdf", old)).status_code == 404
    if renewed:  # the owner gives the new link: the game is back in bob's games
        bob.get(shared("game", renewed))
        page = bob.get(MINE).content.decode()
        assert "Normans v Saxons" in page and "switched this link off" not in page
        assert len(seats_of(bob)) == 1


def test_the_player_takes_a_game_out_of_their_games_and_the_game_stays(game, owner_client):
    view = links(owner_client, game, "view")
    bob = signed_in("bob")
    bob.get(shared("game", view))
    [seat] = seats_of(bob)
    url = forget(seat.pk)
    for other in (signed_in("mallory"), owner_client, Client()):
        assert other.post(url).status_code == 404
    assert bob.get(url).status_code == 405
    assert GameSeat.objects.filter(pk=seat.pk).exists()
    taken = bob.post(url)
    assert taken.status_code == 302 and taken["Location"] == MINE + "#played"
    assert not GameSeat.objects.exists() and Game.objects.filter(pk=game.pk).exists()
    assert "Normans v Saxons" not in bob.get(MINE).content.decode()
    assert bob.post(url).status_code == 404  # taken out already
    assert bob.get(shared("game", view)).status_code == 200  # the link still works


def test_a_lost_seat_is_taken_out_too(game, owner_client):
    play = links(owner_client, game, "play")
    bob = signed_in("bob")
    bob.get(shared("game", play))
    links(owner_client, game, "play", "off")
    [seat] = seats_of(bob)
    assert bob.post(forget(seat.pk)).status_code == 302
    assert "Games you play by a link" not in bob.get(MINE).content.decode()


def test_the_taking_out_needs_the_csrf_token(game, owner_client):
    view = links(owner_client, game, "view")
    bob = signed_in("bob")
    bob.get(shared("game", view))
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = bob.cookies
    assert strict.post(forget(seats_of(bob)[0].pk)).status_code == 403
    assert GameSeat.objects.count() == 1


@pytest.mark.parametrize("which", ["play", "view"])
def test_the_summary_pdf_by_either_link_reads_back(game, owner_client, which):
    services.remove_unit(
        game, version=game.version, unit_id=unit(game, "b", "Knights"), why="Routed"
    )
    token = links(owner_client, game, which)
    response = Client().get(shared("summary_pdf", token))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert "no-store" in response["Cache-Control"]
    assert "normans-v-saxons-summary.pdf" in response["Content-Disposition"]
    reader = PdfReader(io.BytesIO(response.content))
    text = " ".join(p.extract_text() for p in reader.pages)
    assert len(reader.pages) == 1 and "Normans v Saxons" in text and "1 of 2" in text
    page = Client().get(shared("game", token)).content.decode()
    assert f'href="/g/{token}/summary.pdf"' in page


def test_the_summary_pdf_by_a_link_counts_against_the_pdf_limit(game, owner_client, settings):
    view = links(owner_client, game, "view")
    settings.MUSTER_VISITOR_RATE_LIMITS = {**settings.MUSTER_VISITOR_RATE_LIMITS, "pdf": (0, 600)}
    assert Client().get(shared("summary_pdf", view)).status_code == 429  # a visitor's address


def test_a_points_rule_set_shows_the_points_lost(user, owner_client):
    units = [{"name": "Spears"}, {"name": "Archers", "missile_weapon": "foot_bow"}]
    host = create_army(army("into-the-dark", units, name="Host"), owner=user)
    game = services.start_game(user, army_a=host, army_b=host)
    services.remove_unit(game, version=game.version, unit_id=unit(game, "a", "Archers"))
    bob = signed_in("bob")
    bob.get(shared("game", links(owner_client, game, "view")))
    page = bob.get(MINE).content.decode()
    assert "Points lost" in page and "1 of 2 (Archers)" in page


def test_my_games_reads_many_seats_in_a_bounded_number_of_queries(
    user, owner_client, feudal_armies, django_assert_max_num_queries
):
    bob, carol = signed_in("bob"), signed_in("carol")  # carol: another owner, other lists
    danes = army("feudal-2017", [{"name": "Vikings", "type": "knights"}], name="Danes")
    carol_army = create_army(danes, owner=User.objects.get(username="carol"))

    def seat_more(n: int) -> None:
        for i in range(n):
            game = services.start_game(user, army_a=feudal_armies[0], army_b=feudal_armies[1])
            services.remove_unit(
                game, version=game.version, unit_id=unit(game, "b", "Knights"), why="Routed"
            )
            bob.get(shared("game", links(owner_client, game, "play" if i % 2 else "view")))
        theirs = services.start_game(carol_army.owner, army_a=carol_army, army_b=carol_army)
        bob.get(shared("game", links(carol, theirs, "view")))

    seat_more(1)
    lost = services.start_game(user, army_a=feudal_armies[0], army_b=feudal_armies[1])
    bob.get(shared("game", links(owner_client, lost, "play")))
    links(owner_client, lost, "play", "off")
    with django_assert_max_num_queries(30) as few:
        bob.get(MINE)
    seat_more(5)
    with django_assert_max_num_queries(30) as many:
        page = bob.get(MINE).content.decode()
    assert page.count("Take out of my games</button>") == 1 + 5 + 2 + 1
    assert "switched this link off" in page
    assert len(many.captured_queries) == len(few.captured_queries)
