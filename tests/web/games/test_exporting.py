"""A game's file, muster.game/1: both armies, where the game stands, the log with each
combat's worked steps and the sections they cite."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from armybuilder.games import services
from tests.web.games.conftest import to_phase, unit

pytestmark = pytest.mark.django_db


def test_the_game_file_holds_both_armies_and_the_log(game, owner_client):
    to_phase(game, "melee")
    knights, target = unit(game, "a", "Knights"), unit(game, "b", "Knights")
    services.apply_combat(game, game.version, knights, target, ["rear"], 6)
    services.undo_last(game, game.version)
    services.apply_combat(game, game.version, knights, target, [], 4)
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


def test_a_rally_is_in_the_file_with_what_it_read(game, owner_client):
    to_phase(game, "rally")
    serjeants = unit(game, "a", "Serjeants")
    services.rally(game, game.version, serjeants, ["moved"])
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
    services.rally(game, game.version, serjeants, ["priest"], seed="5eed")
    entry = owner_client.get(reverse("games:export", args=[game.pk])).json()["log"][-1]
    assert entry["seed"] == "5eed"
    assert entry["dice"] == list(services.roll("5eed", range(1, 7), 1)) == [entry["die"]]
