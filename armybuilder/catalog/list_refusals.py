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
import re
from typing import Any

from django.http import QueryDict

import rules
from armybuilder.catalog.list_changes import Place, Refusal, apply
from rules.list_shape import ListShape

_PROBLEM = re.compile(
    r"^(?P<sec>[a-z_]+)(?:\[(?P<i>\d+)\])?(?:\.(?P<sub>[a-z_]+)\[(?P<j>\d+)\])?"
    r"(?P<rest>(?:\.[\w-]+)*):\s(?P<body>.*)$",
    re.S,
)
SEARCH_ABOVE = 12  # how far above the larger of typed and current values the search goes


def place_words(problem: str, shape: ListShape, data: Any) -> str:
    """A validator's problem with its path said as the editor's labels."""
    where, label, body = located(problem, shape, data)
    if not where:
        return _sentence(body)
    return _sentence(f"{where}, {label}: {body}" if label else f"{where}: {body}")


def located(problem: str, shape: ListShape, data: Any) -> tuple[str, str, str]:
    """(the item in words, the field's label, what is wrong) of a validator's problem;
    ("", "", the problem) when it names no place the editor shows."""
    found = _PROBLEM.match(problem)
    if not found:
        return "", "", problem
    section = shape.section(found["sub"] or found["sec"])
    if section is None:
        single = next((s for s in shape.sections if s.single and s.key == found["sec"]), None)
        if single is None:
            return "", "", problem
        section, rest = single, found["rest"]
        where = single.label
    else:
        rest = found["rest"]
        if found["sub"] is not None:
            holders = data.get(found["sec"]) if isinstance(data, dict) else None
            n, j = int(found["i"]), int(found["j"])
            try:
                holder = holders[n].get("name") or str(n + 1)
            except (TypeError, IndexError, AttributeError):
                holder = str(n + 1)
            where = f"{section.item_label} {j + 1} of {holder}"
        elif found["i"] is not None:
            where = f"{section.item_label} {int(found['i']) + 1}"
        else:
            where = section.label
    parts = [p for p in rest.split(".") if p]
    if parts and parts[0] == section.values_key and len(parts) > 1:
        parts = parts[1:]
    labels = {f.name: f.label for f in (*section.fields, *section.values)}
    if not found["sub"] and not found["i"] and found["sec"] in labels:  # "columns.t1"
        parts = [found["sec"], *parts]
    label = labels.get(parts[0], "") if parts else ""
    return where, label, found["body"]


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?", ")")) else f"{text}."


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


def _try(data: dict, shape: ListShape, post: Any, value: str) -> dict | None:
    attempt = post.copy() if isinstance(post, QueryDict) else QueryDict(mutable=True)
    attempt.setlist("value", [value])
    try:
        changed, _ = apply(data, shape, attempt)
    except Refusal:
        return None
    return changed


def explain(
    ruleset: rules.RuleSet,
    shape: ListShape,
    data: dict[str, Any],
    changed: dict[str, Any],
    place: Place,
    post: Any,
    problems: list[str],
) -> Refusal:
    """The refusal of a change whose result ``changed`` the rule set finds ``problems``
    with: at the field changed, with allowed values, the nearest valid value, or what else
    would change with it to keep the list whole."""
    what = f"{place.where}, {place.label}" if place.label else place.where
    said = []
    for problem in problems[:3]:
        where, _, body = located(problem, shape, changed)
        # a problem of the item changed is said without its place: the field says it
        said.append(
            _sentence(body) if where == place.where else place_words(problem, shape, changed)
        )
    words = " ".join(said)
    if len(problems) > 3:
        words += f" (and {len(problems) - 3} more)"

    def valid(attempt: dict | None) -> bool:
        return attempt is not None and not ruleset.validate_army_list(attempt)

    refusal = Refusal(f"{what}: {words}" if what else words, place)
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
