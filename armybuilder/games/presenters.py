"""What the game page shows: each side's cards with their state, the log in words, and
the combat form's input read back (the die typed, the numbers)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from armybuilder.games import selectors
from armybuilder.games.models import Game, GameAction
from armybuilder.games.services import MAX_NUMBER, Refused
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
        p = action.payload
        steps: tuple[Mapping[str, str], ...] = ()
        dice = ""
        if action.kind == GameAction.COMBAT:
            result = p["result"]
            verdict = result.get("verdict") or {}
            text = (f"Turn {p['turn']}, {names.get(p['phase'], p['phase'])}: {p['attacker_name']} "
                    f"against {p['target_name']}: {result['hits']} {result['unit']} "
                    f"({result['total']} in all)")  # fmt: skip
            if verdict.get("outcome") == "removed":
                text += f"; {verdict['text']} ({verdict['section']})"
            steps = tuple(result["steps"])
            dice = ", ".join(str(d) for d in p["dice"])
            dice += f" (rolled from seed {p['seed']})" if p.get("seed") else " (typed)"
        elif action.kind == GameAction.RALLY:
            result = p["result"]
            said = result["steps"][-1]["text"] if result["steps"] else "no rally"
            text = (f"Turn {p['turn']}, {names.get(p['phase'], p['phase'])}: {p['unit_name']} "
                    f"rallies: {said}")  # fmt: skip
            steps = tuple(result["steps"])
            dice = "" if p.get("die") is None else str(p["die"])
            if dice:
                dice += f" (rolled from seed {p['seed']})" if p.get("seed") else " (typed)"
        elif action.kind == GameAction.FORCE_MORALE:
            verdict = p["verdict"]
            plus = f", +{p['bonus']}" if p.get("bonus") else ""
            text = (f"Turn {p['turn']}, {names.get(p['phase'], p['phase'])}: force morale of "
                    f"{p['side_name']} ({p['lost']} of {p['units']} units lost{plus}): "
                    f"{verdict['text']} ({verdict['section']})")  # fmt: skip
            dice = ", ".join(str(d) for d in p["dice"])
            dice += f" (rolled from seed {p['seed']})" if p.get("seed") else " (typed)"
        elif action.kind == GameAction.NEXT_PHASE:
            to = p["to"]
            text = f"Turn {to['turn']}, {names.get(to['phase'], to['phase'])}"
        elif action.kind == GameAction.REMOVE:
            text = f"Turn {p['turn']}: {p['unit_name']} removed: {p['why']}"
        elif action.kind == GameAction.UNDO:
            text = f"Undo: action {p['of']} taken back"
        else:
            text = action.get_kind_display()
        lines.append(LogLine(action.number, action.kind, text, steps, action.undone, dice,
                             action.key or ""))  # fmt: skip
    return lines[::-1]


def read_dice(text: str) -> tuple[int, ...] | None:
    """The die (or dice) typed, ``5`` or ``3 4 6``; None when left empty (roll them)."""
    parts = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    if not parts:
        return None
    if len(parts) > 200 or not all(p.isdigit() and len(p) <= 4 for p in parts):
        raise Refused("Type the die as a number (5), or several dice with spaces (3 4 6); "
                      "leave it empty to roll.")  # fmt: skip
    return tuple(int(p) for p in parts)


def read_rally_die(text: str) -> int | None:
    """The rally's die typed (one: a rally rolls one), None when left empty."""
    dice = read_dice(text[:20])
    if dice is not None and len(dice) != 1:
        raise Refused("A rally rolls one die: type it alone.")
    return dice[0] if dice else None


def read_numbers(text: str) -> dict[str, int]:
    """What else the source's sums read, typed as ``figures=12 men=20``."""
    found = {}
    for part in (p for p in re.split(r"[\s,]+", text.strip()) if p):
        key, _, value = part.partition("=")
        if not re.fullmatch(r"[a-z_]{1,40}", key) or not value.isdigit() or len(value) > 5:
            raise Refused("Type other numbers as name=number, e.g. figures=12.")
        if int(value) > MAX_NUMBER:
            raise Refused(f"Numbers are whole numbers from 0 to {MAX_NUMBER}.")
        found[key] = int(value)
    return found
