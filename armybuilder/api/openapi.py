"""The OpenAPI 3.1 description of ``/api/v1/``, built from the rules vocabulary.

Each rule set's army document schema comes from the same ``Field`` descriptions the strict
parser reads (``rules.fields``), so the description cannot drift from what the API accepts:
a new unit field, choice or default appears here with no second copy to update. The shapes
that are not vocabulary (check report, refusals, print status) are in ``openapi_answers``.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any
from unicodedata import category

from django.conf import settings

import rules
from armybuilder.api.openapi_answers import answer_schemas, ref
from armybuilder.api.openapi_hits import hits_paths, hits_schemas
from armybuilder.api.openapi_lists import list_paths, list_schemas
from armybuilder.catalog.services import FIXTURES_DIR, read_list_file
from armybuilder.events.openapi import event_paths, event_schemas
from armybuilder.games.openapi import game_paths, game_schemas
from armybuilder.printing.services import ROSTER_EXTRAS, qrs_sections_anywhere
from rules.document import FORMAT, ID_PATTERN, MAX_GENERALS, MAX_UNITS
from rules.fields import Field
from rules.text import text_problem

JSON = "application/json"
PDF = "application/pdf"


def _camel(slug: str) -> str:
    return "".join(part.capitalize() for part in slug.replace("_", "-").split("-"))


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return {**schema, "type": [kind, "null"]}
    return {"anyOf": [schema, {"type": "null"}]}


# a string that is more than spaces (every string is trimmed before its length is read)
NOT_BLANK = {"pattern": "\\S", "description": "Not only spaces: names are trimmed."}


@cache
def text_pattern(*, multiline: bool = False) -> str:
    """The text rule (``rules.text``) as a JSON Schema pattern: a character class of every
    character it refuses (control characters, invisible formatting characters, line breaks
    in a one-line field, lone surrogates), negated. Read off the rule itself, once, so the
    description and the server cannot disagree about which strings are text."""
    # every code point but the surrogates (a string generator leaves them out, and JSON
    # cannot carry one alone); only the categories the rule refuses are asked about
    asked = {"Cc", "Cf", "Zl", "Zp"}
    refused = [
        c
        for c in range(0x110000)
        if not 0xD800 <= c <= 0xDFFF
        and category(chr(c)) in asked
        and text_problem(chr(c), multiline=multiline)
    ]
    ranges: list[tuple[int, int]] = []
    for code in refused:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))

    def escaped(code: int) -> str:
        # beyond the Basic Multilingual Plane the character itself: ECMA-262 (with the
        # Unicode flag JSON Schema patterns use) and Python read it alike, \\u{...} not
        return f"\\u{code:04x}" if code <= 0xFFFF else chr(code)

    parts = "".join(escaped(a) if a == b else f"{escaped(a)}-{escaped(b)}" for a, b in ranges)
    return f"^[^{parts}]*$"


@cache
def _shipped() -> dict[str, tuple[str, ...]]:
    found: dict[str, list[str]] = {}
    for path in sorted(FIXTURES_DIR.glob("*.json")):
        for fields in read_list_file(path):
            found.setdefault(str(fields.get("ruleset")), []).append(str(fields.get("slug")))
    return {ruleset: tuple(sorted(slugs)) for ruleset, slugs in found.items()}


def shipped_lists(ruleset: str) -> tuple[str, ...]:
    """The slugs of the army lists Muster ships for ``ruleset`` (``muster load-lists`` keeps
    them public on every site): read from the fixture files, not the database, so the
    description stays one document per process, as the rule sets are."""
    return _shipped().get(ruleset, ())


def field_schema(field: Field) -> dict[str, Any]:
    """The JSON Schema of one vocabulary field: type, bounds, allowed values, default."""
    kind = field.kind
    schema: dict[str, Any]
    if kind in ("string", "text"):
        schema = {"type": "string"}
        if field.maximum is not None:
            schema["maxLength"] = int(field.maximum)
        if field.minimum is not None and int(field.minimum) > 0:
            schema["minLength"] = int(field.minimum)
            schema["allOf"] = [NOT_BLANK]  # strings are trimmed: spaces alone are empty
        # the text rule: no control or invisible characters; one line unless it is text
        schema["pattern"] = text_pattern(multiline=kind == "text")
    elif kind in ("integer", "number"):
        schema = {"type": kind}
        if field.minimum is not None:
            schema["minimum"] = field.minimum
        if field.maximum is not None:
            schema["maximum"] = field.maximum
    elif kind == "boolean":
        schema = {"type": "boolean"}
    elif kind == "choice":
        values = list(field.values)
        if field.nullable and None not in values:
            values.append(None)
        schema = {"enum": values}
    elif kind == "multi":
        schema = {"type": "array", "items": {"enum": list(field.values)}, "uniqueItems": True}
    elif kind == "object":
        schema = object_schema(field.fields)
    else:  # pragma: no cover - Field.kind is a closed Literal
        raise ValueError(f"unknown field kind {kind}")
    if field.nullable and kind in ("string", "text", "integer", "number", "object"):
        schema = _nullable(schema)
    schema["title"] = field.label
    if field.help:
        schema["description"] = field.help
    if not field.required and (field.default is not None or _accepts_null(field)):
        schema["default"] = field.default
    return schema


def _accepts_null(field: Field) -> bool:
    return field.nullable or (field.kind in ("choice", "object") and None in field.values)


def object_schema(fields: tuple[Field, ...]) -> dict[str, Any]:
    """A strict object: the fields' keys only (the parser refuses any other key)."""
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {f.name: field_schema(f) for f in fields},
        "additionalProperties": False,
    }
    required = [f.name for f in fields if f.required]
    if required:
        schema["required"] = required
    return schema


def with_item_id(schema: dict[str, Any], what: str) -> dict[str, Any]:
    """A unit's or general's schema with its optional stable ``id`` first."""
    item_id = {
        "type": "string",
        "pattern": f"^{ID_PATTERN.pattern}$",
        "title": "Id",
        "description": f"The {what}'s stable id: it names the {what} in the builder, its "
        "history and undo while it exists, and is kept on export and import. Optional: "
        f"one is given to a {what} without. No two units or generals of an army share "
        "an id (the parser refuses a duplicate, naming its path).",
    }
    return {**schema, "properties": {"id": item_id, **schema.get("properties", {})}}


def ruleset_schemas(ruleset: rules.RuleSet) -> dict[str, dict[str, Any]]:
    """Components for one rule set: its army document, options, unit and general."""
    name = _camel(ruleset.slug)
    unit = object_schema(ruleset.unit_fields)
    for key in ruleset.list_fields:  # a unit naming another list (an ally), by its slug
        if key in unit["properties"]:
            said = unit["properties"][key]
            unit["properties"][key] = {
                "enum": [*shipped_lists(ruleset.slug), "", None],
                **{k: said[k] for k in ("title", "default") if k in said},
                "description": f"{said.get('description', '')} Another list than the "
                "army's own (army_list), or a 400 says so.".strip(),
            }
    schemas = {
        f"{name}Options": object_schema(ruleset.options),
        f"{name}Unit": with_item_id(unit, "unit"),
    }
    if ruleset.has_generals:
        schemas[f"{name}General"] = with_item_id(object_schema(ruleset.general_fields), "general")
        generals: dict[str, Any] = {
            "type": "array",
            "items": ref(f"{name}General"),
            "maxItems": MAX_GENERALS,
            "default": [],
        }
    else:
        generals = {"type": "array", "maxItems": 0, "default": [], "description": "No generals."}
    points: dict[str, Any] = (
        {"type": ["integer", "null"], "minimum": 1, "maximum": 100000, "default": None}
        if ruleset.uses_points
        else {"type": "null", "default": None, "description": f"{ruleset.title} has no points."}
    )
    schemas[f"{name}Army"] = {
        "type": "object",
        "title": f"{ruleset.title} army",
        "description": ruleset.summary or ruleset.title,
        "properties": {
            "format": {"const": FORMAT},
            "name": {
                "type": "string",
                "minLength": 1,
                "maxLength": 120,
                "title": "Army name",
                "pattern": text_pattern(),
                "allOf": [NOT_BLANK],
            },
            "ruleset": {"const": ruleset.slug},
            "army_list": {
                "enum": [*shipped_lists(ruleset.slug), None],
                "default": None,
                "description": f"An army list of {ruleset.slug} by its slug: one Muster "
                "ships (army-format.md: the fixtures), or another public list of GET "
                f"/api/v1/rulesets/{ruleset.slug} (army_lists); a slug naming no public "
                "list is a 400 naming the known ones.",
            },
            "points_limit": points,
            "options": {**ref(f"{name}Options"), "default": ruleset.default_options()},
            "generals": generals,
            "units": {"type": "array", "items": ref(f"{name}Unit"), "maxItems": MAX_UNITS},
            "notes": {
                "type": "string",
                "maxLength": 5000,
                "default": "",
                "pattern": text_pattern(multiline=True),
            },
        },
        "required": ["format", "name", "ruleset", "units"],
        "additionalProperties": False,
    }
    return schemas


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema}}}


TOO_MANY = {
    **_json(ref("TooManyRequests"), "Too many requests from this address for now."),
    "headers": {"Retry-After": {"schema": {"type": "string"}}},
}
UNAVAILABLE = {
    **_json(
        ref("Error"),
        "Try again shortly: the rate limits cannot be checked (the request is refused rather "
        "than let through unchecked; Retry-After says when), or the print queue is not "
        "answering.",
    ),
    "headers": {"Retry-After": {"schema": {"type": "string"}}},
}


def _responses(*codes: int, ok: dict[str, Any] | None = None) -> dict[str, Any]:
    limit = settings.MUSTER_MAX_DOCUMENT_BYTES
    seconds = getattr(settings, "MUSTER_BODY_READ_SECONDS", 10)
    known: dict[int, dict[str, Any]] = {
        202: {
            "description": "Queued or rendering: ask the status URL (Location) again.",
            "headers": {
                "Location": {"schema": {"type": "string"}},
                "Retry-After": {"schema": {"type": "string"}},
            },
            "content": {JSON: {"schema": ref("PrintStatus")}},
        },
        400: _json(ref("Error"), "Malformed request, or a document the parser refuses."),
        404: _json(ref("Error"), "Nothing at this address."),
        408: _json(ref("Error"), f"The body did not arrive within {seconds} seconds."),
        413: _json(ref("Error"), f"The body is larger than {limit} bytes."),
        429: TOO_MANY,
        503: UNAVAILABLE,
    }
    answers: dict[str, Any] = {"200": ok} if ok else {}
    answers.update({str(code): known[code] for code in codes})
    return answers


def _include(sheet: str) -> dict[str, Any]:
    """The ``include`` query parameter of a sheet: the roster's one option, or the optional
    sections any rule set's quick-reference sheet offers (the roster's option rides along)."""
    if sheet == "roster":
        names, what = list(ROSTER_EXTRAS), "The roster's options."
    else:
        names = [*qrs_sections_anywhere(), *ROSTER_EXTRAS]
        what = (
            "Optional sections of the quick-reference sheet: each rule set offers its own, "
            "and one its sheet does not offer is left out (the roster's option too)."
        )
    return {
        "name": "include",
        "in": "query",
        "description": what,
        "schema": {"type": "array", "items": {"enum": names}},
        "style": "form",
        "explode": True,
    }


def _pdf(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "headers": {"Content-Disposition": {"schema": {"type": "string"}}},
        "content": {PDF: {"schema": {"type": "string", "contentMediaType": PDF}}},
    }


def _paths(army: dict[str, Any]) -> dict[str, Any]:
    document = {
        "required": True,
        "description": "A muster.army/1 document (army-format.md), UTF-8 JSON.",
        "content": {JSON: {"schema": army}},
    }
    # every POST: a malformed or slow or large body, and the rate limit it counts against
    posted = (400, 408, 413, 429, 503)
    paper = {"name": "paper", "in": "query", "schema": {"enum": ["a4", "letter"], "default": "a4"}}

    def pdf_post(sheet: str, summary: str) -> dict[str, Any]:
        return {
            "post": {
                "operationId": f"{sheet}_pdf",
                "summary": summary,
                "parameters": [paper, _include(sheet)],
                "requestBody": document,
                "responses": _responses(
                    202, *posted, ok=_pdf("The PDF, when it is already rendered.")
                ),
            }
        }

    return {
        "/api/v1/check": {
            "post": {
                "operationId": "check",
                "summary": "Check an army: points, stat lines and every issue.",
                "requestBody": document,
                "responses": _responses(
                    *posted, ok=_json(ref("CheckReport"), "The check report (legal or not).")
                ),
            }
        },
        "/api/v1/rulesets": {
            "get": {
                "operationId": "rulesets",
                "summary": "The rule sets and their options.",
                "responses": _responses(
                    400,
                    ok=_json(
                        {
                            "type": "object",
                            "properties": {
                                "rulesets": {"type": "array", "items": ref("RuleSetSummary")}
                            },
                            "required": ["rulesets"],
                        },
                        "Every rule set, in display order.",
                    ),
                ),
            }
        },
        "/api/v1/rulesets/{slug}": {
            "get": {
                "operationId": "ruleset",
                "summary": "One rule set's vocabulary, rulings, checks and army lists.",
                "parameters": [
                    {
                        "name": "slug",
                        "in": "path",
                        "required": True,
                        "schema": {"enum": [r.slug for r in rules.all_rulesets()]},
                    }
                ],
                "responses": _responses(
                    400, 404, ok=_json(ref("RuleSetVocabulary"), "The rule set.")
                ),
            }
        },
        "/api/v1/roster.pdf": pdf_post("roster", "The order of battle as a PDF."),
        "/api/v1/qrs.pdf": pdf_post("qrs", "The army's quick-reference sheet as a PDF."),
        "/api/v1/prints/{render_id}": {
            "get": {
                "operationId": "print_status",
                "summary": "A queued render: 202 until it is ready, then the PDF.",
                "parameters": [
                    {
                        "name": "render_id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string", "format": "uuid"},
                    }
                ],
                "responses": {
                    **_responses(202, 404, ok=_pdf("The rendered PDF.")),
                    "400": _json(ref("FailedRender"), "The render failed."),
                },
            }
        },
        "/api/v1/openapi.json": {
            "get": {
                "operationId": "openapi",
                "summary": "This description.",
                "responses": {
                    "200": _json({"type": "object"}, "The OpenAPI 3.1 document."),
                    "304": {"description": "Unchanged since the ETag sent in If-None-Match."},
                    "400": _json(ref("Error"), "Malformed request headers."),
                    "412": {"description": "If-Match names another version than this one."},
                },
            }
        },
    }


def build() -> dict[str, Any]:
    """The whole OpenAPI document, from the registry's rule sets."""
    schemas: dict[str, dict[str, Any]] = {}
    mapping: dict[str, str] = {}
    for ruleset in rules.all_rulesets():
        schemas.update(ruleset_schemas(ruleset))
        mapping[ruleset.slug] = f"#/components/schemas/{_camel(ruleset.slug)}Army"
    schemas["ArmyDocument"] = {
        "description": "A muster.army/1 document; its ruleset picks the unit vocabulary.",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "ruleset", "mapping": mapping},
    }
    schemas.update(answer_schemas())
    schemas.update(list_schemas())
    schemas.update(hits_schemas())
    schemas.update(event_schemas())
    schemas.update(game_schemas())
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Muster API",
            "version": "1",
            "description": "Check army documents and print them. Every refusal is a 4xx with "
            "a message a player understands; only keeping army lists needs an account.",
        },
        "paths": {
            **_paths(ref("ArmyDocument")),
            **hits_paths(_responses),
            **list_paths(),
            **event_paths(),
            **game_paths(),
        },
        "components": {"schemas": schemas},
    }


@cache
def document_bytes() -> bytes:
    """The document as served, built once per process (the rule sets do not change)."""
    return json.dumps(build(), ensure_ascii=False, sort_keys=False).encode("utf-8")
