"""Who may do what at the table: each phone holds one side's seat, and the source's turn
sequence says whose units act.

A game played on two phones gives each phone a seat, "a" or "b"; a solo game (one phone
plays both sides) has none, and nothing here refuses it anything. With seats:

- a seat records what its own units do (their combats, rallies and removals) and its own
  force morale; the other player records theirs;
- where the source's player turns are one-sided (``CombatRules.one_sided``: Feudal 3.1,
  both Dark Ages editions' One-Sided Melee) only the phasing side's units inflict hits, and
  only the phasing player moves the turn on to its next phase; where the source works
  combat out for both sides at once (Into the Dark, Dewitt) either side's units fight in
  every phase;
- where the source rallies only phasing units (``CombatRules.rally_phasing``: Feudal
  4.1a) a unit rallies in its own player turn;
- Undo takes back one's own actions only.

Where the player turns are one-sided the game's turn counter counts them (as the page and
the log say "Turn 2"): the side that goes first plays the odd ones. Every refusal names
the rule and its section.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.combat import CombatRules
from rules.table import Refused

SEATS = ("a", "b")


def of(name: str) -> str:
    """``name`` as an owner in words: "Normans'", "Harold's"."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def other(side: str) -> str:
    return "b" if side == "a" else "a"


@dataclass(frozen=True)
class Turn:
    """A game's turn as ``rules.seats`` reads it: the rule set's combat rules, the turn's
    number, the side that goes first and each side's army name (by "a" and "b")."""

    engine: CombatRules
    number: int
    first: str
    names: Mapping[str, str]

    @property
    def phasing(self) -> str | None:
        """The side whose player turn this is, where the source's turns are one-sided
        (None: both sides act in every turn)."""
        if self.engine.one_sided is None:
            return None
        return self.first if self.number % 2 == 1 else other(self.first)


def may_attack(turn: Turn, seat: str | None, side: str) -> None:
    """Refused unless ``seat`` may record a combat of a unit of ``side`` now."""
    if seat is None:
        return
    own(seat, side, turn.names, "combats")
    phasing = turn.phasing
    if phasing is not None and side != phasing:
        section, words = turn.engine.one_sided or ("", "")
        raise Refused(f"It is {of(turn.names[phasing])} player turn: {words} ({section}). "
                      f"{of(turn.names[side])} units fight in their own player turn.")  # fmt: skip


def may_rally(turn: Turn, seat: str | None, side: str) -> None:
    """Refused unless ``seat`` may rally a unit of ``side`` now."""
    if seat is None:
        return
    own(seat, side, turn.names, "rallies")
    phasing, section = turn.phasing, turn.engine.rally_phasing
    if phasing is not None and side != phasing and section:
        raise Refused(f"It is {of(turn.names[phasing])} player turn: only phasing units rally "
                      f"({section}).")  # fmt: skip


def may_end_phase(turn: Turn, seat: str | None) -> None:
    """Refused unless ``seat`` may move the turn on: the phasing player ends their own
    phases where the player turns are one-sided."""
    phasing = turn.phasing
    if seat is not None and phasing is not None and seat != phasing:
        raise Refused(f"It is {of(turn.names[phasing])} player turn: their player moves it on "
                      "to the next phase.")  # fmt: skip


def own(seat: str | None, side: str, names: Mapping[str, str], what: str) -> None:
    """Refused unless ``side`` is ``seat``'s: each player records their own units'
    ``what`` (removals, force morale)."""
    if seat is None or seat == side:
        return
    raise Refused(f"This phone plays {names[seat]}: {of(names[side])} {what} are recorded on "
                  f"their player's phone.")  # fmt: skip


def may_undo(seat: str | None, made_by: str, names: Mapping[str, str]) -> None:
    """Refused unless the action made by ``made_by`` ("": no seat, a solo game's or one
    from before seats) may be taken back from ``seat``: one's own actions only."""
    if seat is None or not made_by or made_by == seat:
        return
    raise Refused(f"That action was made on {of(names[made_by])} phone: only their player "
                  "takes it back.")  # fmt: skip
