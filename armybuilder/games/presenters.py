"""What the game page shows: each side's cards with their state, the log in words, and
the combat form's input read back (the die typed, the numbers)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from armybuilder.games import selectors
from armybuilder.games.models import Game, GameAction
from rules import table_words
from rules.qrs import stat_label


@dataclass(frozen=True)
class CardView:
    card: selectors.UnitCard
    state: selectors.UnitState

    @property
    def stat_line(self) -> list[tuple[str, Any]]:
        return [(stat_label(key), value) for key, value in self.card.stats.items()]


@dataclass(frozen=True)
class LogLine:
    number: int
    kind: str
    text: str
    steps: tuple[Mapping[str, str], ...]
    undone: bool
    dice: str
    key: str = ""  # the one-time key the page's script sent it with ("" from a form)
    digest: str = ""  # its words as JSON, for the page to compare with its own working


def cards(game: Game, state: selectors.GameState) -> list[tuple[selectors.SideView, list]]:
    return [
        (view, [CardView(c, state.of(c.key)) for c in view.cards])
        for view in selectors.sides(game).values()
    ]


def phase_names(game: Game) -> dict[str, str]:
    return {p.key: p.name for p in selectors.phases(game)}


def log_lines(game: Game, actions: Iterable[GameAction]) -> list[LogLine]:
    """Every action, newest first, in words; a combat with its worked steps."""
    names = phase_names(game)
    lines = []
    for action in actions:
        said = table_words.line(action.kind, action.payload, names)
        lines.append(LogLine(action.number, action.kind, said.text, said.steps, action.undone,
                             said.dice, action.key or "", said.digest()))  # fmt: skip
    return lines[::-1]


read_dice, read_rally_die = table_words.read_dice, table_words.read_rally_die
read_numbers = table_words.read_numbers
