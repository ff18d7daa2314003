"""A game's file, muster.game/1: both armies, where the game stands, the log with each
combat's worked steps and the sections they cite."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from armybuilder.armies.services import create_army
from armybuilder.games import services
from tests.support import army
from tests.web.games.conftest import KNIGHTS, to_phase, unit

pytestmark = pytest.mark.django_db


def test_the_game_file_holds_both_armies_and_the_log(game, owner_client):
    to_phase(game, "melee")
    knights, target = unit(game, "a", "Knights"), unit(game, "b", "Knights")
    services.apply_combat(
        game, version=game.version, attacker_id=knights, target_id=target, modifiers=["rear"], die=6
    )
    services.undo_last(game, version=game.version)
    services.apply_combat(
        game, version=game.version, attacker_id=knights, target_id=target, modifiers=[], die=4
    )
    response = owner_client.get(reverse("games:export", args=[game.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="game-{game.pk}.json"'
    data = json.loads(response.content)
    assert data["format"] == "muster.game/1"
    assert (data["ruleset"], data["turn"], data["phase"]) == ("feudal-2017", 1, "melee")
    assert data["sides"]["a"]["name"] == "Normans"
    assert data["sides"]["b"]["army"] == game.side_b["document"]
    assert "list_revisions" in data["sides"]["a"]
    kinds = [(e["number"], e["kind"], e["undone"]) for e in data["log"]]
    assert kinds == [(1, "next_phase", False), (2, "next_phase", False), (3, "combat", True),
                     (4, "undo", False), (5, "combat", False)]  # fmt: skip
    combat = data["log"][-1]
    assert combat["attacker"] == knights and combat["target"] == target
    assert combat["dice"] == [4] and combat["result"]["hits"] == 6
    assert all(step["section"] for step in combat["result"]["steps"])
    assert data["log"][3]["of"] == 3
    assert data["summary"]["turns"] == 1
    assert (data["first"], data["holds_initiative"]) == ("a", "a")  # no roll yet


def test_a_rally_is_in_the_file_with_what_it_read(game, owner_client):
    to_phase(game, "rally")
    serjeants = unit(game, "a", "Serjeants")
    services.rally(game, version=game.version, unit_id=serjeants, facts=["moved"])
    entry = owner_client.get(reverse("games:export", args=[game.pk])).json()["log"][-1]
    assert (entry["kind"], entry["unit"], entry["facts"], entry["die"]) == (
        "rally",
        serjeants,
        ["moved"],
        None,
    )
    assert entry["result"]["steps"][0]["section"] == "4.1 Rallying"


def test_a_rolled_rally_die_is_in_the_file_with_its_seed(game, owner_client):
    to_phase(game, "rally")
    serjeants = unit(game, "a", "Serjeants")
    services.rally(game, version=game.version, unit_id=serjeants, facts=["priest"], seed="5eed")
    entry = owner_client.get(reverse("games:export", args=[game.pk])).json()["log"][-1]
    assert entry["seed"] == "5eed"
    assert entry["dice"] == list(services.roll("5eed", range(1, 7), 1)) == [entry["die"]]


def test_the_opponents_links_give_the_file_without_the_armies_notes(user, owner_client):
    secret = "Feint left, then the knights go round the wood"
    mine = create_army({**army("feudal-2017", [KNIGHTS], name="Normans"), "notes": secret},
                       owner=user)  # fmt: skip
    theirs = create_army(army("feudal-2017", [KNIGHTS], name="Saxons"), owner=user)
    game = services.start_game(user, army_a=mine, army_b=theirs)
    own = owner_client.get(reverse("games:export", args=[game.pk])).json()
    assert own["sides"]["a"]["army"]["notes"] == secret  # the owner's own file keeps them
    for which in ("view", "play"):
        token = services.set_link(game, which=which, on=True)
        visitor = Client()  # whoever the link reached
        response = visitor.get(reverse("games:shared_export", args=[token]))
        assert response.status_code == 200
        assert secret not in response.content.decode()
        data = response.json()
        assert "notes" not in data["sides"]["a"]["army"]
        assert data["sides"]["a"]["army"]["units"] == own["sides"]["a"]["army"]["units"]
        page = visitor.get(reverse("games:shared", args=[token])).content.decode()
        assert "Feint left" not in page
