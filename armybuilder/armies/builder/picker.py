"""The "Add a unit" picker of the builder: the army list's entries as buttons, with their
cost and how many more the list requires or allows, grouped by list (the army's own first).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from armybuilder.armies.documents import Checked
from rules.base import EntryStatus, RuleSet
from rules.presentation import descriptor, entry_counts, entry_dom_id, size_text


@dataclass(frozen=True)
class PickerEntry:
    """One button of the "Add a unit" picker: an entry of the army list."""

    key: str  # the preset posted: "entry:<key>"
    label: str
    cost: int | None
    still_required: int = 0
    remaining: int | None = None
    have: int = 0
    # the entry's bounds: what the page's offline drawing works the counts out from
    minimum: int = 0
    maximum: int | None = None
    note: str = ""
    group: str = ""  # "" for the army's own list; else e.g. "Allies from Irish"
    replaces: str = ""  # a stand-in: the unit type it replaces, in words
    nothing_to_replace: bool = False
    # the card a tap draws at once, before the server answers (offline too): its name,
    # size and kind in words, as the server will draw them (JSON for a data- attribute)
    drawn: str = ""

    @property
    def dom_id(self) -> str:
        return entry_dom_id(self.key)

    @property
    def full(self) -> bool:
        return self.remaining == 0 or self.nothing_to_replace

    @property
    def counts(self) -> str:
        """How many more the list requires or allows, in words."""
        return entry_counts(
            still_required=self.still_required,
            remaining=self.remaining,
            have=self.have,
            replaces=self.replaces,
            nothing_to_replace=self.nothing_to_replace,
        )


@dataclass(frozen=True)
class PickerGroup:
    """The picker's tiles under one heading: the army's own list ("") or one allied list."""

    heading: str
    entries: tuple[PickerEntry, ...]
    first_other: bool = False  # the first group after the army's own list

    @property
    def taken(self) -> bool:
        return any(e.have for e in self.entries)


def picker_groups(entries: list[PickerEntry]) -> list[PickerGroup]:
    """``entries`` by group, in their order (the army's own list first)."""
    grouped: dict[str, list[PickerEntry]] = {}
    for entry in entries:
        grouped.setdefault(entry.group, []).append(entry)
    found, others = [], 0
    for heading, members in grouped.items():
        found.append(PickerGroup(heading, tuple(members), first_other=bool(heading) and not others))
        others += bool(heading)
    return found


def drawn_unit(ruleset: RuleSet, values: Mapping[str, Any]) -> str:
    """What the card of a unit added with ``values`` shows before the server drew it (no
    name: the server names it "Unit <its number>")."""
    return json.dumps(
        {
            "name": str(values.get("name") or ""),
            "size": size_text(values),
            "kind": descriptor(ruleset, "units", values),
        },
        separators=(",", ":"),
    )


def entry_statuses(checked: Checked, ruleset: RuleSet) -> tuple[EntryStatus, ...]:
    """The army list's entries with this army's counts (``RuleSet.list_entries``): what
    the picker's tiles and the cards' entries are drawn from, worked out once a page."""
    parsed = checked.parsed
    list_entries = getattr(ruleset, "list_entries", None)
    if parsed is None or list_entries is None:
        return ()
    return tuple(list_entries(parsed.list_data, parsed))


def unit_entries(statuses: Iterable[EntryStatus]) -> dict[str, str]:
    """Unit id -> the preset of the tile that unit counts against: its card names it, so
    the page's offline drawing counts a copy or a delete of it on that tile."""
    return {unit_id: f"entry:{e.key}" for e in statuses for unit_id in e.unit_ids}


def picker_entries(
    checked: Checked, ruleset: RuleSet, statuses: tuple[EntryStatus, ...] | None = None
) -> list[PickerEntry]:
    """The army list's entries with their cost and counts (``RuleSet.list_entries``, or
    ``statuses`` when the page already has them), or, before a rule set offers that, its
    ``unit_presets`` without counts."""
    parsed = checked.parsed
    if parsed is None:
        return []
    list_data = parsed.list_data
    list_entries = getattr(ruleset, "list_entries", None)
    if list_entries is not None:
        if statuses is None:
            statuses = entry_statuses(checked, ruleset)
        return [
            PickerEntry(
                key=f"entry:{e.key}",
                label=e.label,
                cost=e.cost,
                still_required=e.still_required,
                remaining=e.remaining,
                have=e.have,
                minimum=e.minimum,
                maximum=e.maximum,
                note=e.note,
                group=e.group,
                replaces=e.replaces,
                nothing_to_replace=bool(e.replaces) and e.replace_index is None,
                # a stand-in changes a unit already there: only the server draws it
                drawn="" if e.replaces else drawn_unit(ruleset, e.values),
            )
            for e in statuses
        ]
    return [
        PickerEntry(key=f"entry:{i}", label=label, cost=None, drawn=drawn_unit(ruleset, values))
        for i, (label, values) in enumerate(ruleset.unit_presets(list_data))
    ]
