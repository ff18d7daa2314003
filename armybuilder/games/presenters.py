"""What the game page shows: each side's cards with their state, the log in words, and
the combat form's input read back (the die typed, the numbers)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from armybuilder.games import selectors
from armybuilder.games.models import Game, GameAction
from rules import seats, table, table_words
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
    by: str = ""  # whose phone made it, "Normans'" ("": one phone plays both sides)
    seat: str = ""  # that phone's side, "a" or "b"


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
    sides = selectors.side_names(game)
    lines = []
    for action in actions:
        said = table_words.line(action.kind, action.payload, names)
        lines.append(LogLine(action.number, action.kind, said.text, said.steps, action.undone,
                             said.dice, action.key or "", said.digest(),
                             seats.of(sides[action.seat]) if action.seat in sides else "",
                             action.seat))  # fmt: skip
    return lines[::-1]


read_dice, read_rally_die = table_words.read_dice, table_words.read_rally_die
read_numbers = table_words.read_numbers


def seat_offer(
    game: Game, mine: str | None, turn: int, state: table.Table | None = None
) -> dict[str, Any]:
    """Whose player turn ``turn`` is and what the phone holding seat ``mine`` (None: one
    phone plays both sides) may do in it (``rules.seats``): the sides whose units it may
    pick as attackers, rally, remove and roll force morale for, and whether it moves the
    turn on."""
    state = state if state is not None else selectors.state_of(game)
    at = selectors.turn_of(game, number=turn, state=state)
    names = at.names
    phasing, one_sided = at.phasing, at.engine.one_sided
    attack_sides = [k for k in names if _allowed(seats.may_attack, at, mine, k)]
    rule = at.engine.initiative(selectors.options(game))
    # where the roll's winner keeps or passes the Initiative (Into the Dark) the side
    # holding it moves first; said once a roll has been won and the choice made
    first = rule is not None and rule.choose
    return {
        "moves_first": names[state.holder] if first and state.won and not state.choosing else "",
        "first_names_json": json.dumps(names) if first else "",
        "plays": names[mine] if mine else "",
        "plays_of": seats.of(names[mine]) if mine else "",
        "phasing": names[phasing] if phasing else "",
        "phasing_of": seats.of(names[phasing]) if phasing else "",
        "one_sided_section": one_sided[0] if one_sided else "",
        # each side's name as an owner, for the page's script to say whose turn it is
        "turns_of_json": json.dumps({k: seats.of(v) for k, v in names.items()}),
        "attack_sides": attack_sides,
        # a target is the other side of an attacker this phone may pick: no Target button
        # on a card that could only be refused ("are on the same side")
        "target_sides": [k for k in names if seats.other(k) in attack_sides],
        "pick_sides": [k for k in names if k in attack_sides or seats.other(k) in attack_sides],
        "rally_sides": [k for k in names if _allowed(seats.may_rally, at, mine, k)],
        "own_sides": [k for k in names if mine is None or k == mine],
        # not while the roll's winner is yet to keep or pass the Initiative (refused then)
        "may_move_on": _allowed(seats.may_end_phase, at, mine) and not state.choosing,
    }


def _allowed(check: Any, *args: Any) -> bool:
    try:
        check(*args)
    except table.Refused:
        return False
    return True
