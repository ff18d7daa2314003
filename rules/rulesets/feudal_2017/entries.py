"""Feudal's army lists for the picker: the force matrix's columns as entries, allowed values.

A Feudal list names the unit type of each column of the d6 force matrix and the
replacements it allows. Its entries are one per column (the row rolled decides how many:
the minimum and maximum over the six rows), one per replacement, and the alternatives
every list allows (dismounted knights, brigans with bows, mounted brigans: R3-R5), which
count in their column too. Counts come from the same max-flow the matrix check makes, in
the first row the army fits, or else the nearest row.

The rule set's class hands in the list in force, already validated (without a list of its
own an army reads the default `feudal` list, as the check does); the helpers here read
only that list and the rule set's vocabulary, and never call back into the class.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.base import Allowed, Army, EntryStatus, ListDescription, RuleSet, Unit
from rules.list_entries import FieldRule, by_checks, ids_of, match_choices, merge, only, words
from rules.rulesets.feudal_2017.matrix import (
    COLUMN_LABELS,
    COLUMNS,
    MATRIX,
    ForceList,
    force_list,
    matching_rows,
    nearest_rows,
    row_places,
    row_usage,
)
from rules.rulesets.feudal_2017.troops import TYPE_NAME, matrix_type

FIELD_RULES = (
    FieldRule("type", ("dismounted-not-serjeants",),
              "dismounted knights are entered as serjeants"),
    FieldRule("dismounted", ("dismounted-not-serjeants",),
              "serjeants only: dismounted knights are entered as serjeants"),
    FieldRule("mercenary_crossbows", ("crossbow-balance", "one-modification-per-unit"),
              "bowmen only, with no advantage or disadvantage"),
    FieldRule("balance", ("crossbow-balance", "one-modification-per-unit"),
              "mounted serjeants are knights, unwilling levy freemen; no other modification"),
    FieldRule("advantage", ("one-modification-per-unit", "modifier-cap", "advantage-limit",
                            "modification-not-applicable"),
              "not with mercenary crossbows or a balance, modifiers within +2 and -2, shooting "
              "advantages for units that shoot; woods for freemen or bowmen only", army=True),
    FieldRule("disadvantage", ("one-modification-per-unit", "modifier-cap",
                               "modification-not-applicable"),
              "not with mercenary crossbows or a balance, modifiers within +2 and -2, shooting "
              "disadvantages for units that shoot"),
    FieldRule("personality", ("horse-marshal-unit", "bow-marshal-unit"),
              "a horse marshal leads knights or cavalry, a bow marshal bowmen"),
    FieldRule("banner", ("banner-unit",),
              "a banner stays with knights or serjeants that have a personality (not a priest "
              "or a strategos)"),
)  # fmt: skip

# alternatives every list allows (R3-R5): key -> (label, unit values, the type it counts as)
ALTERNATIVES: tuple[tuple[str, str, Mapping[str, Any], str], ...] = (
    ("dismounted-knights", "Dismounted knights", {"type": "serjeants", "dismounted": True},
     "knights"),
    ("brigans-bows", "Brigans with bows or crossbows", {"type": "brigans_bows"}, "brigans"),
    ("mounted-brigans", "Mounted brigans", {"type": "mounted_brigans"}, "brigans"),
)  # fmt: skip


def _placeable(force: ForceList) -> list[str]:
    """The matrix types a unit may count as under this list."""
    types = [force.columns[c] for c in COLUMNS]
    types += [r.to for r in force.replacements if r.to not in types]
    return types


def _last_of(units: tuple[Unit, ...] | list[Unit], kind: str) -> int | None:
    """The unit a stand-in replaces: the army's last unit of that matrix type."""
    found = [i for i, u in enumerate(units) if matrix_type(u) == kind]
    return found[-1] if found else None


def list_entries(data: Mapping[str, Any], army: Army | None) -> tuple[EntryStatus, ...]:
    """The entries of the (valid) list ``data``, counted in ``army``'s units."""
    force = force_list(data)
    units = army.units if army is not None else ()
    types = [matrix_type(u) for u in units]
    in_column = dict.fromkeys(COLUMNS, 0)
    replaced = dict.fromkeys(range(len(force.replacements)), 0)
    # the units each entry holds: a unit of a column's own type in that column, a stand-in
    # in its replacement only (the column's count includes it, its units do not)
    own: dict[str, list[int]] = {c: [] for c in COLUMNS}
    standing: dict[int, list[int]] = {n: [] for n in replaced}
    if types:
        rows = matching_rows(types, force)
        row = rows[0] if rows else nearest_rows(types, force)[0].row
        in_column, replaced = row_usage(types, force, row)
        own, standing = row_places(types, force, row)
    entries = []
    for i, column in enumerate(COLUMNS):
        kind = force.columns[column]
        counts = [MATRIX[row][i] for row in MATRIX]
        low, high = min(counts), max(counts)
        entries.append(EntryStatus(
            key=column, label=TYPE_NAME[kind], values={"name": TYPE_NAME[kind], "type": kind},
            cost=None, have=in_column[column], minimum=low, maximum=high,
            note=f"{COLUMN_LABELS[column]} column: {low} to {high} by the force-matrix roll",
            unit_ids=ids_of(army, own[column]),
        ))  # fmt: skip
    # the most slots a type's column has in any row: a stand-in takes one of them
    most = {force.columns[c]: max(MATRIX[row][i] for row in MATRIX) for i, c in enumerate(COLUMNS)}
    for n, rep in enumerate(force.replacements):
        high = most[rep.source] if rep.limit is None else min(rep.limit, most[rep.source])
        entries.append(EntryStatus(
            key=f"{rep.source}-as-{rep.to}", label=f"{TYPE_NAME[rep.to]} for {rep.source}",
            values={"name": TYPE_NAME[rep.to], "type": rep.to}, cost=None, have=replaced[n],
            minimum=0, maximum=high, note=f"replacement: {rep.describe()}",
            replaces=TYPE_NAME[rep.source], replace_index=_last_of(units, rep.source),
            unit_ids=ids_of(army, standing[n]),
        ))  # fmt: skip
    placeable = _placeable(force)
    for key, label, values, counts_as in ALTERNATIVES:
        if counts_as not in placeable:
            continue
        have = sum(1 for u in units if all(u.get(k) == v for k, v in values.items()))
        # no unit_ids: an alternative's units are counted in their column (or replacement)
        # too, where the force matrix checks them; each unit is given to that one entry
        entries.append(EntryStatus(
            key=key, label=label, values={"name": label, **values}, cost=None, have=have,
            minimum=0, maximum=most.get(counts_as),
            note=f"counts as {counts_as} in the force matrix",
        ))  # fmt: skip
    return tuple(entries)


def allowed_values(
    ruleset: RuleSet, data: Mapping[str, Any] | None, unit: Mapping[str, Any]
) -> dict[str, Allowed]:
    """What the rule set's checks allow ``unit``, narrowed by the (valid) list ``data``;
    the checks alone when there is no valid list."""
    own = by_checks(ruleset, unit, FIELD_RULES)
    if data is None:
        return own
    placeable = _placeable(force_list(data))
    field = ruleset.unit_field("type")
    dismounted = bool(unit.get("dismounted"))
    allowed = [t for t in field.values if matrix_type(_as(unit, t, dismounted)) in placeable]
    if not allowed:  # dismounted knights in a list without knights: as mounted units
        allowed = [t for t in field.values if matrix_type(_as(unit, t, False)) in placeable]
    listed = only(field, allowed, f"the army list fields {words(placeable)}")
    if "knights" not in placeable:
        dismount = ruleset.unit_field("dismounted")
        listed = merge(listed, only(dismount, [False], "the army list fields no knights"))
    return merge(listed, own)


def _as(unit: Mapping[str, Any], kind: str, dismounted: bool) -> Unit:
    return {**unit, "type": kind, "dismounted": dismounted}


def describe_list(ruleset: RuleSet, data: Mapping[str, Any]) -> ListDescription:
    """Each entry's unit type; the force matrix rows, replacements and list rules in words."""
    force = force_list(data)
    fields = ruleset.unit_fields
    choices = {
        e.key: match_choices({k: [v] for k, v in e.values.items() if k != "name"}, fields)
        for e in list_entries(data, None)
    }
    sentences = []
    for row, counts in MATRIX.items():
        parts = [
            f"{n} {TYPE_NAME[force.columns[c]].lower()}"
            for c, n in zip(COLUMNS, counts, strict=True)
            if n
        ]
        sentences.append(f"Roll {row}: {', '.join(parts)}.")
    for rep in force.replacements:
        text = rep.describe()
        sentences.append(f"{text[0].upper()}{text[1:]}.")
    if data.get("schiltrons"):
        sentences.append("Serjeants fight in schiltrons: mêlée hits are halved, shooting hits not.")
    if data.get("extra_terrain"):
        sentences.append(str(data["extra_terrain"]))
    return ListDescription(choices, tuple(sentences))
