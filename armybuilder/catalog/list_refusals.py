"""A change the rule set refuses, said at the field it concerns in a player's words, with
the values the field may take there and the nearest one the list accepts.

The rule set's validator stays the judge: the allowed values are found by asking it about
each candidate (whole numbers near what was typed, each choice of a choice), so they are
exactly what it would accept. A validator's problem starts with where it is
("entries[1].min: ...", "columns.t1: ..."); that place is said with the editor's own
labels ("Entry 2, At least"), never as a path.

When a list's shape has a ``rebalance`` (Dark Ages lists: the units of a list always add
up to six), a change that only breaks that total is offered with what else would change
to keep it ("then lower Infantry's How many from 4 to 2"): one step, taken as a whole.
"""

from __future__ import annotations

import json
from typing import Any

import rules
from rules.list_changes import Place, Posted, Refusal, apply
from rules.list_shape import ListShape
from rules.list_words import refused_words

SEARCH_ABOVE = 12  # how far above the larger of typed and current values the search goes


def _ranges(values: list[int], top: int) -> str:
    """Whole numbers in words: "0 to 4", "2", "1 to 3 or 5", "3 or more"."""
    runs: list[list[int]] = []
    for v in values:
        if runs and v == runs[-1][1] + 1:
            runs[-1][1] = v
        else:
            runs.append([v, v])
    words = []
    for low, high in runs:
        if high == top:
            words.append(f"{low} or more")
        elif low == high:
            words.append(str(low))
        else:
            words.append(f"{low} to {high}")
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else "".join(words)


def _try(data: dict, shape: ListShape, post: Posted, value: str) -> dict | None:
    try:
        changed, _ = apply(data, shape, post.with_value(value))
    except Refusal:
        return None
    return changed


def explain(
    ruleset: rules.RuleSet,
    shape: ListShape,
    data: dict[str, Any],
    changed: dict[str, Any],
    place: Place,
    post: Posted,
    problems: list[str],
) -> Refusal:
    """The refusal of a change whose result ``changed`` the rule set finds ``problems``
    with: at the field changed, with allowed values, the nearest valid value, or what else
    would change with it to keep the list whole."""

    def valid(attempt: dict | None) -> bool:
        return attempt is not None and not ruleset.validate_army_list(attempt)

    refusal = Refusal(refused_words(shape, changed, place, problems), place)
    spec = _spec(shape, place)
    if place.op == "set" and spec is not None and spec.kind == "integer" and place.typed.strip():
        typed = int(place.typed) if place.typed.strip().isdigit() else 0
        top = max(typed, 20) + SEARCH_ABOVE
        ok = [v for v in range(top + 1) if valid(_try(data, shape, post, str(v)))]
        if ok:
            refusal.allowed = _ranges(ok, top)
            nearest = min(ok, key=lambda v: (abs(v - typed), v))
            refusal.nearest, refusal.nearest_label = str(nearest), str(nearest)
    elif place.op == "set" and spec is not None and spec.kind == "choice":
        ok = [
            (json.dumps(v), label)
            for v, label in spec.choices
            if valid(_try(data, shape, post, json.dumps(v)))
        ]
        if ok:
            refusal.allowed = ", ".join(label for _, label in ok)
            refusal.nearest, refusal.nearest_label = ok[0]
    if shape.rebalance is not None:
        proposals = shape.rebalance(changed, _kept(changed, place))
        refusal.then = [(text, str(n)) for n, (text, _) in enumerate(proposals)]
    return refusal


def _kept(changed: dict[str, Any], place: Place) -> frozenset[str]:
    """The keys of the items the player changed: a rebalance leaves their numbers alone."""
    kept = {k for k in place.item.split("/") if k}
    if not place.ident and place.field:  # a field of one object: Feudal's columns
        kept.add(place.field)
    return frozenset(kept)


def rebalanced(
    shape: ListShape, changed: dict[str, Any], place: Place, choice: str, text: str
) -> dict[str, Any] | None:
    """The data of the "then" step the player chose (None: it is no longer offered)."""
    if shape.rebalance is None or not choice.isdigit():
        return None
    proposals = shape.rebalance(changed, _kept(changed, place))
    n = int(choice)
    if n >= len(proposals) or proposals[n][0] != text:
        return None
    return proposals[n][1]


def _spec(shape: ListShape, place: Place) -> Any:
    section = shape.section(place.section)
    if section is None:
        return None
    return next((f for f in section.fields if f.name == place.field), None)
