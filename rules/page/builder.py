"""The builder's figures, worked out in the page: the army as the page holds it (the saved
document and the changes not yet answered), checked by the engine, in the words the
server's cards use (``rules.presentation``).

Called by the page's worker (JSON in, JSON out) and, under CPython, by the tests that
hold it to the server's drawing. The worker is one long-lived interpreter, so the army's
saved document, its lists and its last check are kept here between calls: the page sends
the document and the lists once (``version``, ``lists_key``), then only its unanswered
operations, and each call re-checks from the last (``rules.recheck_document``: an edit of
one unit re-checks that unit and the army-wide checks only).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules import edits, presentation, unit_presets
from rules.base import Army, NamedLists, Report, RuleSet
from rules.document import parse_document
from rules.engine import CheckState, check_state, recheck_document
from rules.errors import MalformedDocument
from rules.registry import get_ruleset

# what each operation needs the page to have made: the others (a roll, an undo, the
# settings form) only the server can work out
APPLIED_HERE = ("set", "add", "duplicate", "delete", "move")
KEEP = 8  # armies kept (a page works on one; a few tabs at most share the worker)


class NeedsDocument(LookupError):
    """The worker has not got this army's saved document (or its lists) yet: send it."""


_BASES: OrderedDict[str, tuple[int, dict[str, Any]]] = OrderedDict()
_LISTS: OrderedDict[str, NamedLists] = OrderedDict()
_LAST: OrderedDict[str, tuple[Any, CheckState]] = OrderedDict()


@dataclass(frozen=True)
class Step:
    """One operation applied (``outcome`` "", "unapplied" or "refused") and the document
    after it."""

    op: dict[str, Any]
    document: dict[str, Any]
    outcome: str
    why: str


# each army's base and the documents its last operations made, in order
_CHAINS: OrderedDict[str, tuple[tuple[int, dict[str, Any]], list[Step]]] = OrderedDict()


def _keep(cache: OrderedDict[str, Any], key: str, value: Any) -> None:
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > KEEP:
        cache.popitem(last=False)


def named_lists(lists: Mapping[str, Any]) -> NamedLists:
    """Lists as the page sends them (``{"data", "names", "families"}``) for the parser."""
    return NamedLists(
        dict(lists.get("data") or {}),
        dict(lists.get("names") or {}),
        dict(lists.get("families") or {}),
    )


def report(
    *,
    army: str,
    version: int,
    operations: Sequence[Mapping[str, Any]] = (),
    document: Mapping[str, Any] | None = None,
    lists: Mapping[str, Any] | None = None,
    lists_key: str = "",
) -> dict[str, Any]:
    """The figures of army ``army`` at ``version`` with ``operations`` applied in order.

    ``document``: the saved document at ``version`` (once per version); ``lists``: the
    army's rule-set lists at its pinned revisions, kept by ``lists_key`` (once per key).
    Raises NeedsDocument when either was never sent. Operations the page cannot apply
    (a roll, an undo) are named in ``unapplied``; one the server would refuse (a unit
    gone, a value that does not read) in ``refused``, with the parser's words."""
    key = str(army)
    if document is not None:
        last = _LAST.get(key)
        fresh = _shared(dict(document), last[0]) if last is not None else dict(document)
        _keep(_BASES, key, (int(version), fresh))
    if lists is not None:
        _keep(_LISTS, lists_key, named_lists(lists))
    base = _BASES.get(key)
    if base is None or base[0] != int(version):
        raise NeedsDocument(f"no document of army {key} at version {version}")
    if lists_key not in _LISTS:
        raise NeedsDocument(f"no lists {lists_key!r}")
    named = _LISTS[lists_key]
    raw, unapplied, refused = _applied(key, base, operations, named)
    try:
        state = _check(key, raw, named)
    except MalformedDocument:
        # an operation the parser refuses (and the server will): left out, one by one
        raw, unapplied, refused = apply_operations(base[1], operations, named, checked=True)
        state = _check(key, raw, named)
    figures = figures_of(state, get_ruleset(state.army.ruleset))
    figures.update(version=int(version), unapplied=unapplied, refused=refused)
    return figures


def forget(army: str) -> None:
    """Drop what the worker keeps of one army (a page that left)."""
    for cache in (_BASES, _LAST, _CHAINS):
        cache.pop(str(army), None)


def _applied(
    key: str,
    base: tuple[int, dict[str, Any]],
    operations: Sequence[Mapping[str, Any]],
    named: NamedLists,
) -> tuple[dict[str, Any], list[str], dict[str, str]]:
    """``apply_operations`` from the longest run of the same operations applied last time:
    a keystroke changes only the newest one, so only it is applied again, and the
    document it makes differs from the last one in that unit alone, which is what lets
    ``recheck_document`` re-check one unit."""
    chain = _CHAINS.get(key)
    steps: list[Step] = chain[1] if chain is not None and chain[0] is base else []
    kept = 0
    while kept < min(len(steps), len(operations)) and steps[kept].op == operations[kept]:
        kept += 1
    steps = steps[:kept]
    document = steps[-1].document if steps else base[1]
    ruleset = get_ruleset(str(base[1].get("ruleset")))
    lookup = _lookup(named)
    for op in operations[kept:]:
        try:
            document = apply_one(ruleset, document, op, lookup)
            steps.append(Step(dict(op), document, "", ""))
        except Unapplied:
            steps.append(Step(dict(op), document, "unapplied", ""))
        except (edits.NoSuchItem, MalformedDocument, ValueError, TypeError) as exc:
            steps.append(Step(dict(op), document, "refused", _why(exc)))
    _keep(_CHAINS, key, (base, steps))
    unapplied = [str(s.op.get("key", "")) for s in steps if s.outcome == "unapplied"]
    refused = {str(s.op.get("key", "")): s.why for s in steps if s.outcome == "refused"}
    return document, unapplied, refused


def _shared(document: dict[str, Any], known: Any) -> dict[str, Any]:
    """``document`` with every value (and every unit or general) equal to the one in
    ``known``, the document last checked, replaced by that very object: a new saved version
    that holds what the page had already checked (its own changes, landed) is then seen as
    the same army, or as one unit changed, and re-checked as such, not whole."""
    if not isinstance(known, dict):
        return document
    shared: dict[str, Any] = {}
    for name, value in document.items():
        old = known.get(name)
        if value == old:
            shared[name] = old
        elif isinstance(value, list) and isinstance(old, list) and len(value) == len(old):
            shared[name] = [o if v == o else v for v, o in zip(value, old, strict=True)]
        else:
            shared[name] = value
    return shared


def _lookup(named: NamedLists) -> Any:
    def lookup(ruleset: str) -> NamedLists:
        return named

    return lookup


def _check(key: str, raw: dict[str, Any], named: NamedLists) -> CheckState:
    last = _LAST.get(key)
    if last is not None:
        state = recheck_document(raw, _lookup(named), last[0], last[1])
    else:
        state = check_state(parse_document(raw, _lookup(named)))
    _keep(_LAST, key, (raw, state))
    return state


def apply_operations(
    document: dict[str, Any],
    operations: Sequence[Mapping[str, Any]],
    named: NamedLists,
    *,
    checked: bool = False,
) -> tuple[dict[str, Any], list[str], dict[str, str]]:
    """``document`` with each operation applied in order (``rules.edits``, as the
    server's commands make them), the keys of those only the server can apply, and the
    keys of those that do not read, with why. All at once first; when the result does
    not read, one by one, so only the operations the server would refuse are left out."""
    unapplied: list[str] = []
    refused: dict[str, str] = {}
    ruleset = get_ruleset(str(document.get("ruleset")))
    lookup = _lookup(named)
    if checked:
        return _one_by_one(ruleset, document, operations, lookup, unapplied, refused)
    changed = document
    for op in operations:
        try:
            changed = apply_one(ruleset, changed, op, lookup)
        except Unapplied:
            unapplied.append(str(op.get("key", "")))
        except (edits.NoSuchItem, MalformedDocument, ValueError, TypeError) as exc:
            refused[str(op.get("key", ""))] = _why(exc)
    if changed is document or not operations:
        return changed, unapplied, refused
    try:
        parse_document(changed, lookup)
    except MalformedDocument:
        return _one_by_one(ruleset, document, operations, lookup, unapplied, refused)
    return changed, unapplied, refused


def _one_by_one(
    ruleset: RuleSet,
    document: dict[str, Any],
    operations: Sequence[Mapping[str, Any]],
    lookup: Any,
    unapplied: list[str],
    refused: dict[str, str],
) -> tuple[dict[str, Any], list[str], dict[str, str]]:
    changed = document
    for op in operations:
        key = str(op.get("key", ""))
        if key in refused or key in unapplied:
            continue
        try:
            tried = apply_one(ruleset, changed, op, lookup)
            parse_document(tried, lookup)
        except Unapplied:
            unapplied.append(key)
            continue
        except (edits.NoSuchItem, MalformedDocument, ValueError, TypeError) as exc:
            refused[key] = _why(exc)
            continue
        changed = tried
    return changed, unapplied, refused


def _why(exc: Exception) -> str:
    return exc.message if isinstance(exc, MalformedDocument) else str(exc)


class Unapplied(Exception):
    """An operation only the server can apply."""


def apply_one(
    ruleset: RuleSet, document: dict[str, Any], op: Mapping[str, Any], lookup: Any
) -> dict[str, Any]:
    """``document`` with one of the page's operations applied (``rules.edits``)."""
    kind = op.get("op")
    if kind not in APPLIED_HERE:
        raise Unapplied(str(kind))
    target = str(op.get("target") or "army")
    value = op.get("value")
    if kind == "set":
        field = str(op.get("field") or "")
        if target == "army":
            return edits.set_army_value(document, field, value)
        item_kind, at = edits.find(document, target)
        fields = ruleset.unit_fields if item_kind == "units" else ruleset.general_fields
        if field not in {f.name for f in fields}:
            raise edits.NoSuchItem(f"no field {field!r}")
        return edits.set_item_value(ruleset, document, item_kind, at, field, value)[0]
    if kind == "add":
        return _add(ruleset, document, op, lookup)
    item_kind, at = edits.find(document, target)
    if kind == "duplicate":
        new_id = value.get("id") if isinstance(value, Mapping) else None
        return edits.duplicate_item(document, item_kind, at, new_id)[0]
    if kind == "move":
        return edits.move_item(document, item_kind, at, -1 if value == "up" else 1)[0]
    return edits.delete_item(document, item_kind, at)[0]


def _add(
    ruleset: RuleSet, document: dict[str, Any], op: Mapping[str, Any], lookup: Any
) -> dict[str, Any]:
    value = op.get("value") if isinstance(op.get("value"), Mapping) else {}
    new_id = value.get("id")
    kind = "generals" if op.get("field") == "generals" else "units"
    if kind == "generals":
        return edits.add_item(document, kind, edits.new_general(document), new_id)[0]
    preset = str(value.get("preset") or "blank")
    slug = document.get("army_list")
    list_data = lookup(ruleset.slug).get(slug) if slug else None
    fields = unit_presets.unit_fields(ruleset)
    if preset.startswith("entry:") and getattr(ruleset, "list_entries", None) is not None:
        parsed = parse_document(document, lookup)
        entry = unit_presets.list_entry(ruleset, list_data, parsed, preset)
        if entry is None:
            raise edits.NoSuchItem(f"no preset {preset!r}")
        if entry.replaces:
            at = entry.replace_index
            if at is None:
                raise MalformedDocument("units", unit_presets.nothing_to_replace(entry))
            return edits.replace_item(
                document, "units", at, unit_presets.known(entry.values, fields)
            )
        item = unit_presets.known(entry.values, fields)
    else:
        found = unit_presets.preset_unit(ruleset, list_data, preset)
        if found is None:
            raise edits.NoSuchItem(f"no preset {preset!r}")
        item = found
    item.setdefault("name", f"Unit {len(document.get('units') or []) + 1}")
    return edits.add_item(document, "units", item, new_id)[0]


def figures_of(state: CheckState, ruleset: RuleSet) -> dict[str, Any]:
    """What the builder page draws of a checked army, as JSON."""
    army, found = state.army, state.report
    issues = []
    by_href: dict[str, list[dict[str, str]]] = {}
    for issue in found.issues:
        href, target = presentation.issue_place(army, issue, army.unit_ids, army.general_ids)
        shown = {
            "severity": issue.severity,
            "code": issue.code,
            "message": issue.message,
            "rule": issue.rule,
            "href": href,
            "target": target,
        }
        issues.append(shown)
        if href:
            by_href.setdefault(href, []).append(shown)
    units = _items(army, found, ruleset, "units", by_href)
    generals = _items(army, found, ruleset, "generals", by_href)
    return {
        "ruleset": army.ruleset,
        "units": units,
        "generals": generals,
        "issues": issues,
        "first_problem": next((i["href"] for i in issues if i["href"]), "#issues"),
        "totals": _totals(found, ruleset),
        "entries": _entries(army, ruleset),
    }


def _items(
    army: Army,
    found: Report,
    ruleset: RuleSet,
    kind: str,
    by_href: Mapping[str, list[dict[str, str]]],
) -> list[dict[str, Any]]:
    items = army.units if kind == "units" else army.generals
    reports = found.units if kind == "units" else found.generals
    ids = army.unit_ids if kind == "units" else army.general_ids
    shown = []
    called = presentation.called_units(items) if kind == "units" else None
    for i, (item, item_report) in enumerate(zip(items, reports, strict=True)):
        item_id = (ids[i] if i < len(ids) else None) or ""
        anchor = presentation.item_anchor(kind, item_id, i)
        problems = by_href.get(f"#{anchor}", [])
        shown.append(
            {
                "id": item_id,
                "anchor": anchor,
                "number": i + 1,
                "name": called[i] if called else str(item.get("name", "")),
                "points": item_report.points,
                "breakdown": list(item_report.breakdown),
                "stats": [list(pair) for pair in presentation.stat_items(item_report.stats)],
                "descriptor": presentation.descriptor(ruleset, kind, item, item_report.stats),
                "size": presentation.size_text(item),
                "code": str(item_report.stats.get("code") or ""),
                "problems": [
                    {"severity": p["severity"], "message": p["message"]} for p in problems
                ],
                "valid": not any(p["severity"] == "error" for p in problems),
                "mark": presentation.problem_mark(len(problems)),
            }
        )
    return shown


def _totals(found: Report, ruleset: RuleSet) -> dict[str, Any]:
    composition = found.composition if isinstance(found.composition, Mapping) else {}
    rows = composition.get("matrix_rows")
    totals: dict[str, Any] = {
        "uses_points": ruleset.uses_points,
        "total": found.total_points,
        "limit": found.points_limit,
        "valid": found.valid,
        "errors": len(found.errors),
        "warnings": len(found.warnings),
        "units": len(found.units),
        "matrix_rows": list(rows) if isinstance(rows, list | tuple) else None,
        "matrix_text": presentation.matrix_words(rows if isinstance(rows, list | tuple) else None),
    }
    totals.update(
        presentation.total_words(
            units=len(found.units),
            valid=found.valid,
            errors=totals["errors"],
            warnings=totals["warnings"],
            total=found.total_points,
            limit=found.points_limit,
        )
    )
    return totals


def _entries(army: Army, ruleset: RuleSet) -> list[dict[str, Any]]:
    """The picker's tiles: each entry's counts in words and whether it is full."""
    list_entries = getattr(ruleset, "list_entries", None)
    if list_entries is None:
        return []
    shown = []
    for e in list_entries(army.list_data, army):
        nothing = bool(e.replaces) and e.replace_index is None
        key = f"entry:{e.key}"
        shown.append(
            {
                "key": key,
                "dom_id": presentation.entry_dom_id(key),
                "counts": presentation.entry_counts(
                    still_required=e.still_required,
                    remaining=e.remaining,
                    have=e.have,
                    replaces=e.replaces,
                    nothing_to_replace=nothing,
                ),
                "required": e.still_required > 0,
                "full": e.remaining == 0 or nothing,
                "have": e.have,
                "unit_ids": list(e.unit_ids),
            }
        )
    return shown
