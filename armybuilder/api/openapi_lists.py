"""The army-list endpoints of the OpenAPI description (armybuilder/api/lists.py serves them).

Reading a public list needs nothing; a list shared by link needs its ``token``; import and
copy keep a list for the signed-in player, so they are session requests: anyone else, and a
post without the session's CSRF token, is answered 403.
"""

from __future__ import annotations

from typing import Any

import rules
from armybuilder.api.openapi_answers import ref
from rules.list_document import LIST_FORMAT

JSON = "application/json"


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema}}}


def list_schemas() -> dict[str, dict[str, Any]]:
    """``ListDocument`` (muster.list/1) and ``SavedList`` (what import and copy answer)."""
    text = {"type": "string", "maxLength": 200}
    return {
        "ListDocument": {
            "description": "A muster.list/1 document: one army list's constraint data for a "
            "rule set, as export writes it and import reads it (docs/formats.md, muster.list/1).",
            "type": "object",
            "properties": {
                "format": {"const": LIST_FORMAT},
                "ruleset": {"enum": [r.slug for r in rules.all_rulesets()]},
                "slug": text,
                "family": {
                    "type": "string",
                    "maxLength": 80,
                    "description": "A copy's: the slug of the list it copies (one list for "
                    "the rules, e.g. allies); left out for a list of its own.",
                },
                "name": {"type": "string", "minLength": 1, "maxLength": 200},
                "period": text,
                "source_note": {"type": "string", "maxLength": 5000},
                "revision": {"type": "integer", "minimum": 1},
                "data": {
                    "type": "object",
                    "description": "The rule set's list constraints; its list validator "
                    "names the field at fault.",
                },
            },
            "required": ["format", "ruleset", "slug", "name", "data"],
            "additionalProperties": False,
        },
        "SavedList": {
            "type": "object",
            "properties": {"url": {"type": "string"}, "document": ref("ListDocument")},
            "required": ["url", "document"],
        },
    }


def _list_params() -> list[dict[str, Any]]:
    return [
        {
            "name": "ruleset",
            "in": "path",
            "required": True,
            "schema": {"enum": [r.slug for r in rules.all_rulesets()]},
        },
        {"name": "slug", "in": "path", "required": True, "schema": {"type": "string"}},
        {
            "name": "token",
            "in": "query",
            "description": "The share token of a list shared by link (one that works "
            "for no list is a 404, as for no list).",
            # tokens are URL-safe base64 (catalog.models.new_share_token)
            "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]*$", "maxLength": 64},
        },
    ]


def list_paths() -> dict[str, Any]:
    error = ref("Error")
    saved = {
        "description": "The new private list of the signed-in player.",
        "headers": {"Location": {"schema": {"type": "string"}}},
        "content": {JSON: {"schema": ref("SavedList")}},
    }
    refused = _json(error, "Not signed in, or the session's CSRF token is missing.")
    limited = {
        "429": {
            **_json(ref("TooManyRequests"), "Too many new lists from this address for now."),
            "headers": {"Retry-After": {"schema": {"type": "string"}}},
        },
        "503": {
            **_json(error, "The rate limits cannot be checked: try again shortly."),
            "headers": {"Retry-After": {"schema": {"type": "string"}}},
        },
    }
    body = {
        "408": _json(error, "The body did not arrive in time."),
        "413": _json(error, "The body is too large."),
    }
    return {
        "/api/v1/lists/": {
            "post": {
                "operationId": "list_import",
                "summary": "Keep a muster.list/1 document as a new private list.",
                "requestBody": {
                    "required": True,
                    "content": {JSON: {"schema": ref("ListDocument")}},
                },
                "responses": {
                    "201": saved,
                    "400": _json(error, "A document the list parser or validator refuses."),
                    "403": refused,
                    **body,
                    **limited,
                },
            }
        },
        "/api/v1/lists/{ruleset}/{slug}": {
            "get": {
                "operationId": "list",
                "summary": "One army list (a revision of it) as a muster.list/1 document.",
                "parameters": [
                    *_list_params(),
                    {
                        "name": "revision",
                        "in": "query",
                        "description": "That revision, not the latest.",
                        # the view reads at most nine digits: a longer one is a 400
                        "schema": {"type": "integer", "minimum": 1, "maximum": 999_999_999},
                    },
                ],
                "responses": {
                    "200": {
                        **_json(ref("ListDocument"), "The list."),
                        "headers": {"ETag": {"schema": {"type": "string"}}},
                    },
                    "304": {"description": "Unchanged since the ETag sent in If-None-Match."},
                    "400": _json(error, "A revision that is not a whole number."),
                    "404": _json(error, "No such list or revision, or not one you may read."),
                    "412": {"description": "If-Match names another version than this one."},
                },
            }
        },
        "/api/v1/lists/{ruleset}/{slug}/copy": {
            "post": {
                "operationId": "list_copy",
                "summary": "A private copy of a list you may read, for the signed-in player.",
                "parameters": _list_params(),
                "responses": {
                    "201": saved,
                    "400": _json(error, "A stored list its rule set no longer accepts."),
                    "403": refused,
                    "404": _json(error, "No such list, or not one you may read."),
                    **body,
                    **limited,
                },
            }
        },
    }
