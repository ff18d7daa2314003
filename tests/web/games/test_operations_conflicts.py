"""Two phones at one game, one of them offline for a while: a batch made offline lands in
order; an operation made at a turn or phase the game has left is answered "conflict" in
words, never applied in the wrong phase; Undo takes back an operation by its key."""

from __future__ import annotations

import pytest
from django.test import Client

from armybuilder.games import selectors
from armybuilder.games.models import Game, GameAction
from tests.web.games.conftest import route, to_phase, unit
from tests.web.games.operations import combat, next_phase, operation, results, send, statuses
from tests.web.games.operations import url as owners
from tests.web.games.test_views_links import links, shared

pytestmark = pytest.mark.django_db


def test_a_batch_made_offline_lands_in_order(archers_game, owner_client):
    game = archers_game
    offline = [
        combat(game, "Bowmen", "Knights", phase="shoot", die="6"),
        next_phase(1, "shoot"),
        next_phase(1, "move"),
        combat(game, "Knights", "Bowmen", phase="melee", die="4"),
    ]
    response = send(owner_client, owners(game), *offline)
    assert statuses(response) == ["applied"] * 4
    game.refresh_from_db()
    assert (game.turn, game.phase, game.version) == (1, "melee", 5)
    log = list(game.actions.values_list("kind", "key"))
    assert log == [("combat", offline[0]["key"]), ("next_phase", offline[1]["key"]),
                   ("next_phase", offline[2]["key"]), ("combat", offline[3]["key"])]  # fmt: skip
    shot, fought = (game.actions.get(key=offline[i]["key"]).payload for i in (0, 3))
    assert (shot["phase"], shot["dice"]) == ("shoot", [6])
    assert (fought["phase"], fought["dice"]) == ("melee", [4])


def test_the_other_phones_next_phase_first_is_a_conflict_for_what_was_made_in_the_old_phase(
    archers_game, owner_client
):
    game = archers_game
    play = links(owner_client, game, "play")
    # the opponent's phone goes on to Phase 2 while the owner's is offline in Phase 1
    assert statuses(send(Client(), shared("operations", play), next_phase(1, "shoot"))) == [
        "applied"
    ]
    offline = [combat(game, "Bowmen", "Knights", phase="shoot", die="6"), next_phase(1, "shoot")]
    said = results(send(owner_client, owners(game), *offline))
    assert [r["status"] for r in said] == ["conflict", "conflict"]
    assert said[0]["message"] == (
        "Not applied: the game had moved on to Turn 1, Phase 2: Move (the other phone?) when "
        "this combat of Bowmen against Knights from Turn 1, Phase 1: Shoot arrived."
    )
    assert said[1]["message"] == (
        "Not applied: the game had moved on to Turn 1, Phase 2: Move (the other phone?) when "
        "this Next phase from Turn 1, Phase 1: Shoot arrived."
    )
    game.refresh_from_db()
    assert (game.turn, game.phase) == (1, "move")  # advanced once, by two phones
    assert list(game.actions.values_list("kind", flat=True)) == ["next_phase"]
    assert selectors.state_of(game).of(unit(game, "b", "Knights")).damage == {}


def test_an_operation_made_in_a_phase_an_undo_took_back_is_a_conflict_too(game, owner_client):
    to_phase(game, "move")
    ahead = combat(game, "Knights", "Knights", phase="melee")
    said = results(send(owner_client, owners(game), ahead))[0]
    assert said == {"key": ahead["key"], "status": "conflict", "message": (
        "Not applied: the game was back at Turn 1, Phase 2: Move (an undo on the other "
        "phone?) when this combat of Knights against Knights from Turn 1, Phase 3: Mêlée "
        "arrived.")}  # fmt: skip
    nowhere = combat(game, "Knights", "Knights", phase="skirmish")
    said = results(send(owner_client, owners(game), nowhere))[0]
    assert said["message"] == (
        "Not applied: this combat of Knights against Knights was made in a phase this game "
        "does not have."
    )
    assert not game.actions.filter(kind=GameAction.COMBAT).exists()


def test_undo_takes_back_an_operation_by_its_key_once(game, owner_client):
    to_phase(game, "melee")
    target = unit(game, "b", "Knights")
    first = combat(game, "Knights", "Knights", phase="melee", die="1")
    second = combat(game, "Knights", "Knights", phase="melee", die="2")
    send(owner_client, owners(game), first, second)
    assert selectors.state_of(game).of(target).damage == {"hits": 7}  # 3, then 3 + 4
    undo = operation("undo", {"of": first["key"]})
    said = results(send(owner_client, owners(game), undo))[0]
    assert said["status"] == "applied"
    taken = game.actions.get(key=first["key"])
    assert taken.undone and game.actions.get(key=undo["key"]).payload == {
        "of": taken.number, "of_kind": "combat"}  # fmt: skip
    assert not game.actions.get(key=second["key"]).undone
    # taken back already: by another undo of it, or the same one sent again
    for again in (operation("undo", {"of": first["key"]}), undo):
        said_again = results(send(owner_client, owners(game), again))[0]
        assert said_again == {"key": again["key"], "status": "duplicate",
                              "number": said["number"]}  # fmt: skip
    assert game.actions.filter(kind=GameAction.UNDO).count() == 1


def test_undo_of_an_operation_never_applied_is_refused(game, owner_client):
    refused = combat(game, "Knights", "Knights", phase="melee")  # the game is in Phase 1
    undo = operation("undo", {"of": refused["key"]})
    said = results(send(owner_client, owners(game), refused, undo))
    assert [r["status"] for r in said] == ["conflict", "refused"]
    assert said[1]["message"] == "Nothing to undo: that action was never applied."
    assert not game.actions.exists()


def test_undo_without_a_key_takes_back_the_last_action_standing(game, owner_client):
    said = results(send(owner_client, owners(game), next_phase(1, "shoot"), next_phase(1, "move"),
                        operation("undo", {})))  # fmt: skip
    assert [r["status"] for r in said] == ["applied"] * 3
    assert Game.objects.get(pk=game.pk).phase == "move"
    said = results(send(owner_client, owners(game), operation("undo", {}),
                        operation("undo", {})))  # fmt: skip
    assert [r["status"] for r in said] == ["applied", "refused"]
    assert said[1]["message"] == "Nothing to undo: no action of this game stands."
    game.refresh_from_db()
    assert (game.phase, game.version) == ("shoot", 5)  # four actions


def test_undo_names_an_action_made_by_a_form_by_its_number_in_the_log(game, owner_client):
    """Actions made without the script have no key: the page names them by their number."""
    owner_client.post(route("next_phase", game), {"version": game.version})
    owner_client.post(route("next_phase", game), {"version": game.version + 1})
    first = game.actions.get(number=1)
    said = results(send(owner_client, owners(game), operation("undo", {"number": first.number})))
    assert said[0]["status"] == "applied"
    assert game.actions.get(number=1).undone and not game.actions.get(number=2).undone
    again = results(send(owner_client, owners(game), operation("undo", {"number": 1})))
    assert again[0]["status"] == "duplicate" and again[0]["number"] == said[0]["number"]
    missing = results(send(owner_client, owners(game), operation("undo", {"number": 99})))
    assert missing[0] == {**missing[0], "status": "refused",
                          "message": "Nothing to undo: that action was never applied."}  # fmt: skip
    bad = send(owner_client, owners(game), operation("undo", {"number": "1"}))
    assert bad.status_code == 400 and "value.number" in bad.json()["error"]
