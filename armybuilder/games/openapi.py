"""The game endpoint of the OpenAPI description (armybuilder/games/api.py serves it)."""

from __future__ import annotations

from typing import Any

import rules
from armybuilder.games import kinds
from armybuilder.games.exporting import FORMAT

JSON = "application/json"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def game_schemas() -> dict[str, dict[str, Any]]:
    text = {"type": "string"}
    count = {"type": "integer", "minimum": 0}
    side = {
        "type": "object",
        "properties": {
            "name": {"type": ["string", "null"]},
            "army": _ref("ArmyDocument"),
            "list_revisions": {"type": "object", "additionalProperties": {"type": "integer"}},
            "from": {
                "type": "string",
                "description": "Where a side not of the players' own "
                'armies came from ("Revealed at <event>"); absent for their own.',
            },
        },
        "required": ["name", "army", "list_revisions"],
    }
    action = {
        "type": "object",
        "description": "One action of the log. Past these fields, each kind has its own: "
        "combat (attacker, target, their names, turn, phase, modifiers, dice, seed, "
        "numbers, result: the engine's, as POST /api/v1/hits answers it), rally (unit, "
        "unit_name, turn, phase, facts, die, dice, seed: the die rolled from it, or '' when "
        "typed; result), force_morale (side, side_name, turn, phase, lost, units, bonus, "
        "dice, seed, verdict: outcome 'fights on' or 'routs', text, section), remove (unit, "
        "unit_name, why), next_phase (from, to), undo (of, of_kind).",
        "properties": {
            "number": {"type": "integer", "minimum": 1},
            "kind": {"enum": list(kinds.KINDS)},  # a kind registered by a plug-in too
            "created": {"type": "string", "format": "date-time"},
            "undone": {"type": "boolean"},
            "seat": {
                "enum": ["", "a", "b"],
                "description": "The side whose phone made it; empty on a game played on one phone.",
            },
        },
        "required": ["number", "kind", "created", "undone", "seat"],
    }
    side_summary = {
        "type": "object",
        "properties": {
            "units": count,
            "lost": {"type": "array", "items": text, "description": "The lost units' names."},
            "points_lost": {"type": ["integer", "null"],
                            "description": "null: the rule set has no points."},
            "routed": {"type": "string", "description": "The section of the force morale "
                       "roll that routed the side; empty: it did not rout."},
        },
        "required": ["units", "lost", "points_lost"],
    }  # fmt: skip
    return {
        "GameDocument": {
            "type": "object",
            "description": "A game at the table, muster.game/1 (docs/games.md): both sides' "
            "frozen armies, where it stands, its log and its summary.",
            "properties": {
                "format": {"const": FORMAT},
                "name": text,
                "ruleset": {"enum": [r.slug for r in rules.all_rulesets()]},
                "created": {"type": "string", "format": "date-time"},
                "turn": {"type": "integer", "minimum": 1},
                "phase": text,
                "seated": {"type": "boolean", "description": "Played on two phones, each "
                           "holding one side's seat (false: one phone plays both)."},
                "first": {"enum": ["a", "b"], "description": "The side whose player turn "
                          "came first at the start, where the source's player turns are "
                          "one-sided."},
                "holds_initiative": {"enum": ["a", "b"], "description": "The side that goes "
                                     "first now: first, until an Initiative roll in the log "
                                     "moves it on."},
                "sides": {
                    "type": "object",
                    "properties": {"a": side, "b": side},
                    "required": ["a", "b"],
                },
                "log": {"type": "array", "items": action},
                "summary": {
                    "type": "object",
                    "properties": {
                        # finished turns, and the one under way once anything was done
                        "turns": {"type": "integer", "minimum": 0},
                        "sides": {
                            "type": "object",
                            "properties": {"a": side_summary, "b": side_summary},
                            "required": ["a", "b"],
                        },
                    },
                    "required": ["turns", "sides"],
                },
            },
            "required": ["format", "name", "ruleset", "created", "turn", "phase", "seated",
                         "first", "holds_initiative", "sides", "log", "summary"],
        },
    }  # fmt: skip


def game_paths() -> dict[str, Any]:
    def answer(schema: dict[str, Any], description: str) -> dict[str, Any]:
        return {"description": description, "content": {JSON: {"schema": schema}}}

    return {
        "/api/v1/games/{game}": {
            "get": {
                "operationId": "game",
                "summary": "A game of yours (signed in: the site's session) as its "
                "muster.game/1 document.",
                "parameters": [
                    {"name": "game", "in": "path", "required": True, "schema": {"type": "integer"}},
                ],
                "responses": {
                    "200": answer(_ref("GameDocument"), "The game."),
                    "404": answer(
                        _ref("Error"),
                        "No such game, or not yours (or not signed in): the same answer.",
                    ),
                },
            }
        }
    }
