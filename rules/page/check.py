"""The check of a whole army in the page: the report the server's check answers (the JSON
API's ``POST /api/v1/check``), worked out by the same engine on the device.

The army lists travel as JSON: ``lists_json`` makes the payload a page carries from a
``rules.NamedLists`` (the lists of one rule set at the revisions an army uses), and
``lookup_from_json`` turns it back into the lookup the engine reads, names and families
included, so messages name lists as the server's do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.base import NamedLists, list_families, list_names
from rules.document import ListLookup
from rules.engine import check_document
from rules.errors import MalformedDocument


def lists_json(lists: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """One rule set's lists (a ListLookup's answer) as JSON: data, names and families."""
    return {
        "data": {slug: lists[slug] for slug in sorted(lists)},
        "names": dict(sorted(list_names(lists).items())),
        "families": dict(sorted(list_families(lists).items())),
    }


def lookup_from_json(lists: Mapping[str, Any] | None) -> ListLookup:
    """The ListLookup of ``{ruleset slug: lists_json(...)}``; a rule set it leaves out has
    no lists."""
    named = {
        ruleset: NamedLists(
            payload.get("data") or {}, payload.get("names") or {}, payload.get("families") or {}
        )
        for ruleset, payload in (lists or {}).items()
    }

    def lookup(ruleset: str) -> Mapping[str, Mapping[str, Any]]:
        return named.get(ruleset) or NamedLists()

    return lookup


def report(document: Any, lists: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The check's report of ``document`` (``Report.to_json``), or ``{"malformed": {error,
    path}}`` for a document the strict parser refuses, in the server's words."""
    try:
        _, checked = check_document(document, lookup_from_json(lists))
    except MalformedDocument as refused:
        return {"malformed": refused.to_json()}
    return checked.to_json()
