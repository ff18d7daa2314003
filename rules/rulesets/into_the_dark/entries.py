"""Into the Dark's army lists for the picker: entries with counts and costs, allowed values.

An Into the Dark list is ``entries`` (each a ``match`` of unit field -> allowed values,
with ``min`` and ``max``) and share ``limits``. A unit counts against one entry: the
assignment is the b-matching of ``rules.matching`` that fills the most minima and then
places the most units, so in an army the list check passes, every entry's count lies
within its minimum and maximum.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.base import (
    Allowed,
    Army,
    EntryStatus,
    ListDescription,
    RuleSet,
    Unit,
    entry_preset,
)
from rules.document import FORMAT, parse_document
from rules.errors import MalformedDocument
from rules.list_entries import (
    Entry,
    FieldRule,
    by_checks,
    entry_cost,
    ids_of,
    match_choices,
    merge,
    mismatch_detail,
    restrict_by_entries,
)
from rules.matching import max_assignment

MOST_TRIES = 300  # other values tried for a preset's open fields before keeping it as it is

# rules of the rule set that restrict one field of a unit, by the checks that refuse a value
FIELD_RULES = (
    FieldRule("missile_weapon",
              ("missing-missile-weapon", "melee-with-missile-weapon", "swat-not-cross-trained",
               "weapon-wrong-arm", "peasant-swat"),
              "missile or cross-trained troops only, a weapon for their arm (foot or mounted); "
              "no longbow when cross-trained or peasant"),
    FieldRule("melee_weapon", ("swat-not-cross-trained", "weapon-wrong-arm", "peasant-swat"),
              "pikes are for foot that are not cross-trained; no polearm or pike for peasants"),
    FieldRule("shieldwall", ("shieldwall-not-close-foot", "peasant-swat"),
              "shieldwall for close-order foot only, not peasants"),
    FieldRule("warband", ("warband-mounted",), "warband for foot only"),
    FieldRule("skirmishers", ("skirmishers-not-open-missile",),
              "skirmishers are open order with a missile weapon"),
)  # fmt: skip


def _entries(list_data: Mapping[str, Any] | None) -> list[Mapping[str, Any]]:
    entries = (list_data or {}).get("entries", [])
    return [e for e in entries if isinstance(e, Mapping)] if isinstance(entries, list) else []


def entry_key(entry: Mapping[str, Any], n: int) -> str:
    key = entry.get("key")
    return str(key) if isinstance(key, str) and key.strip() else f"entry-{n + 1}"


def entry_label(entry: Mapping[str, Any], n: int) -> str:
    return str(entry.get("name") or entry.get("key") or f"Entry {n + 1}").strip()


def matchers(list_data: Mapping[str, Any] | None) -> list[Entry]:
    return [
        Entry(entry_label(e, n), {k: tuple(v) for k, v in (e.get("match") or {}).items()})
        for n, e in enumerate(_entries(list_data))
    ]


def preset(ruleset: RuleSet, entry: Mapping[str, Any], n: int) -> Unit:
    """What a unit added from the entry starts with: each matched field's first value, and
    the rule set's follow-ups (a champion is one open figure) where the entry allows them."""
    _, values = entry_preset(entry, f"Entry {n + 1}")
    match = entry.get("match") or {}
    for field, value, then in ruleset.follow_ups:
        if values.get(field) == value:
            values.update({k: v for k, v in then.items() if k not in match or v in match[k]})
    names = {f.name for f in ruleset.unit_fields}
    values = {k: v for k, v in values.items() if k in names}
    key = (ruleset.slug, json.dumps(values, sort_keys=True), json.dumps(match, sort_keys=True))
    return dict(json.loads(_legal(key, ruleset)))


@functools.lru_cache(maxsize=512)
def _legal(key: tuple[str, str, str], ruleset: RuleSet) -> str:
    """The preset's values made legal where the entry leaves a field open: an entry that
    allows a javelin but leaves training open starts its units missile-trained, not melee
    with a javelin (an error). The first value of each field the entry fixes stays."""
    values, match = json.loads(key[1]), json.loads(key[2])
    if not _errors(ruleset, values):
        return key[1]
    open_fields = [
        f for f in ruleset.unit_fields
        if f.name not in match and f.name != "name" and f.kind in ("choice", "boolean")
    ]  # fmt: skip

    def alternatives(f: Any) -> list[Any]:
        found = [True, False] if f.kind == "boolean" else list(f.values)
        return [*found, None] if f.nullable else found

    tries = 0
    for width in (1, 2):
        for chosen in itertools.combinations(open_fields, width):
            for combination in itertools.product(*(alternatives(f) for f in chosen)):
                tries += 1
                if tries > MOST_TRIES:
                    return key[1]
                trial = {**values, **{f.name: v for f, v in zip(chosen, combination, strict=True)}}
                if not _errors(ruleset, trial):
                    return json.dumps(trial, sort_keys=True)
    return key[1]


def _errors(ruleset: RuleSet, values: Unit) -> bool:
    """Whether a unit with these values (the rest at their defaults) has an error of its own."""
    raw = {"format": FORMAT, "name": "Preset", "ruleset": ruleset.slug, "units": [values]}
    try:
        army = parse_document(raw)
    except MalformedDocument:
        return True
    return any(i.severity == "error" for i in ruleset.check_unit(army.units[0], 0, army))


def assignment(
    units: tuple[Unit, ...], entries: list[Entry], list_data: Mapping[str, Any]
) -> list[int | None]:
    """The entry each unit counts against (None: it fits no entry, or no place is left)."""
    raw = _entries(list_data)
    options = [[e for e, entry in enumerate(entries) if entry.fits(u)] for u in units]
    minimum = [int(r.get("min", 0) or 0) for r in raw]
    maximum = [len(units) if r.get("max") is None else int(r["max"]) for r in raw]
    # fill the minima first; augmenting paths never empty a place, so they stay filled
    start = max_assignment(options, minimum)
    return max_assignment(options, maximum, start=start)


def list_entries(
    ruleset: RuleSet, list_data: Mapping[str, Any] | None, army: Army | None
) -> tuple[EntryStatus, ...]:
    raw = _entries(list_data)
    if not raw:
        return ()
    entries = matchers(list_data)
    units = army.units if army is not None else ()
    placed = assignment(units, entries, list_data or {})
    result = []
    for n, entry in enumerate(raw):
        values = preset(ruleset, entry, n)
        high = entry.get("max")
        counted = [i for i, p in enumerate(placed) if p == n]
        result.append(
            EntryStatus(
                key=entry_key(entry, n),
                label=entry_label(entry, n),
                values=values,
                cost=entry_cost(ruleset, values, army),
                have=len(counted),
                minimum=int(entry.get("min", 0) or 0),
                maximum=None if high is None else int(high),
                note=str(entry.get("note") or ""),
                unit_ids=ids_of(army, counted),
            )
        )
    return tuple(result)


def allowed_values(
    ruleset: RuleSet, list_data: Mapping[str, Any] | None, unit: Mapping[str, Any]
) -> dict[str, Allowed]:
    fields = {f.name: f for f in ruleset.unit_fields}
    listed = restrict_by_entries(matchers(list_data), unit, fields)
    return merge(listed, by_checks(ruleset, unit, FIELD_RULES))


def no_entry_message(
    ruleset: RuleSet, list_data: Mapping[str, Any], unit: Mapping[str, Any]
) -> str:
    """The not-in-army-list message: which fields stop the unit matching its nearest entry."""
    fields = {f.name: f for f in ruleset.unit_fields}
    detail = mismatch_detail(matchers(list_data), unit, fields)
    text = f"{unit['name']}: matches no troop entry of this army list"
    return f"{text} — {detail}." if detail else f"{text}."


def describe_list(ruleset: RuleSet, list_data: Mapping[str, Any] | None) -> ListDescription:
    """Each entry's match, and the share limits in words."""
    choices = {
        entry_key(e, n): match_choices(e.get("match") or {}, ruleset.unit_fields)
        for n, e in enumerate(_entries(list_data))
    }
    limits = (list_data or {}).get("limits", [])
    sentences = tuple(
        f"{limit.get('label', 'Restricted troops')}: at most "
        f"{_share(limit['max_share'])} of the army's points."
        for limit in limits
        if isinstance(limit, Mapping) and "max_share" in limit
    )
    return ListDescription(choices, sentences)


def _share(value: Any) -> str:
    share = Fraction(str(value))
    return str(share) if share.denominator == 1 else f"{share.numerator}/{share.denominator}"
