"""The checks both schemathesis files run, and what "data the description allows" cannot
mean for the refusals no JSON Schema can state.

- An id used twice: ``uniqueItems`` compares whole items, so "no two units or generals share
  an id" is in the id's description only, and a document repeating one is a 400 naming it.
- An ally from the army's own list: a unit's ``ally`` names any list but the document's
  ``army_list``, one field compared with another (JSON Schema has no ``$data``).
- A combat (``/api/v1/hits``): past its shape, the game's rules decide: the numbers a
  phase's sums read (figures, unless a champion fights), as many dice as those figures
  roll, each a face of the phase's die, the modifiers the source allows for this attacker,
  target and phase. Written as JSON Schema that would be a second rules engine; the
  description says so and each refusal names its field.

Everywhere else a request the description allows must be accepted (no 400).
"""

from collections import Counter

from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

GAME_RULES_DECIDE = {"/api/v1/hits"}


def repeats_an_id(body) -> bool:
    if not isinstance(body, dict):
        return False
    items = [
        item
        for key in ("units", "generals")
        if isinstance(body.get(key), list)
        for item in body[key]
        if isinstance(item, dict) and "id" in item
    ]
    return any(n > 1 for n in Counter(str(item["id"]) for item in items).values())


def allies_with_itself(body) -> bool:
    if not isinstance(body, dict) or body.get("army_list") is None:
        return False
    units = body.get("units") if isinstance(body.get("units"), list) else []
    return any(isinstance(u, dict) and u.get("ally") == body["army_list"] for u in units)


def accepts_what_it_allows(ctx, response, case):
    """``positive_data_acceptance``, but for the refusals above."""
    if (
        case.operation.path in GAME_RULES_DECIDE
        or repeats_an_id(case.body)
        or allies_with_itself(case.body)
    ):
        return None
    return positive_data_acceptance(ctx, response, case)


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    unsupported_method,
    accepts_what_it_allows,
]
NEGATIVE_CHECKS = [*CHECKS, negative_data_rejection]
