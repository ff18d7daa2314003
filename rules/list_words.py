"""A list validator's problems in the list editor's words: its path ("entries[1].min: ...",
"columns.t1: ...") said with the editor's own labels ("Entry 2, At least"), and the
refusal of a change said at the field changed. One copy for the server's refusals
(``catalog/list_refusals.py``) and the page's engine (``rules/page/lists.py``).
"""

from __future__ import annotations

import re
from typing import Any

from rules.list_changes import Place
from rules.list_shape import ListShape

_PROBLEM = re.compile(
    r"^(?P<sec>[a-z_]+)(?:\[(?P<i>\d+)\])?(?:\.(?P<sub>[a-z_]+)\[(?P<j>\d+)\])?"
    r"(?P<rest>(?:\.[\w-]+)*):\s(?P<body>.*)$",
    re.S,
)


def place_words(problem: str, shape: ListShape, data: Any) -> str:
    """A validator's problem with its path said as the editor's labels."""
    where, label, body = located(problem, shape, data)
    if not where:
        return sentence(body)
    return sentence(f"{where}, {label}: {body}" if label else f"{where}: {body}")


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


def sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?", ")")) else f"{text}."


def refused_words(shape: ListShape, changed: Any, place: Place, problems: list[str]) -> str:
    """Why the rule set refuses the list ``changed`` a change at ``place`` made: at most
    three of its ``problems``, a problem of the item changed said without its place (the
    field says it)."""
    what = f"{place.where}, {place.label}" if place.label else place.where
    said = []
    for problem in problems[:3]:
        where, _, body = located(problem, shape, changed)
        said.append(
            sentence(body) if where == place.where else place_words(problem, shape, changed)
        )
    words = " ".join(said)
    if len(problems) > 3:
        words += f" (and {len(problems) - 3} more)"
    return f"{what}: {words}" if what else words
