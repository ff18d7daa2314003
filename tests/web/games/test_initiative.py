"""The Initiative roll at the table (Feudal's Initiative: +2 for the side holding it, who
also wins ties): its form is drawn at the start of the source's Turn 2 (the game's Turn 3,
its turns counting player turns) and after, before anything else is done; either phone may
roll it; a lost roll hands the first player turn to the other side, whose units then fight;
refused in the source's words when not due, never a server error."""

from __future__ import annotations

import pytest
from django.test import Client

from armybuilder.games import selectors, services
from armybuilder.games.models import Game, GameAction
from tests.web.games.conftest import route, unit
from tests.web.games.operations import operation, results, send, url
from tests.web.games.test_views_links import links, shared

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(user, feudal_armies) -> Game:
    """Normans (side A, the owner's phone, going first) v Saxons (the link to play)."""
    return services.start_game(user, army_a=feudal_armies[0], army_b=feudal_armies[1], seated=True)


def to_turn(game: Game, turn: int) -> Game:
    game = Game.objects.get(pk=game.pk)
    while game.turn < turn:
        services.next_phase(game, version=game.version)
        game = Game.objects.get(pk=game.pk)
    return game


def roll(dice: str, turn: int = 3, phase: str = "shoot") -> dict:
    return operation("initiative", {"dice": dice, "seed": "", "turn": turn, "phase": phase})


def test_the_form_is_drawn_only_when_the_roll_is_due(seated, owner_client):
    page = owner_client.get(route("game", seated)).content.decode()
    assert 'data-op="initiative"' not in page
    seated = to_turn(seated, 3)
    page = owner_client.get(route("game", seated)).content.decode()
    assert 'data-op="initiative"' in page and "<cite>Initiative</cite>" in page
    assert "data-keep-or-pass" not in page  # the holder's roll: nobody keeps or passes


def test_the_opponents_phone_rolls_and_takes_the_initiative_and_goes_first(seated, owner_client):
    seated = to_turn(seated, 3)
    play = links(owner_client, seated, "play")
    opponent = Client()
    # Normans 1+2=3, Saxons 6: the Saxons take it
    answer = opponent.post(shared("initiative", play), {"dice": "1 6", "version": seated.version})
    assert answer.status_code == 302
    action = seated.actions.get(kind="initiative")
    assert (action.seat, action.payload["holder"]) == ("b", "b")
    state = selectors.state_of(seated)
    assert state.holder == "b"
    page = owner_client.get(route("game", seated)).content.decode()
    assert "Turn 3: Normans roll 1+2=3, Saxons 6: Saxons take the Initiative (Initiative)" in page
    assert 'data-op="initiative"' not in page  # rolled once a turn
    # the game's file says who holds it now, beside who went first
    exported = owner_client.get(route("export", seated)).json()
    assert (exported["first"], exported["holds_initiative"]) == ("a", "b")
    # the Saxons' player turn now: the Normans' phone inflicts no hits in it
    seated = Game.objects.get(pk=seated.pk)
    services.next_phase(seated, version=seated.version, seat="b")
    seated = Game.objects.get(pk=seated.pk)
    services.next_phase(seated, version=seated.version, seat="b")  # to Phase 3: Mêlée
    seated = Game.objects.get(pk=seated.pk)
    knights, serjeants = unit(seated, "a", "Knights"), unit(seated, "b", "Serjeants")
    refused = results(send(owner_client, url(seated), operation("combat", {
        "attacker": knights, "target": serjeants, "modifiers": [], "die": "3", "numbers": "",
        "seed": "", "turn": 3, "phase": seated.phase})))  # fmt: skip
    assert refused[0]["status"] == "refused"
    assert "It is Saxons' player turn" in refused[0]["message"]


def test_a_tie_keeps_the_initiative_with_its_holder(seated, owner_client):
    seated = to_turn(seated, 3)
    answer = results(send(owner_client, url(seated), roll("4 6")))
    assert answer[0]["status"] == "applied"
    assert selectors.state_of(seated).holder == "a"


def test_a_roll_not_due_is_refused_citing_the_section(seated, owner_client):
    answer = results(send(owner_client, url(seated), roll("4 6", turn=1)))
    assert answer[0]["status"] == "refused"
    assert "start of Turn 2 and every Turn after" in answer[0]["message"]
    assert "(Initiative)" in answer[0]["message"]
    form = owner_client.post(route("initiative", seated), {"dice": "1 6",
                                                           "version": seated.version})  # fmt: skip
    assert form.status_code == 400 and "(Initiative)" in form.content.decode()
    assert not seated.actions.filter(kind="initiative").exists()


def test_a_wrong_value_is_400_naming_the_field(seated, owner_client):
    seated = to_turn(seated, 3)
    bad = send(owner_client, url(seated), operation("initiative", {"dice": 5, "turn": 3,
                                                                   "phase": "shoot"}))  # fmt: skip
    assert bad.status_code == 400 and "operations[0].value.dice" in bad.json()["error"]
    typed = results(send(owner_client, url(seated), roll("9 1")))
    assert typed[0]["status"] == "refused" and "9 is not a face" in typed[0]["message"]
    assert not GameAction.objects.filter(game=seated, kind="initiative").exists()


def test_the_optional_penalty_reads_the_units_lost_from_the_log(seated, owner_client):
    services.remove_unit(
        seated, version=seated.version, unit_id=unit(seated, "b", "Knights"), why="Destroyed"
    )
    seated = to_turn(seated, 3)
    page = owner_client.get(route("game", seated)).content.decode()
    assert 'name="penalty"' in page
    # Normans 2+2=4 against Saxons 5-1=4: a tie, the Normans keep it
    ticked = {"dice": "2 5", "penalty": True, "seed": "", "turn": 3, "phase": "shoot"}
    assert (
        results(send(owner_client, url(seated), operation("initiative", ticked)))[0]["status"]
        == "applied"
    )
    action = seated.actions.get(kind="initiative")
    assert action.payload["minus"] == {"a": 0, "b": 1} and action.payload["holder"] == "a"
