"""Tests name a list's item by its place ("the first entry", "option 2 of group 1") for
brevity; the list editor only ever takes the item's stable id. ``by_id`` turns a test's
``index`` ("0", "0.1": option 1 of group 0) into the ``item`` id the page's forms post,
read from the list as saved now, so what is posted is what a browser posts."""

from __future__ import annotations

from typing import Any

from armybuilder.catalog.models import ArmyList
from rules import get_ruleset


def item_id(army_list: ArmyList, section_key: str, index: str) -> str:
    """The id of the item at ``index`` of the section (for nested sections "holder.own",
    or just "holder" for the holder itself); "" when there is none."""
    army_list.refresh_from_db()
    shape = get_ruleset(army_list.ruleset).list_shape()
    section = shape.section(section_key) if shape is not None else None
    data = army_list.data
    try:
        if section is not None and section.within:
            parent, _, own = index.partition(".")
            holder = data[section.within][int(parent)]
            return holder[section.key][int(own)]["id"] if own else holder["id"]
        return data[section_key][int(index)]["id"]
    except (KeyError, IndexError, ValueError, TypeError):
        return ""


def by_id(army_list: ArmyList, form: dict[str, Any]) -> dict[str, Any]:
    """The form with its ``index`` replaced by the ``item`` id it names."""
    if "index" not in form:
        return form
    form = dict(form)
    index = str(form.pop("index"))
    form["item"] = item_id(army_list, form.get("section", ""), index) or "missing"
    return form


def without_ids(data: Any) -> Any:
    """The data as a player wrote it: every item's id left out (each is asserted given)."""
    if isinstance(data, dict):
        return {k: without_ids(v) for k, v in data.items() if k != "id"}
    if isinstance(data, list):
        for value in data:
            assert not isinstance(value, dict) or isinstance(value.get("id"), str), value
        return [without_ids(v) for v in data]
    return data
