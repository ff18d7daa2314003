"""The list editor's "Try it" in the page: the sample army of an author's list as the page
holds it (the saved list plus the operations still waiting to be sent), worked out by the
same engine on the device, online and offline.

The waiting operations are applied with the server's own change of a list
(``rules.list_changes``); an operation the rule set's validator refuses is left out as
the server refuses it, in its words (``rules.list_words``). Undo, redo and a "then" step
need the list's history or the server's offer: the list is tried up to the first of them
and the answer says it waits. The rule set's other lists come once (``lists`` and a
``lists_key``) and are kept here for the worker's life, so later calls send only the key.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from rules.document import ListLookup
from rules.list_changes import Posted, Refusal, apply, meta_change
from rules.list_document import ListDocument
from rules.list_trial import try_list as try_document
from rules.list_words import refused_words
from rules.page.check import lookup_from_json
from rules.registry import get_ruleset

_LOOKUPS: dict[str, ListLookup] = {}
_KEPT = 8  # lookups kept (one per list editor page seen lately)
UNWORKED = ("undo", "redo")  # operations that need the server's history


class UnknownLists(LookupError):
    """The lists were not sent with this key yet: the page sends them again."""


def _lookup(lists: Mapping[str, Any] | None, lists_key: str) -> ListLookup:
    if lists is not None:
        lookup = lookup_from_json(lists)
        if lists_key:
            _LOOKUPS.pop(lists_key, None)
            _LOOKUPS[lists_key] = lookup
            while len(_LOOKUPS) > _KEPT:
                _LOOKUPS.pop(next(iter(_LOOKUPS)))
        return lookup
    if lists_key in _LOOKUPS:
        return _LOOKUPS[lists_key]
    raise UnknownLists(f"no lists kept as {lists_key!r}")


def listed_of(document: Mapping[str, Any]) -> ListDocument:
    """The list the page carries (ruleset, slug, name, period, family, data) as the
    server's "Try it" reads it."""
    data = document.get("data")
    return ListDocument(
        ruleset=str(document.get("ruleset", "")),
        slug=str(document.get("slug", "")),
        name=str(document.get("name", "")),
        period=str(document.get("period", "")),
        source_note="",
        data=data if isinstance(data, dict) else {},
        family=document.get("family") or None,
    )


def with_operations(
    listed: ListDocument, operations: Sequence[Mapping[str, Any]]
) -> tuple[ListDocument, list[dict[str, str]], str]:
    """The list after ``operations`` as the server applies them, one at a time: (the
    list, the operations left out with why, the first operation it cannot work out here)."""
    ruleset = get_ruleset(listed.ruleset)
    shape = ruleset.list_shape()
    left_out: list[dict[str, str]] = []
    for operation in operations:
        op = str(operation.get("op", ""))
        if op in UNWORKED or operation.get("then"):
            return listed, left_out, op if op in UNWORKED else "then"
        posted = Posted(
            op,
            section=str(operation.get("section") or ""),
            item=str(operation.get("target") or ""),
            field=str(operation.get("field") or ""),
            value=operation.get("value", ""),
        )
        try:
            if op == "meta":
                content, _ = meta_change(posted)
                listed = dataclasses.replace(listed, **content)
                continue
            if shape is None:
                raise Refusal("this rule set has no list editor")
            data = dict(listed.data)
            changed, place = apply(data, shape, posted, lambda d: not ruleset.validate_army_list(d))
        except Refusal as refused:
            left_out.append({"key": str(operation.get("key", "")), "why": refused.message})
            continue
        problems = ruleset.validate_army_list(changed)
        if problems:
            why = refused_words(shape, changed, place, problems)
            left_out.append({"key": str(operation.get("key", "")), "why": why})
            continue
        listed = dataclasses.replace(listed, data=changed)
    return listed, left_out, ""


def try_list(
    document: Mapping[str, Any],
    lists: Mapping[str, Any] | None = None,
    lists_key: str = "",
    operations: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """What the Try it panel shows for the list ``document`` after ``operations``:
    ``{"trial": Trial.to_json(), "problems": the rule set's validation problems of the
    list, "left_out": [{key, why}], "waits": "" or the operation not worked out here,
    "version": the saved revision it starts from}``."""
    lookup = _lookup(lists, lists_key)
    listed, left_out, waits = with_operations(listed_of(document), operations)
    ruleset = get_ruleset(listed.ruleset)
    return {
        "trial": try_document(listed, lookup).to_json(),
        "problems": list(ruleset.validate_army_list(dict(listed.data))),
        "left_out": left_out,
        "waits": waits,
        "version": document.get("version"),
    }
