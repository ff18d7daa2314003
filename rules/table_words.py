"""A game's log in words, and what the player typed read back: the words and readings
the server's game page and the page's engine (``rules.page.game``) share, so the phone's
working of an action reads exactly as the server's log does."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.combat import counted
from rules.table import (
    COMBAT,
    FORCE_MORALE,
    INITIATIVE,
    KEEP_OR_PASS,
    MAX_NUMBER,
    NEXT_PHASE,
    RALLY,
    REMOVE,
    UNDO,
    Refused,
)

# -- what the player typed ---------------------------------------------------------------------


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
            raise Refused("Type other numbers as name=number, e.g. figures=12.", "numbers")
        if int(value) > MAX_NUMBER:
            raise Refused(f"Numbers are whole numbers from 0 to {MAX_NUMBER}.", "numbers")
        found[key] = int(value)
    return found


# -- the log in words --------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One action of the log in words: what happened, the dice (and what rolled them) and
    the engine's steps, each citing its section."""

    text: str
    dice: str = ""
    steps: tuple[Mapping[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "dice": self.dice,
                "steps": [{"text": s["text"], "section": s["section"]} for s in self.steps]}  # fmt: skip

    def digest(self) -> str:
        """The line as one string, for the page to compare its own working with the
        server's log: equal exactly when the words, dice and steps are."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False)  # fmt: skip


def _rolled(dice: str, seed: str) -> str:
    return dice + (f" (rolled from seed {seed})" if seed else " (typed)")


def line(kind: str, payload: Mapping[str, Any], names: Mapping[str, str]) -> Line:
    """An action of the log in words (``names``: each phase's name by its key)."""
    p = payload
    if kind == COMBAT:
        result = p["result"]
        verdict = result.get("verdict") or {}
        text = (f"Turn {p['turn']}, {names.get(p['phase'], p['phase'])}: {p['attacker_name']} "
                f"against {p['target_name']}: {counted(result['hits'], result['unit'])} "
                f"({result['total']} in all)")  # fmt: skip
        if verdict.get("outcome") == "removed":
            text += f"; {verdict['text']} ({verdict['section']})"
        dice = _rolled(", ".join(str(d) for d in p["dice"]), p.get("seed") or "")
        return Line(text, dice, tuple(result["steps"]))
    if kind == RALLY:
        result = p["result"]
        words = result["steps"][-1]["text"] if result["steps"] else "no rally"
        text = (f"Turn {p['turn']}, {names.get(p['phase'], p['phase'])}: {p['unit_name']} "
                f"rallies: {words}")  # fmt: skip
        dice = "" if p.get("die") is None else _rolled(str(p["die"]), p.get("seed") or "")
        return Line(text, dice, tuple(result["steps"]))
    if kind == FORCE_MORALE:
        verdict = p["verdict"]
        plus = f", +{p['bonus']}" if p.get("bonus") else ""
        text = (f"Turn {p['turn']}, {names.get(p['phase'], p['phase'])}: force morale of "
                f"{p['side_name']} ({p['lost']} of {p['units']} units lost{plus}): "
                f"{verdict['text']} ({verdict['section']})")  # fmt: skip
        return Line(text, _rolled(", ".join(str(d) for d in p["dice"]), p.get("seed") or ""))
    if kind == INITIATIVE and "winner" in p:
        return _won(p)
    if kind == KEEP_OR_PASS:
        names_of, side = p["names"], p["side"]
        if p["choice"] == "keep":
            said = f"{names_of[side]} keep the Initiative and move first"
        else:
            said = (f"{names_of[side]} pass the Initiative: {names_of[p['holder']]} move "
                    f"first")  # fmt: skip
        return Line(f"Turn {p['turn']}: {said} ({p['section']})")
    if kind == INITIATIVE:
        held, holder, dice = p["held"], p["holder"], p["dice"]
        names_of, minus = p["names"], p.get("minus") or {}
        challenger = next(k for k in names_of if k != held)
        kept = "keep" if holder == held else "take"
        less, other_less = minus.get(held, 0), minus.get(challenger, 0)
        theirs = f"{dice[1]}-{other_less}={dice[1] - other_less}" if other_less else f"{dice[1]}"
        text = (f"Turn {p['turn']}: {names_of[held]} roll {dice[0]}+{p['bonus']}"
                f"{f'-{less}' if less else ''}={dice[0] + p['bonus'] - less}, "
                f"{names_of[challenger]} {theirs}: {names_of[holder]} {kept} the Initiative "
                f"({p['section']})")  # fmt: skip
        return Line(text, _rolled(", ".join(str(d) for d in dice), p.get("seed") or ""))
    if kind == NEXT_PHASE:
        to = p["to"]
        return Line(f"Turn {to['turn']}, {names.get(to['phase'], to['phase'])}")
    if kind == REMOVE:
        return Line(f"Turn {p['turn']}: {p['unit_name']} removed: {p['why']}")
    if kind == UNDO:
        return Line(f"Undo: action {p['of']} taken back")
    # a kind of action this table does not know (a plug-in's) records its own words in its
    # payload, so the log (and its file) says it without the web layer's help
    return Line(str(p.get("said") or kind.replace("_", " ").capitalize()))


def _won(p: Mapping[str, Any]) -> Line:
    """A roll whose winner keeps or passes the Initiative: each side's die (less last
    turn's winner's -1s), each pair but the last a tie rolled again, and the winner."""
    held, dice, names_of, minus = p["held"], p["dice"], p["names"], p.get("minus") or {}
    other = next(k for k in names_of if k != held)

    def one(side: str, die: int) -> str:
        less = minus.get(side, 0)
        return f"{names_of[side]} {die}-{less}={die - less}" if less else f"{names_of[side]} {die}"

    pairs = [f"{one(held, dice[i])}, {one(other, dice[i + 1])}" for i in range(0, len(dice), 2)]
    ties = "".join(f"{pair}: a tie, rolled again; " for pair in pairs[:-1])
    winner, streak = p["winner"], p["streak"]
    row = f" ({streak} turns in a row)" if streak > 1 else ""
    text = (f"Turn {p['turn']}: {ties}{pairs[-1]}: {names_of[winner]} win the Initiative "
            f"roll{row}: they keep it or pass it ({p['section']}"
            f"{'; ' + p['ties'] if ties else ''})")  # fmt: skip
    return Line(text, _rolled(", ".join(str(d) for d in dice), p.get("seed") or ""))
