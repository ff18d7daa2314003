"""Into the Dark's Dice for initiative at the table (Sequence of Play, 2.): the roll's form
is drawn in the turn's second phase, Turn 1 too; either phone rolls; the winner's phone
then keeps the Initiative or passes it (an action of its own, refused to the other seat),
and the turn goes on only once it has; next turn the last winner's -1 is shown and taken."""

from __future__ import annotations

import pytest
from django.test import Client

from armybuilder.armies.services import create_army
from armybuilder.games import selectors, services
from armybuilder.games.models import Game
from tests.support import army
from tests.web.games.conftest import route, take_seat, to_phase
from tests.web.games.operations import operation, results, send, url
from tests.web.games.test_views_links import links, shared

pytestmark = pytest.mark.django_db

SECTION = "Sequence of Play, 2. Dice for initiative"
UNITS = [{"name": "Spears"}, {"name": "Archers", "missile_weapon": "foot_bow"}]


@pytest.fixture
def seated(user) -> Game:
    """Saxons (side A, the owner's phone) v Normans (the link to play), Into the Dark."""
    saxons = create_army(army("into-the-dark", UNITS, name="Saxons"), owner=user)
    normans = create_army(army("into-the-dark", UNITS, name="Normans"), owner=user)
    return services.start_game(user, army_a=saxons, army_b=normans, seated=True)


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def roll(dice: str, turn: int = 1) -> dict:
    return operation("initiative", {"dice": dice, "seed": "", "turn": turn, "phase": "initiative"})


def keep_or_pass(choice: str, turn: int = 1) -> dict:
    return operation("keep_or_pass", {"choice": choice, "turn": turn, "phase": "initiative"})


def test_the_roll_is_drawn_in_turn_1s_initiative_phase_not_before(seated, owner_client):
    page = owner_client.get(route("game", seated)).content.decode()
    assert 'data-op="initiative"' not in page  # 1) Rallys first
    to_phase(seated, "initiative")
    page = owner_client.get(route("game", fresh(seated))).content.decode()
    assert 'data-op="initiative"' in page and f"<cite>{SECTION}</cite>" in page
    assert "the higher roll wins and keeps the Initiative or passes it" in page


def test_the_roll_keeps_each_seats_own_keep_or_pass_for_a_roll_worked_out_offline(
    seated, owner_client
):
    to_phase(seated, "initiative")
    seated = fresh(seated)
    play = links(owner_client, seated, "play")
    opponent = Client()
    take_seat(opponent, play)
    mine = owner_client.get(route("game", seated)).content.decode()
    assert '<template data-keep-or-pass="a">' in mine and 'data-keep-or-pass="b"' not in mine
    assert "Pass it to Normans" in mine and 'data-op="keep_or_pass"' in mine
    theirs = opponent.get(shared("game", play)).content.decode()
    assert '<template data-keep-or-pass="b">' in theirs and 'data-keep-or-pass="a"' not in theirs
    assert "Pass it to Saxons" in theirs
    # rolled: the server draws the winner's choice itself, and keeps no other
    send(owner_client, url(seated), roll("2 5"))
    assert "data-keep-or-pass" not in opponent.get(shared("game", play)).content.decode()


def test_the_winners_phone_passes_and_the_loser_moves_first(seated, owner_client):
    to_phase(seated, "initiative")
    seated = fresh(seated)
    play = links(owner_client, seated, "play")
    opponent = Client()
    # the owner's phone rolls: Saxons 2, Normans 5, the Normans win
    assert results(send(owner_client, url(seated), roll("2 5")))[0]["status"] == "applied"
    state = selectors.state_of(seated)
    assert (state.choosing, state.holder) == ("b", "a")
    page = owner_client.get(route("game", seated)).content.decode()
    assert "move first." not in page  # not until the winner has chosen
    assert 'data-op="next_phase" hidden>' in page  # the turn waits for the choice
    assert f"Turn 1: Saxons 2, Normans 5: Normans win the Initiative roll: they keep it or pass it ({SECTION})" in page  # fmt: skip
    assert 'data-op="keep_or_pass"' not in page  # not the owner's choice
    refused = results(send(owner_client, url(seated), keep_or_pass("keep")))
    assert refused[0]["status"] == "refused" and "Normans won the roll" in refused[0]["message"]
    moved = results(send(owner_client, url(seated), operation("next_phase", {
        "turn": 1, "phase": "initiative"})))  # fmt: skip
    assert moved[0]["status"] == "refused" and f"({SECTION})" in moved[0]["message"]
    # the Normans' phone draws the choice and passes
    take_seat(opponent, play)
    page = opponent.get(shared("game", play)).content.decode()
    assert 'data-op="keep_or_pass"' in page and "Pass it to Saxons" in page
    seated = fresh(seated)
    answer = opponent.post(shared("keep_or_pass", play), {"choice": "pass",
                                                         "version": seated.version})  # fmt: skip
    assert answer.status_code == 302
    action = seated.actions.get(kind="keep_or_pass")
    assert (action.seat, action.payload["holder"]) == ("b", "a")
    assert selectors.state_of(seated).holder == "a"
    page = owner_client.get(route("game", seated)).content.decode()
    assert f"Turn 1: Normans pass the Initiative: Saxons move first ({SECTION})" in page
    assert "Saxons hold the Initiative and move first." in page
    assert 'data-op="next_phase">' in page  # chosen: the turn goes on


def test_next_turn_the_last_winner_has_minus_1_shown_and_taken(seated, owner_client):
    to_phase(seated, "initiative")
    seated = fresh(seated)
    send(owner_client, url(seated), roll("6 1"))  # Saxons win
    send(owner_client, url(seated), keep_or_pass("keep"))  # one phone's choice for the owner
    seated = fresh(seated)
    while seated.turn == 1:
        services.next_phase(seated, version=seated.version)
        seated = fresh(seated)
    to_phase(seated, "initiative")
    page = owner_client.get(route("game", fresh(seated))).content.decode()
    assert "Saxons won the roll last turn: −1." in page
    assert results(send(owner_client, url(seated), roll("4 3", turn=2)))[0]["status"] == "refused"
    assert results(send(owner_client, url(seated), roll("5 3", turn=2)))[0]["status"] == "applied"
    action = seated.actions.filter(kind="initiative").last()
    assert action.payload["minus"] == {"a": 1, "b": 0} and action.payload["streak"] == 2


def test_a_choice_not_due_or_not_keep_or_pass_is_refused(seated, owner_client):
    to_phase(seated, "initiative")
    seated = fresh(seated)
    refused = results(send(owner_client, url(seated), keep_or_pass("keep")))
    assert refused[0]["status"] == "refused" and "No keep or pass is due" in refused[0]["message"]
    bad = send(owner_client, url(seated), keep_or_pass("swap"))
    assert bad.status_code == 400 and "operations[0].value.choice" in bad.json()["error"]
