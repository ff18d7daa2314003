"""What every rule set's entries say of the units they count (``EntryStatus.unit_ids``),
for the per-rule-set tests beside the packages' own."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import rules
from rules import EntryStatus, get_ruleset
from rules.document import with_ids
from tests.support import army, fixture_lists

Lookup = Callable[[str], Mapping[str, Mapping[str, Any]]]


def counted(
    ruleset: str,
    slug: str,
    units: list[dict[str, Any]],
    lists: Lookup = fixture_lists,
    **top: Any,
) -> tuple[rules.Army, tuple[EntryStatus, ...]]:
    """The army of ``units`` (each given an id) on list ``slug``, and its entries."""
    document = with_ids(army(ruleset, [dict(u) for u in units], army_list=slug, **top))
    parsed = rules.parse_document(document, lists)
    return parsed, get_ruleset(ruleset).list_entries(parsed.list_data, parsed)


def assert_each_unit_in_one_entry(parsed: rules.Army, entries: tuple[EntryStatus, ...]) -> None:
    given = [unit_id for entry in entries for unit_id in entry.unit_ids]
    assert len(given) == len(set(given)), given
    assert set(given) <= set(parsed.unit_ids)


def assert_one_to_one(entries: tuple[EntryStatus, ...]) -> None:
    for entry in entries:
        assert len(entry.unit_ids) == entry.have, entry
