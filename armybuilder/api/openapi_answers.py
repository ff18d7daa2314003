"""The shapes of the API's answers that are not vocabulary: the check report, refusals,
print status and the rule-set listings, for the OpenAPI description (``api.openapi``).

They mirror the ``to_json`` methods of ``rules.base`` (Report, Issue, ItemReport, CheckDoc,
Ruling, RuleSet.summary_json/vocabulary) and the views' error bodies; the fuzzing test
(tests/web/api/test_openapi_fuzz.py) fails if an answer leaves them.
"""

from __future__ import annotations

from typing import Any, get_args

import rules
from rules.fields import Kind


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _error(description: str, **extra: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "object",
        "description": description,
        "properties": {
            "error": {"type": "string", "description": "A sentence a player understands."},
            "path": {"type": "string", "description": "Where in the document, or empty."},
            **extra,
        },
        "required": ["error", "path"],
    }
    return schema


def answer_schemas() -> dict[str, dict[str, Any]]:
    """The shapes that are not vocabulary: report, errors, print status, rule-set listings."""
    nullable_int = {"type": ["integer", "null"]}
    item = {
        "type": "object",
        "properties": {
            "index": {"type": "integer", "minimum": 0},
            "name": {"type": "string"},
            "points": nullable_int,
            "breakdown": {"type": "array", "items": {"type": "string"}},
            "stats": {"type": "object", "description": "The roster stat line, by column."},
        },
        "required": ["index", "name", "points", "breakdown"],
    }
    field_json = {
        "type": "object",
        "description": "One vocabulary field, as the army document schemas above use it.",
        "properties": {
            "name": {"type": "string"},
            "label": {"type": "string"},
            "type": {"enum": list(get_args(Kind))},
            "default": {},
            "required": {"type": "boolean"},
            "nullable": {"type": "boolean"},
            "minimum": {"type": "number"},
            "maximum": {"type": "number"},
            "help": {"type": "string"},
            "choices": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "value": {},
                        "label": {"type": "string"},
                        "note": {"type": "string"},
                    },
                    "required": ["value", "label"],
                },
            },
            "fields": {"type": "array", "items": ref("FieldDescription")},
        },
        "required": ["name", "label", "type", "default", "required"],
    }
    summary = {
        "type": "object",
        "properties": {
            "slug": {"enum": [r.slug for r in rules.all_rulesets()]},
            "title": {"type": "string"},
            "source": {"type": "string"},
            "summary": {"type": "string"},
            "points": {"type": "boolean"},
            "generals": {"type": "boolean"},
            "options": {"type": "array", "items": ref("FieldDescription")},
        },
        "required": ["slug", "title", "source", "summary", "points", "generals", "options"],
    }
    text_items = {"type": "array", "items": {"type": "string"}}
    coded = {
        "type": "object",
        "properties": {"code": {"type": "string"}, "text": {"type": "string"}},
        "required": ["code", "text"],
    }
    vocabulary = {
        "allOf": [ref("RuleSetSummary")],
        "type": "object",
        "properties": {
            "unit_fields": {"type": "array", "items": ref("FieldDescription")},
            "general_fields": {"type": "array", "items": ref("FieldDescription")},
            "rulings": {"type": "array", "items": coded},
            "checks": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "code": {"type": "string"},
                        "severity": {"enum": ["error", "warning"]},
                        "scope": {"enum": ["unit", "general", "army", "army_list"]},
                        "text": {"type": "string"},
                    },
                    "required": ["code", "severity", "scope", "text"],
                },
            },
            "not_offered": text_items,
            "army_lists": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "slug": {"type": "string"},
                        "name": {"type": "string"},
                        "period": {"type": "string"},
                        "source_note": {"type": "string"},
                        "data": {"description": "The list's constraint data."},
                    },
                    "required": ["slug", "name", "period", "source_note", "data"],
                },
            },
        },
        "required": [
            *("unit_fields", "general_fields", "rulings", "checks", "not_offered"),
            "army_lists",
        ],
    }
    return {
        "CheckReport": {
            "type": "object",
            "properties": {
                "ruleset": {"type": "string"},
                "valid": {"type": "boolean", "description": "No issue of severity error."},
                "total_points": nullable_int,
                "points_limit": nullable_int,
                "units": {"type": "array", "items": item},
                "generals": {"type": "array", "items": item},
                "issues": {"type": "array", "items": ref("Issue")},
                "composition": {"type": ["object", "null"]},
            },
            "required": [
                *("ruleset", "valid", "total_points", "points_limit", "units"),
                *("generals", "issues", "composition"),
            ],
            "additionalProperties": False,
        },
        "Issue": {
            "type": "object",
            "properties": {
                "severity": {"enum": ["error", "warning"]},
                "code": {"type": "string"},
                "message": {"type": "string"},
                "unit": nullable_int,
                "general": {"type": "integer"},
                "rule": {"type": "string", "description": "The rule's name in the source."},
            },
            "required": ["severity", "code", "message", "unit", "rule"],
        },
        "Error": _error("A refused request: what is wrong, and where in the document."),
        "TooManyRequests": _error(
            "A rate limit was reached; Retry-After says when to try again.",
            retry_after={"type": "integer", "minimum": 0},
        ),
        "FailedRender": _error(
            "The render failed; the message says why.", status={"const": "failed"}
        ),
        "PrintStatus": {
            "type": "object",
            "properties": {
                "status": {"enum": ["queued", "rendering"]},
                "status_url": {"type": "string", "description": "GET it until it is the PDF."},
                "elapsed_seconds": {"type": "integer", "minimum": 0},
            },
            "required": ["status", "status_url", "elapsed_seconds"],
        },
        "FieldDescription": field_json,
        "RuleSetSummary": summary,
        "RuleSetVocabulary": vocabulary,
    }
