"""The list editor's page: one control per field of the rule set's list shape, each named
by its item's stable id (so a control keeps its id, and its edit its item, when other
items come, go or are renamed), a refusal shown at the control it concerns, undo and redo, and "Try it"."""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import asdict
from typing import Any

import rules
from armybuilder.catalog import list_history
from armybuilder.catalog.list_trial import listed_of, try_list
from armybuilder.catalog.list_views import editor_url
from armybuilder.catalog.models import ArmyList
from armybuilder.catalog.selectors import list_lookup
from rules.list_changes import META, Refusal
from rules.list_ids import ID
from rules.list_shape import ListShape, Section
from rules.page.check import lists_json


def _items(section: Section, data: dict[str, Any]) -> list[dict[str, Any]]:
    """A section's items: id (as posted), key path, legend and the item: one item with
    no id for a single object."""
    if section.single:
        item = data if not section.key else data.get(section.key)
        return [
            {"ident": "", "key": "", "legend": section.item_label,
             "item": item if isinstance(item, dict) else {}}
        ]  # fmt: skip
    if section.within:
        found = []
        for p, holder in _objects(data.get(section.within)):
            for n, item in _objects(holder.get(section.key)):
                key = f"{holder.get('key', '')}/{item.get('key', '')}" if item.get("key") else ""
                legend = f"{section.item_label} {n + 1} of {holder.get('name') or p + 1}"
                found.append(
                    {"ident": str(item.get(ID) or ""), "key": key, "legend": legend, "item": item}
                )
        return found
    return [
        {"ident": str(i.get(ID) or ""), "key": str(i.get("key") or ""),
         "legend": f"{section.item_label} {n + 1}", "item": i}
        for n, i in _objects(data.get(section.key))
    ]  # fmt: skip


def _objects(items: Any) -> list[tuple[int, dict[str, Any]]]:
    return [
        (n, i)
        for n, i in enumerate(items if isinstance(items, list) else [])
        if isinstance(i, dict)
    ]


def _adds(section: Section, data: dict[str, Any]) -> list[tuple[str, str]]:
    """(holder id, button text) of the section's Add buttons: one for a list of items,
    one per holder for nested items, none for a single object."""
    item = section.item_label.lower()
    if section.single:
        return []
    if section.within:
        return [
            (str(holder.get(ID) or ""), f"Add {item} to {holder.get('name') or p + 1}")
            for p, holder in _objects(data.get(section.within))
        ]
    return [("", f"Add {item}")]


def control_id(section: Section, ident: str, name: str) -> str:
    """A control's id from its item's stable id ("one" for a single object)."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", f"f-{section.key or 'list'}-{ident or 'one'}-{name}")


def _at(refusal: Refusal | None, section: Section, ident: str, name: str) -> Any:
    if refusal is None or refusal.place.op not in ("set", "values"):
        return None
    return refusal if refusal.place.matches(section.key, ident, name) else None


def _field(spec: Any, value: Any, cid: str, error: Refusal | None) -> dict[str, Any]:
    if error is not None and spec.kind != "boolean":
        value = error.place.typed  # what the player typed stays in the control
        if spec.kind == "choice":
            with contextlib.suppress(ValueError):
                value = json.loads(value)
    control = {"spec": spec, "id": cid, "error": error, "options": []}
    if spec.kind == "choice":
        control["options"] = [(json.dumps(v), label, v == value) for v, label in spec.choices]
        control["value"] = value
    elif spec.kind == "boolean":
        control["value"] = bool(value)
    elif spec.kind == "lines" and isinstance(value, list):
        control["value"] = "\n".join(str(line) for line in value)
    else:
        control["value"] = "" if value is None else value
    return control


def _values(section: Section, row: dict, cid: str, refusal: Refusal | None) -> list[dict]:
    match = row["item"].get(section.values_key, {}) if section.values_key else {}
    found = []
    for v in section.values:
        error = _at(refusal, section, row["ident"], v.name)
        ticked = error.place.typed.split("\n") if error is not None else None
        choices = []
        for value, label in v.choices:
            posted = json.dumps(value)
            on = posted in ticked if ticked is not None else value in match.get(v.name, ())
            choices.append((posted, label, on))
        found.append({"spec": v, "id": f"{cid}-{v.name}", "choices": choices, "error": error})
    return found


def editor_context(
    ruleset: rules.RuleSet,
    shape: ListShape,
    army_list: ArmyList,
    refusal: Refusal | None = None,
    done: str = "",
) -> dict[str, Any]:
    data = army_list.data if isinstance(army_list.data, dict) else {}
    place = refusal.place if refusal is not None else None
    sections = []
    for section in shape.sections:
        items = []
        for row in _items(section, data):
            base = control_id(section, row["ident"], "")
            fields = [
                _field(
                    f,
                    row["item"].get(f.name),
                    control_id(section, row["ident"], f.name),
                    _at(refusal, section, row["ident"], f.name),
                )
                for f in section.fields
            ]
            removing = (
                place is not None and place.op == "remove" and place.section == section.key
                and place.ident == row["ident"]
            )  # fmt: skip
            items.append(
                {**row, "id": base.rstrip("-"), "fields": fields,
                 "values": _values(section, row, base.rstrip("-"), refusal),
                 "error": refusal if removing else None}
            )  # fmt: skip
        adds = []
        for holder, text in _adds(section, data):
            here = (
                place is not None and place.op == "add" and place.section == section.key
                and (not section.within or place.holder == holder)
            )  # fmt: skip
            adds.append({"holder": holder, "text": text,
                         "error": refusal if here else None})  # fmt: skip
        sections.append({"section": section, "items": items, "adds": adds})
    meta = []
    for name, label in META.items():
        error = (
            refusal if place is not None and place.op == "meta" and place.field == name else None
        )
        value = error.place.typed if error is not None else getattr(army_list, name)
        meta.append({"name": name, "label": label, "value": value, "error": error,
                     "id": f"meta-{name}"})  # fmt: skip
    steps = list_history.steps_of(army_list)
    trial = try_list(ruleset, army_list)
    placed = any(m["error"] for m in meta) or any(
        control["error"]
        for part in sections
        for control in (
            *part["adds"],
            *(row for row in part["items"]),
            *(c for row in part["items"] for c in (*row["fields"], *row["values"])),
        )
    )
    return {
        "ruleset": ruleset,
        "army_list": army_list,
        "meta": meta,
        "sections": sections,
        "trial": trial,
        # what the page's engine tries the list with (list-try.js): the list as saved, its
        # revision, the server's trial to confirm against, the rule set's other lists
        "engine_list": {
            **asdict(listed_of(ruleset, army_list)),
            "version": army_list.latest_revision,
        },
        "engine_trial": trial.to_json(),
        "engine_lists": {ruleset.slug: lists_json(list_lookup(ruleset.slug))},
        "refusal": refusal,
        # a refusal with no control of its own (undo, an entry gone) is said at the top
        "refusal_elsewhere": refusal if refusal is not None and not placed else None,
        "done": done,
        "steps": steps,
        "edit_url": editor_url(army_list),
        "history_url": list_history.history_url(army_list),
    }
