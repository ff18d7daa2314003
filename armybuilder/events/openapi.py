"""The event endpoints of the OpenAPI description (armybuilder/events/api.py serves them)."""

from __future__ import annotations

from typing import Any

import rules

JSON = "application/json"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema}}}


def event_schemas() -> dict[str, dict[str, Any]]:
    nullable_int = {"type": ["integer", "null"]}
    nullable_text = {"type": ["string", "null"]}
    return {
        "Event": {
            "type": "object",
            "properties": {
                "code": {"type": "string"},
                "name": {"type": "string"},
                "date": {"type": "string", "format": "date"},
                "place": {"type": "string"},
                "time_zone": {"type": "string"},
                "ruleset": {"enum": [r.slug for r in rules.all_rulesets()]},
                "points_limit": nullable_int,
                "lists": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "slug": {"type": "string"},
                            "name": {"type": "string"},
                            "revision": {"type": "integer", "minimum": 1},
                        },
                        "required": ["slug", "name", "revision"],
                    },
                },
                "restrictions": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"kind": {"type": "string"}, "text": {"type": "string"}},
                        "required": ["kind", "text"],
                    },
                },
                "deadline": {"type": "string", "format": "date-time"},
                "reveal_at": {"type": "string", "format": "date-time"},
                "accept_late": {"type": "boolean"},
                "cap": nullable_int,
                "forces_rolled": {"type": "boolean"},
                "entrants": {"type": "integer", "minimum": 0},
                "revealed": {"type": "boolean"},
                "rules_file": {"type": "string", "description": "The muster.event/1 file."},
            },
            "required": ["code", "name", "ruleset", "lists", "deadline", "reveal_at"],
        },
        "EventEntrants": {
            "type": "object",
            "description": "Organisers see every entrant with state and problems; after the "
            "reveal, entrants see the players whose approved army is shown.",
            "properties": {
                "entrants": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "player": {"type": "string"},
                            "army": nullable_text,
                            "total_points": nullable_int,
                            "submission": nullable_int,
                        },
                        "required": ["player", "army", "total_points", "submission"],
                    },
                }
            },
            "required": ["entrants"],
        },
        "EventArmies": {
            "type": "object",
            "properties": {
                "armies": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "submission": {"type": "integer"},
                            "player": {"type": "string"},
                            "document": _ref("ArmyDocument"),
                        },
                        "required": ["submission", "player", "document"],
                    },
                }
            },
            "required": ["armies"],
        },
    }


def event_paths() -> dict[str, Any]:
    code = {"name": "code", "in": "path", "required": True, "schema": {"type": "string"}}
    hidden = _json(
        _ref("Error"),
        "No such event, or (entrants and armies) not one you may see yet: the same answer.",
    )

    def get(operation: str, summary: str, ok: dict[str, Any], *params: Any) -> dict[str, Any]:
        return {
            "get": {
                "operationId": operation,
                "summary": summary,
                "parameters": [code, *params],
                "responses": {"200": ok, "404": hidden},
            }
        }

    return {
        "/api/v1/events/{code}": get(
            "event",
            "A club event: its lists, pinned revisions, restrictions and times.",
            _json(_ref("Event"), "The event."),
        ),
        "/api/v1/events/{code}/entrants": get(
            "event_entrants",
            "The entrant table (organisers; entrants after the reveal).",
            _json(_ref("EventEntrants"), "The entrants."),
        ),
        "/api/v1/events/{code}/armies": get(
            "event_armies",
            "The approved armies after the reveal, as muster.army/1 documents.",
            _json(_ref("EventArmies"), "The armies, in entrant order."),
        ),
        "/api/v1/events/{code}/armies/{submission}": get(
            "event_army",
            "One submitted army as a muster.army/1 document.",
            _json(_ref("ArmyDocument"), "The army."),
            {"name": "submission", "in": "path", "required": True, "schema": {"type": "integer"}},
        ),
    }
