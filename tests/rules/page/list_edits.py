"""Random list editor operations, as the page's controls send them: a field set to a value
its control can post (or one the list refuses), ticked values, an item added or removed,
the list's own name or period, each naming its item by its stable id."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

import rules
from rules.list_ids import ID
from rules.list_shape import Section

TEXTS = ("", "Spearmen", "entry-1", "pikemen", "  Archers  ", "x")
INTEGERS = ("", "0", "1", "2", "3", "4", "6", "8", "12", "-1", "two")


def _items(section: Section, data: dict[str, Any]) -> list[str]:
    """The ids of the section's items ("" for a single object)."""
    if section.single:
        return [""]
    if section.within:
        holders = data.get(section.within) or []
        return [
            str(item.get(ID))
            for holder in holders
            if isinstance(holder, dict)
            for item in holder.get(section.key) or []
            if isinstance(item, dict) and item.get(ID)
        ]
    return [
        str(i.get(ID)) for i in data.get(section.key) or [] if isinstance(i, dict) and i.get(ID)
    ]


def _holders(section: Section, data: dict[str, Any]) -> list[str]:
    holders = data.get(section.within) or [] if section.within else []
    return [str(h.get(ID)) for h in holders if isinstance(h, dict) and h.get(ID)]


def _value(draw: Any, spec: Any) -> str:
    if spec.kind == "boolean":
        return draw(st.sampled_from(("true", "false")))
    if spec.kind == "choice":
        choices = [json.dumps(value) for value, _ in spec.choices]
        return draw(st.sampled_from([*choices, ""]))
    if spec.kind == "integer":
        return draw(st.sampled_from(INTEGERS))
    return draw(st.sampled_from(TEXTS))


def operation(draw: Any, ruleset: str, data: dict[str, Any], key: str) -> dict[str, Any]:
    """One operation on ``data`` (a list of ``ruleset`` whose items carry ids)."""
    shape = rules.get_ruleset(ruleset).list_shape()
    assert shape is not None
    section = draw(st.sampled_from(shape.sections))
    kinds = ["set", "meta"]
    if section.values:
        kinds.append("values")
    if not section.single:
        kinds += ["add", "remove"]
    op = draw(st.sampled_from(kinds))
    made: dict[str, Any] = {"key": key, "op": op, "section": section.key, "target": "",
                            "field": "", "value": ""}  # fmt: skip
    if op == "meta":
        made.update(section="", field=draw(st.sampled_from(("name", "period"))))
        made["value"] = draw(st.sampled_from(("Tried list", "", "1066")))
        return made
    if op == "add":
        holders = _holders(section, data)
        if section.within and not holders:
            return {**made, "op": "meta", "section": "", "field": "period", "value": "late"}
        made["target"] = draw(st.sampled_from(holders)) if section.within else ""
        return made
    items = _items(section, data)
    if not items:
        return {**made, "op": "meta", "section": "", "field": "period", "value": "early"}
    made["target"] = draw(st.sampled_from(items))
    if op == "remove":
        return made
    if op == "values":
        spec = draw(st.sampled_from(section.values))
        choices = [json.dumps(value) for value, _ in spec.choices]
        made.update(field=spec.name, value=sorted(draw(st.sets(st.sampled_from(choices)))))
        return made
    spec = draw(st.sampled_from(section.fields))
    made.update(field=spec.name, value=_value(draw, spec))
    return made
