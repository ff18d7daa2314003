"""Sending a game's operations as the page's script does, for the operation tests."""

from __future__ import annotations

import itertools
from typing import Any

from django.test import Client
from django.urls import reverse

from armybuilder.games.models import Game
from tests.web.games.conftest import unit

_keys = itertools.count(1)


def new_key() -> str:
    return f"op-key-{next(_keys):04d}"


def url(game: Game) -> str:
    return reverse("games:operations", args=[game.pk])


def send(client: Client, where: str, *operations: dict[str, Any], **extra: Any):
    return client.post(where, {"operations": list(operations), **extra},
                       content_type="application/json")  # fmt: skip


def operation(op: str, value: dict[str, Any], key: str = "", base: int = 1) -> dict[str, Any]:
    return {"key": key or new_key(), "base_version": base, "op": op, "value": value}


def combat(game: Game, attacker: str, target: str, *, turn: int = 1, phase: str, die: str = "3",
           seed: str = "", key: str = "", modifiers: tuple[str, ...] = ()) -> dict[str, Any]:  # fmt: skip
    """A combat of ``attacker`` (side a's unit) against ``target`` (side b's), by name."""
    return operation("combat", {"attacker": unit(game, "a", attacker),
                                "target": unit(game, "b", target), "modifiers": list(modifiers),
                                "die": die, "numbers": "", "seed": seed, "turn": turn,
                                "phase": phase}, key)  # fmt: skip


def next_phase(turn: int, phase: str, key: str = "") -> dict[str, Any]:
    return operation("next_phase", {"turn": turn, "phase": phase}, key)


def results(response) -> list[dict[str, Any]]:
    assert response.status_code == 200, response.content[:400]
    return response.json()["results"]


def statuses(response) -> list[str]:
    return [r["status"] for r in results(response)]
