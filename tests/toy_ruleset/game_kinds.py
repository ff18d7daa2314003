"""A kind of game action that exists only in the tests: a player's note in a game's log
("the left flank holds the ford"). It is the whole of what a new kind of action is: this
one class, registered with ``armybuilder.games.kinds.register(Note())``, and its form's
partial (``templates/games/_toy_note.html`` beside it). Nothing in ``armybuilder/`` or
``rules/`` names it; tests/web/games/test_kinds.py plays it through the game's page, its
form and the batch of operations.

A note changes nothing on the table, so ``rules.table`` has nothing to replay: its payload
carries its words (``said``), which the log reads back.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from armybuilder.games import kinds, selectors, services
from armybuilder.games.models import Game, GameAction
from rules.text import text_problem


class Note(kinds.GameKind):
    name, path, anchor = "note", "note", "log"
    fields = (kinds.Posted("text", longest=200),)
    partial = "games/_toy_note.html"

    def parse(self, value: kinds.Parsed, path: str) -> dict[str, str]:
        return {"text": kinds.text(value, "text", path, 200, 1)}

    def apply(
        self, game: Game, parsed: kinds.Parsed, seat: kinds.Side, made: kinds.Made = kinds.BARE
    ) -> GameAction:
        problem = text_problem(parsed["text"])
        if problem:
            raise services.Refused(f"The note contains {problem}.")

        def make(locked: Game, state: selectors.GameState, actions: list[GameAction]) -> dict:
            return {"turn": state.turn, "phase": state.phase, "text": parsed["text"],
                    "said": f"Turn {state.turn}: note: {parsed['text']}"}  # fmt: skip

        return services.record_action(
            game, version=made.version, kind=self.name, make=make, keyed=made.keyed, seat=seat
        )

    def what(self, game: Game, parsed: kinds.Parsed) -> str:
        return "note"

    def done(self, action: GameAction) -> str:
        return "Noted."

    def form(self, game: Game, state: selectors.GameState, seat: kinds.Side) -> dict:
        return {"turn": state.turn}


@contextmanager
def registered(settings: Any) -> Iterator[Note]:
    """The note registered and its partial on the template path (``settings``: the test's
    settings, as pytest-django gives them), as a plug-in's app would have them; both gone
    again after."""
    engine = {**settings.TEMPLATES[0]}
    engine["DIRS"] = [*engine["DIRS"], Path(__file__).parent / "templates"]
    settings.TEMPLATES = [engine, *settings.TEMPLATES[1:]]
    note = Note()
    kinds.register(note)
    try:
        yield note
    finally:
        kinds.unregister(Note.name)
