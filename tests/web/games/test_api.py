"""GET /api/v1/games/<game>: the owner's game as muster.game/1, inside the API's
description; anyone else gets the JSON 404 a missing game gets."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse
from jsonschema import Draft202012Validator

from armybuilder.games import services
from armybuilder.games.exporting import game_document
from tests.web.games.conftest import to_phase, unit
from tests.web.routes import signed_in

pytestmark = pytest.mark.django_db


def url(game) -> str:
    return reverse("api:game", args=[game.pk])


def test_the_owner_gets_the_games_file_with_its_losses(game, owner_client):
    services.remove_unit(
        game, version=game.version, unit_id=unit(game, "b", "Knights"), why="Routed"
    )
    response = owner_client.get(url(game))
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert "no-store" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    body = response.json()
    assert body == json.loads(json.dumps(game_document(game)))
    assert body["format"] == "muster.game/1" and body["name"] == "Normans v Saxons"
    assert body["summary"]["sides"]["b"]["lost"] == ["Knights"]
    assert [a["kind"] for a in body["log"]] == ["remove"]


def test_the_answer_is_inside_the_described_schema(game, owner_client):
    to_phase(game, "melee")
    services.apply_combat(game, version=game.version, attacker_id=unit(game, "a", "Knights"),
                          target_id=unit(game, "b", "Serjeants"), modifiers=(), die=None)  # fmt: skip
    services.undo_last(game, version=game.version)
    described = owner_client.get("/api/v1/openapi.json").json()
    assert "/api/v1/games/{game}" in described["paths"]
    validator = Draft202012Validator(
        {"$ref": "#/components/schemas/GameDocument", "components": described["components"]}
    )
    body = owner_client.get(url(game)).json()
    assert not list(validator.iter_errors(body))
    assert [a["kind"] for a in body["log"]][-2:] == ["combat", "undo"]


def test_a_game_just_started_is_inside_the_described_schema_with_no_turn_played(game, owner_client):
    described = owner_client.get("/api/v1/openapi.json").json()
    validator = Draft202012Validator(
        {"$ref": "#/components/schemas/GameDocument", "components": described["components"]}
    )
    body = owner_client.get(url(game)).json()
    assert body["summary"]["turns"] == 0
    assert not list(validator.iter_errors(body))


def test_another_player_a_visitor_and_a_missing_game_get_the_same_404(game, owner_client):
    answers = [signed_in("mallory").get(url(game)), Client().get(url(game)),
               owner_client.get(reverse("api:game", args=[game.pk + 1000]))]  # fmt: skip
    for answer in answers:
        assert answer.status_code == 404
        assert answer.json() == {"error": "no such game", "path": ""}


def test_it_is_read_only(game, owner_client):
    assert owner_client.head(url(game)).status_code == 200
    assert owner_client.delete(url(game)).status_code == 405
