"""A game as a file, ``muster.game/1``: the rule set, both sides' frozen army documents
(with the list revisions they were read under), the turn and phase, the log with each
combat's worked steps and the sections they cite, and the summary."""

from __future__ import annotations

from typing import Any

from armybuilder.games import selectors
from armybuilder.games.models import SIDES, Game

FORMAT = "muster.game/1"


def game_document(game: Game) -> dict[str, Any]:
    actions = list(game.actions.order_by("number"))
    state = selectors.state_of(game, actions)
    summary = selectors.summary(game, state)
    return {
        "format": FORMAT,
        "name": game.name,
        "ruleset": game.ruleset,
        "created": game.created.isoformat(),
        "turn": state.turn,
        "phase": state.phase,
        "sides": {
            key: {
                "name": game.side(key).get("name"),
                "army": game.side(key)["document"],
                "list_revisions": game.side(key).get("list_revisions") or {},
            }
            for key in SIDES
        },
        "log": [
            {
                **a.payload,
                "number": a.number,
                "kind": a.kind,
                "created": a.created.isoformat(),
                "undone": a.undone,
            }
            for a in actions
        ],
        "summary": {
            "turns": summary.turns,
            "sides": {
                key: {
                    "units": s.units,
                    "lost": list(s.lost),
                    "points_lost": s.points_lost,
                    "routed": s.routed,
                }  # fmt: skip
                for key, s in zip(SIDES, summary.sides, strict=True)
            },
        },
    }
