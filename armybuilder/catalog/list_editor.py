"""The list editor: one generic page for every rule set that describes its list shape
(``RuleSet.list_shape``), its controls generated from that description.

Each control posts one change (htmx as the player leaves it; a Save button without
JavaScript); each change is a new revision (``services.edit_list``) after the rule set's
list validator accepts it, and a refusal names the field at fault and saves nothing. Undo
saves the previous revision's content again, as a new revision: revisions never change.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_http_methods

import rules
from armybuilder.catalog import selectors, services
from armybuilder.catalog.list_views import authored_list_or_404
from armybuilder.catalog.models import ArmyList
from rules.list_document import ListDocument
from rules.list_shape import ListShape, Section

TEMPLATE = "catalog/list_editor.html"
META = {"name": "Name", "period": "Period", "source_note": "Source note"}


class Refused(Exception):
    """A change the editor cannot make: the message names the field."""


def shape_or_404(slug: str) -> tuple[rules.RuleSet, ListShape]:
    try:
        ruleset = rules.get_ruleset(slug)
    except KeyError:
        raise Http404("no such rule set") from None
    shape = ruleset.list_shape()
    if shape is None:
        raise Http404("this rule set has no list editor yet")
    return ruleset, shape


def editor_url(army_list: ArmyList) -> str:
    return reverse("catalog:list_edit", args=[army_list.ruleset, army_list.slug])


@login_required
@require_http_methods(["GET", "POST"])
def new_list(request: HttpRequest, slug: str) -> HttpResponse:
    ruleset, shape = shape_or_404(slug)
    error = ""
    if request.method == "POST":
        name = request.POST.get("name", "").strip()
        listed = ListDocument(
            ruleset=slug,
            slug=slugify(name)[:60] or "list",
            name=name,
            period=request.POST.get("period", "").strip(),
            source_note=request.POST.get("source_note", "").strip(),
            data=copy.deepcopy(shape.empty),
        )
        try:
            saved = services.create_list(request.user, listed)
        except ValidationError as exc:
            error = _said(exc)
        else:
            return redirect(editor_url(saved.army_list))
    return render(
        request,
        "catalog/list_new.html",
        {"ruleset": ruleset, "error": error},
        status=400 if error else 200,
    )


def _said(exc: ValidationError) -> str:
    if hasattr(exc, "message_dict"):
        return " ".join(
            f"{META.get(k, k)}: {m}" if k != "__all__" else m
            for k, ms in exc.message_dict.items()
            for m in ms
        )
    return " ".join(exc.messages)


@require_http_methods(["GET", "POST"])
def edit_list(request: HttpRequest, slug: str, list_slug: str) -> HttpResponse:
    army_list = authored_list_or_404(request, slug, list_slug)
    ruleset, shape = shape_or_404(slug)
    error, status = "", 200
    if request.method == "POST":
        try:
            content = change(army_list, shape, request.POST)
            services.edit_list(request.user, army_list, **content)
        except Refused as exc:
            error, status = str(exc), 400
        except ValidationError as exc:
            error, status = _said(exc), 400
        except services.ListRefused as exc:
            error, status = str(exc), 400
        army_list.refresh_from_db()
        if status == 200 and not request.headers.get("HX-Request"):
            return redirect(editor_url(army_list))
    context = editor_context(ruleset, shape, army_list, error)
    if request.headers.get("HX-Request"):
        return render(request, f"{TEMPLATE}#editor", context, status=status)
    return render(request, TEMPLATE, context, status=status)


# -- one change ---------------------------------------------------------------------------


def change(army_list: ArmyList, shape: ListShape, post: Any) -> dict[str, Any]:
    """The list content after the posted change (``op``: set, values, add, remove, undo)."""
    op = post.get("op", "")
    if op == "undo":
        return _previous(army_list)
    if op == "meta":
        name = post.get("field", "")
        if name not in META:
            raise Refused("no such field")
        return {name: post.get("value", "").strip()}
    data = copy.deepcopy(dict(army_list.data))
    section = shape.section(post.get("section", ""))
    if section is None:
        raise Refused("no such part of the list")
    if section.single:  # one object: its fields are set, never added or removed
        if op != "set":
            raise Refused("unknown change")
        item = data if not section.key else data.get(section.key)
        if not isinstance(item, dict):
            item = data[section.key] = {}
        _set_field(section, item, post.get("field", ""), post.get("value", ""), None)
        return {"data": data}
    raw_index = post.get("index", "")
    if section.within:  # items kept in each item of another section: "parent.own" indexes
        parent, _, raw_index = raw_index.partition(".") if op != "add" else (raw_index, "", "")
        holder = _item_of(data.get(section.within), parent)
        items = holder.setdefault(section.key, [])
        if not isinstance(items, list):
            items = holder[section.key] = []
    else:
        items = data.setdefault(section.key, [])
    if op == "add":
        items.append(_new_item(section, data))
        return {"data": data}
    index = _index(raw_index, items)
    if op == "remove":
        if len(items) <= section.minimum:
            raise Refused(
                f"{section.label}: the list needs at least {section.minimum} "
                f"{section.item_label.lower()}"
            )
        del items[index]
    elif op == "set":
        _set_field(section, items[index], post.get("field", ""), post.get("value", ""), index)
    elif op == "values":
        _set_values(section, items[index], post.get("field", ""), post.getlist("value"))
    else:
        raise Refused("unknown change")
    return {"data": data}


def _index(raw: str, items: list[Any]) -> int:
    if not raw.isdigit() or int(raw) >= len(items):
        raise Refused("that entry is no longer there: reload the page")
    return int(raw)


def _item_of(items: Any, raw: str) -> dict[str, Any]:
    """The object at index ``raw`` of ``items`` (a nested section's holder)."""
    if not isinstance(items, list):
        raise Refused("that entry is no longer there: reload the page")
    found = items[_index(raw, items)]
    if not isinstance(found, dict):
        raise Refused("that entry is no longer there: reload the page")
    return found


def _new_item(section: Section, data: Any) -> dict[str, Any]:
    """A fresh item, its keys (and those of any items inside it) unused anywhere in the
    list: a rule set may require every key of a list to be different."""
    item = copy.deepcopy(section.new_item)
    taken = set(_keys_in(data))
    for found in _objects_with_keys(item):
        prefix = str(found["key"]).rsplit("-", 1)[0] or "entry"
        n = 1
        while f"{prefix}-{n}" in taken:
            n += 1
        found["key"] = f"{prefix}-{n}"
        taken.add(found["key"])
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


def _keys_in(data: Any) -> list[str]:
    return [found["key"] for found in _objects_with_keys(data)]


def _set_field(section: Section, item: dict, name: str, raw: str, index: int | None) -> None:
    spec = next((f for f in section.fields if f.name == name), None)
    if spec is None:
        raise Refused("no such field")
    raw = raw.strip()
    place = section.label if index is None else f"{section.item_label} {index + 1}"
    where = f"{place}, {spec.label}"
    if spec.kind == "boolean":
        item[name] = raw == "true"
        return
    if not raw:
        if not spec.optional:
            raise Refused(f"{where}: required")
        item.pop(name, None)
        return
    if spec.kind == "choice":
        allowed = [value for value, _ in spec.choices]
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw
        if value not in allowed:
            labels = ", ".join(label for _, label in spec.choices)
            raise Refused(f"{where}: one of {labels}")
        item[name] = value
    elif spec.kind == "integer":
        if not raw.isdigit() or len(raw) > 6:
            raise Refused(f"{where}: a whole number, e.g. 2")
        item[name] = int(raw)
    else:
        item[name] = raw


def _set_values(section: Section, item: dict, name: str, raw: list[str]) -> None:
    spec = next((v for v in section.values if v.name == name), None)
    if spec is None:
        raise Refused("no such field")
    allowed = [value for value, _ in spec.choices]
    chosen = []
    for text in raw:
        try:
            value = json.loads(text)
        except ValueError:
            raise Refused(f"{spec.label}: not one of its values") from None
        if value not in allowed:
            raise Refused(f"{spec.label}: not one of its values")
        chosen.append(value)
    match = item.setdefault(section.values_key, {})
    if chosen:
        match[name] = [v for v in allowed if v in chosen]  # the rule set's order
    else:
        match.pop(name, None)  # nothing ticked: any value


def _previous(army_list: ArmyList) -> dict[str, Any]:
    number = army_list.latest_revision - 1
    previous = selectors.get_revision(army_list, number) if number >= 1 else None
    if previous is None:
        raise Refused("nothing to undo: this is the list's first revision")
    return {
        "name": previous.name,
        "period": previous.period,
        "source_note": previous.source_note,
        "data": previous.data,
    }


# -- the page -----------------------------------------------------------------------------


def _items(section: Section, data: dict[str, Any]) -> list[tuple[str | None, str, dict]]:
    """(index, legend, item) of a section's items: one item with no index for a single
    object; "parent.own" indexes for items kept inside another section's items."""
    if section.single:
        item = data if not section.key else data.get(section.key)
        return [(None, section.item_label, item if isinstance(item, dict) else {})]
    if section.within:
        found = []
        for p, holder in _objects(data.get(section.within)):
            for n, item in _objects(holder.get(section.key)):
                legend = f"{section.item_label} {n + 1} of {holder.get('name') or p + 1}"
                found.append((f"{p}.{n}", legend, item))
        return found
    return [
        (str(n), f"{section.item_label} {n + 1}", i) for n, i in _objects(data.get(section.key))
    ]


def _objects(items: Any) -> list[tuple[int, dict[str, Any]]]:
    return [
        (n, i)
        for n, i in enumerate(items if isinstance(items, list) else [])
        if isinstance(i, dict)
    ]


def _adds(section: Section, data: dict[str, Any]) -> list[tuple[str, str]]:
    """(index, button text) of the section's Add buttons: one for a list of items, one per
    holder for nested items, none for a single object."""
    item = section.item_label.lower()
    if section.single:
        return []
    if section.within:
        return [
            (str(p), f"Add {item} to {holder.get('name') or p + 1}")
            for p, holder in _objects(data.get(section.within))
        ]
    return [("", f"Add {item}")]


def _control(spec: Any, value: Any) -> tuple[Any, Any, list[tuple[str, str, bool]]]:
    """A field's control: its spec, the value shown and, for a choice, its options."""
    if spec.kind == "choice":
        options = [(json.dumps(v), label, v == value) for v, label in spec.choices]
        return spec, value, options
    if spec.kind == "boolean":
        return spec, bool(value), []
    return spec, "" if value is None else value, []


def editor_context(
    ruleset: rules.RuleSet, shape: ListShape, army_list: ArmyList, error: str = ""
) -> dict[str, Any]:
    data = army_list.data if isinstance(army_list.data, dict) else {}
    sections = []
    for section in shape.sections:
        items = []
        for n, legend, item in _items(section, data):
            match = item.get(section.values_key, {}) if section.values_key else {}
            items.append(
                {
                    "index": n,
                    "legend": legend,
                    "fields": [_control(f, item.get(f.name)) for f in section.fields],
                    "values": [
                        (
                            v,
                            [
                                (json.dumps(value), label, value in match.get(v.name, ()))
                                for value, label in v.choices
                            ],
                        )
                        for v in section.values
                    ],
                }
            )
        sections.append({"section": section, "items": items, "adds": _adds(section, data)})
    try:
        tiles = [label for label, _ in ruleset.unit_presets(data)]
    except (KeyError, TypeError, ValueError, AttributeError):  # a list mid-edit
        tiles = []
    return {
        "ruleset": ruleset,
        "army_list": army_list,
        "meta": [(name, label, getattr(army_list, name)) for name, label in META.items()],
        "sections": sections,
        "tiles": tiles,
        "error": error,
        "edit_url": editor_url(army_list),
    }
