"""A game as a file, ``muster.game/1``: the rule set, both sides' frozen army documents
(with the list revisions they were read under), the turn and phase, the log with each
combat's worked steps and the sections they cite, and the summary.

Through the opponent's links (to watch or to play) the armies go without their notes: a
player's notes are theirs (an army never shared keeps them private, and an army an event
revealed was seen there without the watcher), and a side that came from an event says so.
"""

from __future__ import annotations

from typing import Any

from armybuilder.games import selectors
from armybuilder.games.models import SIDES, Game

FORMAT = "muster.game/1"


PRIVATE_KEYS = ("notes",)  # what of an army's document only its game's owner sees


def side_army(document: dict[str, Any], *, by_link: bool) -> dict[str, Any]:
    """A side's frozen army document as the game shows it: through a link, without the
    owner's notes."""
    if not by_link:
        return document
    return {key: value for key, value in document.items() if key not in PRIVATE_KEYS}


def game_document(game: Game, *, by_link: bool = False) -> dict[str, Any]:
    """The game's file; ``by_link``: as the opponent's links show it (no private notes)."""
    actions = list(game.actions.order_by("number"))
    state = selectors.state_of(game, actions=actions)
    summary = selectors.summary(game, state=state)
    return {
        "format": FORMAT,
        "name": game.name,
        "ruleset": game.ruleset,
        "created": game.created.isoformat(),
        "turn": state.turn,
        "phase": state.phase,
        "seated": game.seated,
        "first": game.first,
        # the side going first now: ``first`` until an Initiative roll moves it on
        "holds_initiative": state.holder,
        "sides": {
            key: {
                "name": game.side(key).get("name"),
                "army": side_army(game.side(key)["document"], by_link=by_link),
                "list_revisions": game.side(key).get("list_revisions") or {},
                **({"from": origin} if (origin := game.side(key).get("from")) else {}),
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
                # the side whose phone made it; "" on one phone (``Game.seated``)
                "seat": a.seat,
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
