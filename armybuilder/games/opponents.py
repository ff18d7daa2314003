"""Where a game's opponent may come from besides the player's own armies and share links.

An app above games adds a source here in its ``AppConfig.ready`` (events: an opponent's
army as an event revealed it), as events adds its share guard to armies: games never
imports it, and My games' start form offers what each source offers the player.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from armybuilder.armies.models import Army
from armybuilder.games.models import Game

# (a group's label, [(the value posted, the choice's label), ...])
Groups = list[tuple[str, list[tuple[str, str]]]]


@dataclass(frozen=True)
class OpponentSource:
    field: str  # the start form's field
    label: str  # its label on the form
    missing: str  # the form's error when the value names nothing the player is offered
    offered: Callable[[Any], Groups]  # the choices for a player, grouped
    # a game of the player's army against the value's opponent; None: not offered to them
    start: Callable[[Any, Army, str], Game | None]


SOURCES: list[OpponentSource] = []
