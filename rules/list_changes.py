"""One posted change of the list editor applied to a list's content, and where it is.

A change names its item by the item's stable ``id`` (``item``; for an add inside a
choice group, the group's id), never by its position, so an edit still reaches its entry
after another entry was added, removed or renamed (``rules.list_ids``). A change the editor cannot make at all raises ``Refusal`` naming
its place; whether the rule set accepts the result is ``list_refusals``' business.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules.list_ids import ID, items_in, new_id
from rules.list_shape import ListShape, Section

META = {"name": "Name", "period": "Period", "source_note": "Source note"}
MOST_TRIES = 400  # combinations of a new item's choices tried for a legal one


@dataclass(frozen=True)
class Place:
    """Where a change is made: a section's item (by its stable id) and field."""

    op: str
    section: str = ""
    ident: str = ""  # the item's id ("" for a single object or the list's own fields)
    item: str = ""  # the item's key path ("support/bows"), "" when it has none
    field: str = ""
    typed: str = ""  # what the player typed (several ticked values: joined by newlines)
    label: str = ""  # the field's label
    where: str = ""  # the item in words: "Entry 2", "Option 1 of Support"
    holder: str = ""  # an add inside another section's item: that item's id

    def matches(self, section: str, ident: str, name: str) -> bool:
        return (self.section, self.ident, self.field) == (section, ident, name)


@dataclass
class Refusal(Exception):
    """A change not made; ``message`` in a player's words, shown at ``place``."""

    message: str
    place: Place = field(default_factory=lambda: Place(""))
    allowed: str = ""  # the values the field may take here, in words
    nearest: str | None = None  # the nearest value the list accepts, as the control posts it
    nearest_label: str = ""
    then: list[tuple[str, str]] = field(default_factory=list)  # (what else changes, its id)

    def __str__(self) -> str:
        return self.message


class Posted:
    """A change as the editor's form posts it, from an operation's fields: what ``apply``
    and ``meta_change`` read (``get``, ``getlist``) when no request is at hand (the page's
    engine applying the operations still waiting to be sent)."""

    def __init__(self, op: str, section: str = "", item: str = "", field: str = "",
                 value: Any = "", then: str = "", then_text: str = "") -> None:  # fmt: skip
        self._one = {"op": op, "section": section, "item": item, "field": field,
                     "then": then, "then_text": then_text}  # fmt: skip
        self._values = [str(v) for v in (value if isinstance(value, list) else [value])]

    def get(self, name: str, default: Any = "") -> Any:
        if name == "value":
            return self._values[-1] if self._values else default
        return self._one.get(name) or default

    def getlist(self, name: str) -> list[str]:
        if name == "value":
            return list(self._values)
        given = self._one.get(name)
        return [given] if given else []

    def with_value(self, value: str) -> Posted:
        """The same change with another value (a refusal trying the values that would do)."""
        one = self._one
        return Posted(one["op"], one["section"], one["item"], one["field"], value, one["then"],
                      one["then_text"])  # fmt: skip


def meta_change(post: Any) -> tuple[dict[str, Any], Place]:
    name = post.get("field", "")
    place = Place("meta", field=name, typed=post.get("value", ""), label=META.get(name, ""))
    if name not in META:
        raise Refusal("That field is not part of the list: reload the page.", place)
    value = post.get("value", "").strip()
    if name == "name" and not value:
        raise Refusal("Name: a list needs a name.", place)
    return {name: value}, place


def apply(
    data: dict[str, Any],
    shape: ListShape,
    post: Any,
    accept: Callable[[dict[str, Any]], bool] | None = None,
) -> tuple[dict[str, Any], Place]:
    """The list data after the posted change (``op``: set, values, add, remove), and where.

    ``accept`` (whether the rule set takes a list) lets a new item start legal: when the
    section's fresh item is refused, its choices are tried in turn for one that is not.
    """
    op = post.get("op", "")
    data = copy.deepcopy(data)
    section = shape.section(post.get("section", ""))
    typed = "\n".join(post.getlist("value")) if op == "values" else post.get("value", "")
    if section is None:
        raise Refusal("That part of the list is not there: reload the page.", Place(op))
    base = Place(op, section.key, typed=typed, field=post.get("field", ""))
    if section.single:  # one object: its fields are set, never added or removed
        if op != "set":
            raise Refusal("Unknown change: reload the page.", base)
        item = data if not section.key else data.get(section.key)
        if not isinstance(item, dict):
            item = data[section.key] = {}
        place = _placed(base, section, "", "", section.label)
        _set_field(section, item, place, post.get("value", ""))
        return data, place
    ident = post.get("item", "")
    if section.within:  # items kept in each item of another section (a group's options)
        parents = data.get(section.within)
        if op == "add":
            holder = _holder(parents, ident, base)
        else:
            holder = _holder_of(parents, section.key, ident, base)
        items = holder.setdefault(section.key, [])
        if not isinstance(items, list):
            items = holder[section.key] = []
        p = parents.index(holder)
        holder_name = holder.get("name") or str(p + 1)
        holder_key = f"{holder.get('key', '')}/"
    else:
        items = data.setdefault(section.key, [])
        holder_name, holder_key = "", ""
    if op == "add":
        new = _new_item(section, data)
        items.append(new)
        if accept is not None and not accept(data):
            _legal_choices(section, data, items, accept)
            new = items[-1]
        where = f"New {section.item_label.lower()}"
        added = f"{holder_key}{new.get('key', '')}"
        place = _placed(base, section, str(new.get(ID, "")), added, where)
        return data, dataclasses.replace(place, holder=ident if section.within else "")
    n = _find(items, ident, base)
    where = f"{section.item_label} {n + 1}" + (f" of {holder_name}" if holder_name else "")
    found_key = f"{holder_key}{items[n].get('key', '')}"
    place = _placed(base, section, ident, found_key, where)
    if op == "remove":
        if len(items) <= section.minimum:
            raise Refusal(
                f"{where}: the list keeps at least {section.minimum} "
                f"{section.item_label.lower()}; add another before removing this one.",
                place,
            )
        del items[n]
    elif op == "set":
        _set_field(section, items[n], place, post.get("value", ""))
    elif op == "values":
        _set_values(section, items[n], place, post.getlist("value"))
    else:
        raise Refusal("Unknown change: reload the page.", place)
    return data, place


def _legal_choices(
    section: Section, data: dict[str, Any], items: list[Any], accept: Callable[..., bool]
) -> None:
    """Give the new (last) item the first combination of its choice fields the list
    accepts (a Feudal replacement not listed yet); left as it is when none is."""
    choices = [f for f in section.fields if f.kind == "choice"]
    fresh = items[-1]
    for n, combination in enumerate(itertools.product(*(f.choices for f in choices))):
        if n >= MOST_TRIES:
            break
        items[-1] = {**fresh, **{f.name: v for f, (v, _) in zip(choices, combination, strict=True)}}
        if accept(data):
            return
    items[-1] = fresh


def _placed(base: Place, section: Section, ident: str, item: str, where: str) -> Place:
    spec = next((f for f in (*section.fields, *section.values) if f.name == base.field), None)
    label = spec.label if spec is not None else ""
    return Place(base.op, base.section, ident, item, base.field, base.typed, label, where)


def _gone(place: Place) -> Refusal:
    return Refusal("That entry is no longer there: reload the page.", place)


def _find(items: Any, ident: str, place: Place) -> int:
    """The position of the item whose id is ``ident`` (never a position posted)."""
    if ident and isinstance(items, list):
        for n, item in enumerate(items):
            if isinstance(item, dict) and item.get(ID) == ident:
                return n
    raise _gone(place)


def _holder(parents: Any, ident: str, place: Place) -> dict[str, Any]:
    return parents[_find(parents, ident, place)]


def _holder_of(parents: Any, key: str, ident: str, place: Place) -> dict[str, Any]:
    """The item of the outer section that keeps the item whose id is ``ident``."""
    for holder in parents if isinstance(parents, list) else []:
        inner = holder.get(key) if isinstance(holder, dict) else None
        if isinstance(inner, list) and any(
            isinstance(i, dict) and i.get(ID) == ident for i in inner
        ):
            return holder
    raise _gone(place)


def _new_item(section: Section, data: Any) -> dict[str, Any]:
    """A fresh item, its keys (and those of any items inside it) unused anywhere in the
    list: a rule set may require every key of a list to be different."""
    item = copy.deepcopy(section.new_item)
    taken = set(keys_in(data))
    for found in _objects_with_keys(item):
        prefix = str(found["key"]).rsplit("-", 1)[0] or "entry"
        n = 1
        while f"{prefix}-{n}" in taken:
            n += 1
        found["key"] = f"{prefix}-{n}"
        taken.add(found["key"])
    return _fresh_ids(item, data)


def _fresh_ids(item: dict[str, Any], data: Any) -> dict[str, Any]:
    """The new item (and any item inside it) with ids unused in the list."""
    taken = {i.get(ID) for i in items_in(data)}
    for inner in [item, *items_in(item)]:
        inner[ID] = new_id()
        while inner[ID] in taken:
            inner[ID] = new_id()
        taken.add(inner[ID])
    return item


def _objects_with_keys(value: Any) -> list[dict[str, Any]]:
    found = []
    if isinstance(value, dict):
        if isinstance(value.get("key"), str):
            found.append(value)
        for inner in value.values():
            found.extend(_objects_with_keys(inner))
    elif isinstance(value, list):
        for inner in value:
            found.extend(_objects_with_keys(inner))
    return found


def keys_in(data: Any) -> list[str]:
    return [found["key"] for found in _objects_with_keys(data)]


def parse_value(spec: Any, raw: str, place: Place) -> Any:
    """A control's posted text as the value the list keeps (``Refusal`` when it is not
    one of the field's values); ``None`` for an empty optional field."""
    raw = raw.strip()
    where = f"{place.where}, {spec.label}" if place.where else spec.label
    if spec.kind == "boolean":
        return raw == "true"
    if not raw:
        if spec.keep_empty and spec.kind != "integer":
            return [] if spec.kind == "lines" else ""
        if not spec.optional and not spec.keep_empty:
            raise Refusal(f"{where}: required; it cannot be left empty.", place)
        return None
    if spec.kind == "lines":
        return [line.strip() for line in raw.splitlines() if line.strip()]
    if spec.kind == "choice":
        allowed = [value for value, _ in spec.choices]
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw
        if value not in allowed:
            labels = ", ".join(label for _, label in spec.choices)
            raise Refusal(f"{where}: one of {labels}.", place, allowed=labels)
        return value
    if spec.kind == "integer":
        if not raw.isdigit() or len(raw) > 6:
            raise Refusal(
                f"{where}: a whole number, 0 or more (e.g. 2); “{raw}” is not one.",
                place,
                allowed="a whole number, 0 or more",
            )
        return int(raw)
    return raw


def _set_field(section: Section, item: dict, place: Place, raw: str) -> None:
    spec = next((f for f in section.fields if f.name == place.field), None)
    if spec is None:
        raise Refusal("That field is not part of the list: reload the page.", place)
    value = parse_value(spec, raw, place)
    if value is None and not spec.keep_empty:
        item.pop(place.field, None)
    else:
        item[place.field] = value


def _set_values(section: Section, item: dict, place: Place, raw: list[str]) -> None:
    spec = next((v for v in section.values if v.name == place.field), None)
    if spec is None:
        raise Refusal("That field is not part of the list: reload the page.", place)
    allowed = [value for value, _ in spec.choices]
    chosen = []
    for text in raw:
        try:
            value = json.loads(text)
        except ValueError:
            value = object()
        if value not in allowed:
            labels = ", ".join(label for _, label in spec.choices)
            raise Refusal(f"{place.where}, {spec.label}: tick among {labels}.", place)
        chosen.append(value)
    match = item.setdefault(section.values_key, {})
    if chosen:
        match[place.field] = [v for v in allowed if v in chosen]  # the rule set's order
    else:
        match.pop(place.field, None)  # nothing ticked: any value
