"""``POST /api/v1/hits`` in the OpenAPI description: one combat in, its hits worked out step
by step out. Each rule set's request names its own unit and option schemas (the same
vocabulary as its army documents), so the description follows the rule sets it serves."""

from __future__ import annotations

from typing import Any

from armybuilder.api.openapi_answers import ref
from rules.combat_request import MAX_NUMBER, combat_rulesets


def _camel(slug: str) -> str:
    return "".join(part.capitalize() for part in slug.replace("_", "-").split("-"))


def _count(description: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": 0, "maximum": MAX_NUMBER, "default": 0,
            "description": description}  # fmt: skip


def _request(slug: str) -> dict[str, Any]:
    name = _camel(slug)
    phases = [p.key for p in _phases(slug)]
    unit = {"description": f"A unit of this rule set ({name}Unit); name may be left out.",
            "allOf": [ref(f"{name}Unit")]}  # fmt: skip
    return {
        "type": "object",
        "properties": {
            "ruleset": {"const": slug},
            "phase": {"enum": phases, "description": "The phase of the turn the combat is in."},
            "attacker": unit,
            "target": unit,
            "modifiers": {"type": "array", "items": {"type": "string"}, "default": [],
                          "description": "The keys of the modifiers that apply: only those "
                          "the source allows for this attacker, target and phase (a 400 names "
                          "them); automatic ones (armoured serjeants) apply unticked."},
            "die": {"type": "integer", "description": "The die rolled (or give dice)."},
            "dice": {"type": "array", "items": {"type": "integer"}, "minItems": 1,
                     "maxItems": 200, "description": "Every die rolled, when several are."},
            "options": ref(f"{name}Options"),
            "target_hits": _count("Hits already on the target."),
            "attacker_hits": _count("Hits already on the attacker (Tired Units)."),
            "numbers": {"type": "object", "additionalProperties": {"type": "integer",
                        "minimum": 0, "maximum": MAX_NUMBER},
                        "description": "What else this rule set's sums read."},
            "target_list": {"type": "object", "description": "The army list the target is "
                            "read under (its constraint data)."},
        },
        "required": ["ruleset", "phase", "attacker", "target"],
        # one die or a list of them, never both (the parser names die when neither is given)
        "oneOf": [{"required": ["die"]}, {"required": ["dice"]}],
        "additionalProperties": False,
    }  # fmt: skip


def _phases(slug: str) -> tuple[Any, ...]:
    from rules.registry import get_ruleset

    ruleset = get_ruleset(slug)
    return ruleset.combat().phases(ruleset.default_options())


def hits_schemas() -> dict[str, dict[str, Any]]:
    slugs = [r.slug for r in combat_rulesets()]
    schemas = {f"{_camel(slug)}Combat": _request(slug) for slug in slugs}
    text = {"type": "string"}
    step = {"type": "object", "properties": {"text": text, "section": text},
            "required": ["text", "section"]}  # fmt: skip
    schemas["Combat"] = {
        "description": "One combat; its ruleset picks the units' vocabulary.",
        "oneOf": [ref(f"{_camel(slug)}Combat") for slug in slugs],
        "discriminator": {"propertyName": "ruleset", "mapping": {
            slug: f"#/components/schemas/{_camel(slug)}Combat" for slug in slugs}},
    }  # fmt: skip
    schemas["CombatResult"] = {
        "type": "object",
        "properties": {
            "ruleset": text,
            "hits": {"type": "integer", "minimum": 0},
            "unit": {"type": "string", "description": "What hits count: hits, casualties..."},
            "total": {"type": "integer", "minimum": 0},
            "steps": {"type": "array", "items": step,
                      "description": "The working, each line citing the source's section."},
            "verdict": {"type": ["object", "null"], "properties": {
                "outcome": text, "when": text, "text": text, "section": text}},
            "rulings": {"type": "array", "items": {
                "type": "object", "properties": {"code": text, "text": text},
                "required": ["code", "text"]}},
        },
        "required": ["ruleset", "hits", "unit", "total", "steps", "verdict", "rulings"],
    }  # fmt: skip
    return schemas


def hits_paths(responses: Any) -> dict[str, Any]:
    """``responses(*codes, ok=...)``: the API's shared answers (openapi._responses)."""
    ok = {"description": "The combat worked out, step by step.",
          "content": {"application/json": {"schema": ref("CombatResult")}}}  # fmt: skip
    return {
        "/api/v1/hits": {
            "post": {
                "operationId": "hits",
                "summary": "Work out one combat's hits with the source's modifiers, order "
                "and rounding (the engine `muster hits` uses).",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": ref("Combat")}},
                },
                "responses": responses(400, 408, 413, 429, 503, ok=ok),
            }
        }
    }
