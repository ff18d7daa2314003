"""The strict parser of the ``muster.army/1`` document (army-format.md section 1)."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules import memo
from rules.base import Army, RuleSet, list_families, list_names
from rules.errors import MalformedDocument
from rules.fields import Field, describe, parse_object, parse_value
from rules.registry import get_ruleset, slugs
from rules.text import check_tree, safe_text

FORMAT = "muster.army/1"
MAX_UNITS = 500
MAX_GENERALS = 50
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,32}")
_ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"  # no 0/o, 1/l: read aloud, typed by hand
_ID_LENGTH = 8  # 32**8 = 10**12: a deleted item's id does not come back

# ruleset slug -> {list slug: constraint data}; the web layer reads these from the database.
ListLookup = Callable[[str], Mapping[str, Mapping[str, Any]]]

_TOP_KEYS = (
    "format",
    "name",
    "ruleset",
    "army_list",
    "list_revisions",
    "points_limit",
    "options",
    "generals",
    "units",
    "notes",
)
_REQUIRED = ("format", "name", "ruleset", "units")
_REVISION = Field("revision", "Revision", "integer", minimum=1, maximum=1_000_000)
_NAME = Field("name", "Army name", "string", required=True, minimum=1, maximum=120)
_NOTES = Field("notes", "Notes", "text", default="", maximum=5000)
_POINTS_LIMIT = Field(
    "points_limit", "Points limit", "integer", nullable=True, minimum=1, maximum=100000
)


def load_json(text: str) -> Any:
    """Read a document's JSON strictly, or raise MalformedDocument saying where it breaks.

    Refuses what Python's json would let through but JSON does not allow (NaN, Infinity),
    a key given twice in one object, and input too deeply nested or with numbers too long to read, with a message rather
    than a crash.
    """
    try:
        return json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_no_repeats)
    except json.JSONDecodeError as exc:
        raise MalformedDocument(
            "", f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    except RecursionError:
        raise MalformedDocument("", "not valid JSON: nested too deeply") from None
    except ValueError as exc:  # NaN/Infinity, or an integer with thousands of digits
        raise MalformedDocument("", f"not valid JSON: {exc}") from None


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """One object: a key given twice is refused (JSON leaves it undefined; Python would
    silently keep the last, so a document could say two things and mean one)."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise ValueError(f"the key {key!r} appears twice in one object")
        found[key] = value
    return found


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def read_head(
    raw: Any,
    *,
    what: str,
    keys: Sequence[str],
    required: Sequence[str],
    expected_format: str,
) -> str:
    """The opening every Muster document shares (an army, a list): a JSON object of known
    keys, the text rule for every key and string, its required keys, its format and a known
    rule set. Gives the rule set's slug, or raises MalformedDocument naming the path."""
    if not isinstance(raw, Mapping):
        raise MalformedDocument("", f"the {what} must be a JSON object, not {describe(raw)}")
    for key in raw:
        if key not in keys:
            shown = safe_text(str(key))
            raise MalformedDocument(shown, f"{shown}: unknown key; allowed keys: {', '.join(keys)}")
    check_tree(raw)  # the text rule (rules/text.py) for every key and string, path named
    for key in required:
        if key not in raw:
            raise MalformedDocument(key, f"{key}: is required")
    if raw["format"] != expected_format:
        raise MalformedDocument(
            "format",
            f"format: {describe(raw['format'])} is not supported; use {expected_format!r}",
        )
    slug = raw["ruleset"]
    known = slugs()
    if not isinstance(slug, str) or slug not in known:
        raise MalformedDocument(
            "ruleset", f"ruleset: {describe(slug)} is not one of {', '.join(known)}"
        )
    return slug


def no_lists(ruleset: str) -> Mapping[str, Mapping[str, Any]]:
    return {}


def list_revisions(raw: Mapping[str, Any]) -> dict[str, int]:
    """The optional ``list_revisions`` of a document: {list slug: revision number} of lists
    the army reads (its ``army_list``, its units' ``ally``), as exported; MalformedDocument
    naming the path otherwise. The army is not changed by it: the web layer pins to it."""
    value = raw.get("list_revisions")
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise MalformedDocument(
            "list_revisions",
            f"list_revisions: must be an object of list slug to revision number, "
            f"not {describe(value)}",
        )
    units = raw.get("units")
    read = {raw.get("army_list")} | {
        u.get("ally") for u in (units if isinstance(units, list) else ()) if isinstance(u, Mapping)
    }
    found = {}
    for slug, number in value.items():
        path = f"list_revisions.{safe_text(str(slug))}"
        if slug not in read:
            raise MalformedDocument(
                path,
                f"{path}: the army reads no list {describe(slug)}; name only its army_list "
                "or a unit's ally",
            )
        parsed = parse_value(_REVISION, number, path)
        if parsed is None:
            raise MalformedDocument(path, f"{path}: a revision number of at least 1")
        found[str(slug)] = int(parsed)
    return found


def parse_document(raw: Any, lists: ListLookup = no_lists) -> Army:
    """Parse and normalise a document, or raise MalformedDocument naming the path."""
    slug = read_head(
        raw, what="document", keys=_TOP_KEYS, required=_REQUIRED, expected_format=FORMAT
    )
    name = parse_value(_NAME, raw["name"], "name")
    ruleset = get_ruleset(slug)

    army_list = raw.get("army_list")
    list_revisions(raw)  # checked here so every interface refuses the same mistakes
    list_data = None
    available = lists(slug)
    if army_list is not None:
        if not isinstance(army_list, str) or army_list not in available:
            named = list_names(available)
            names = ", ".join(sorted(named.get(s) or s for s in available)) or "none yet"
            raise MalformedDocument(
                "army_list",
                f"army_list: {describe(army_list)} is not an army list of {ruleset.title}; "
                f"known lists: {names}",
            )
        list_data = available[army_list]

    points_limit = parse_value(_POINTS_LIMIT, raw.get("points_limit"), "points_limit")
    if points_limit is not None and not ruleset.uses_points:
        raise MalformedDocument(
            "points_limit", f"points_limit: {slug} has no points, so it must be null"
        )

    options = parse_object(
        ruleset.options, _without_retired(ruleset, raw.get("options", {})), "options"
    )

    generals_raw = raw.get("generals", [])
    if not isinstance(generals_raw, list):
        raise MalformedDocument(
            "generals", f"generals: must be a list, not {describe(generals_raw)}"
        )
    if generals_raw and not ruleset.has_generals:
        raise MalformedDocument(
            "generals", f"generals: {slug} has no generals; leave the list empty"
        )
    if len(generals_raw) > MAX_GENERALS:
        raise MalformedDocument("generals", f"generals: at most {MAX_GENERALS} generals")
    seen: dict[str, str] = {}  # id -> the path of the item holding it
    generals, general_ids = [], []
    for i, g in enumerate(generals_raw):
        path = f"generals[{i}]"
        general_ids.append(_item_id(g, path, seen))
        g = _without_id(g)
        parsed = parse_object(ruleset.general_fields, g, path, what="a general (an object)")
        generals.append(ruleset.normalise_general(parsed, options, path))

    units_raw = raw["units"]
    if not isinstance(units_raw, list):
        raise MalformedDocument("units", f"units: must be a list, not {describe(units_raw)}")
    if len(units_raw) > MAX_UNITS:
        raise MalformedDocument(
            "units", f"units: {len(units_raw)} units; an army has at most {MAX_UNITS}"
        )
    options_key = memo.digest(options)  # a unit parses the same way in the same options
    unit_ids = [_item_id(u, f"units[{i}]", seen) for i, u in enumerate(units_raw)]
    units = [
        _parse_unit(ruleset, options, options_key, _without_id(u), i)
        for i, u in enumerate(units_raw)
    ]

    notes = parse_value(_NOTES, raw.get("notes", ""), "notes")
    if notes is None:
        notes = ""
    army = Army(
        name=name,
        ruleset=slug,
        army_list=army_list,
        points_limit=points_limit,
        options=options,
        generals=tuple(generals),
        units=tuple(units),
        notes=notes,
        list_data=list_data,
        ruleset_lists=available,
        list_names=list_names(available),
        list_families=list_families(available),
        unit_ids=tuple(unit_ids),
        general_ids=tuple(general_ids),
    )
    return ruleset.normalise_army(army)


def _item_id(raw: Any, path: str, seen: dict[str, str]) -> str | None:
    """A unit's or general's optional ``id``: a short string of letters, digits, ``-`` and
    ``_``, held by no other unit or general of the army (``seen`` gathers them)."""
    if not isinstance(raw, Mapping) or "id" not in raw:
        return None
    value = raw["id"]
    id_path = f"{path}.id"
    if not isinstance(value, str) or not ID_PATTERN.fullmatch(value):
        raise MalformedDocument(
            id_path,
            f"{id_path}: {describe(value)} is not an id; an id is 1 to 32 letters, digits, "
            "'-' or '_' (or leave it out: one is given)",
        )
    if value in seen:
        raise MalformedDocument(
            id_path,
            f"{id_path}: {value!r} is already the id of {seen[value]}; each unit and "
            "general of an army has its own id",
        )
    seen[value] = path
    return value


def _without_id(raw: Any) -> Any:
    """The item as the rule set reads it: every key but its ``id``."""
    if isinstance(raw, Mapping) and "id" in raw:
        return {k: v for k, v in raw.items() if k != "id"}
    return raw


def new_id(taken: set[str] | frozenset[str] = frozenset()) -> str:
    """A fresh item id, none of ``taken``: random, so an id an army once held (a unit
    deleted since) is not given again (one chance in 10**12)."""
    while True:
        found = "".join(secrets.choice(_ID_ALPHABET) for _ in range(_ID_LENGTH))
        if found not in taken:
            return found


def item_ids(document: Mapping[str, Any]) -> set[str]:
    """Every id the document's units and generals hold."""
    found = set()
    for kind in ("units", "generals"):
        items = document.get(kind)
        for item in items if isinstance(items, list) else ():
            if isinstance(item, Mapping) and isinstance(item.get("id"), str):
                found.add(item["id"])
    return found


def with_ids(document: Any) -> Any:
    """``document`` with an ``id`` given to every unit and general that has none (the
    same object when all have one; else a copy, the items that had one shared). What an
    import, a new unit or a document from before ids were kept goes through before it is
    stored. Anything but a document object is returned as it is, for the parser to refuse."""
    if not isinstance(document, Mapping):
        return document
    missing = any(
        isinstance(item, Mapping) and "id" not in item
        for kind in ("units", "generals")
        if isinstance(document.get(kind), list)
        for item in document[kind]
    )
    if not missing:
        return document
    taken = item_ids(document)
    result = dict(document)
    for kind in ("units", "generals"):
        items = document.get(kind)
        if not isinstance(items, list):
            continue
        filled = []
        for item in items:
            if isinstance(item, Mapping) and "id" not in item:
                fresh = new_id(taken)
                taken.add(fresh)
                item = {"id": fresh, **item}
            filled.append(item)
        result[kind] = filled
    return result


def _without_retired(ruleset: RuleSet, raw: Any) -> Any:
    """The document's options without those the rule set retired (each still checked against
    its old field, so a stored army keeps parsing exactly as strictly as before)."""
    if not isinstance(raw, Mapping):
        return raw
    retired = tuple(f for f in ruleset.retired_options if f.name in raw)
    parse_object(retired, {f.name: raw[f.name] for f in retired}, "options")
    names = {f.name for f in retired}
    return {k: v for k, v in raw.items() if k not in names}


def _parse_unit(
    ruleset: RuleSet, options: Mapping[str, Any], options_key: str, raw: Any, index: int
) -> dict[str, Any]:
    path = f"units[{index}]"

    def parse() -> Any:
        parsed = parse_object(ruleset.unit_fields, raw, path, what="a unit (an object)")
        return ruleset.normalise_unit(parsed, options, path)

    return memo.parsed_unit(ruleset.slug, options_key, raw, parse)


def reparse_unit(previous: Army, raw: Any, index: int) -> Army | None:
    """``previous`` (a parsed army) with unit ``index`` parsed again from ``raw``: what
    ``parse_document`` gives for previous's document with that one unit replaced.

    Raises MalformedDocument for a unit the parser refuses (the full parse names the
    same unit; callers that need its exact message parse the whole document). None when
    the rule set's ``normalise_army`` replaces the army: then only a full parse is exact.
    """
    ruleset = get_ruleset(previous.ruleset)
    if not 0 <= index < len(previous.units):
        raise IndexError(index)
    check_tree(raw, f"units[{index}]")
    given = raw.get("id") if isinstance(raw, Mapping) else None
    if given != (previous.unit_ids[index] if index < len(previous.unit_ids) else None):
        return None  # the unit's id changed: only a full parse checks it against the others
    raw = _without_id(raw)
    unit = _parse_unit(ruleset, previous.options, memo.digest(previous.options), raw, index)
    units = (*previous.units[:index], unit, *previous.units[index + 1 :])
    army = replace(previous, units=units)
    return army if ruleset.normalise_army(army) is army else None


def canonical_order(document: Mapping[str, Any]) -> dict[str, Any]:
    """The same document with its keys in the format's and the vocabulary's order.

    Databases may store JSON objects with their keys in another order (PostgreSQL's
    jsonb does); a document a person downloads reads top to bottom as the format says.
    Nothing is checked or changed but the order.
    """
    try:
        ruleset = get_ruleset(str(document.get("ruleset")))
    except KeyError:
        ruleset = None

    def ordered(item: Any, keys: list[str]) -> Any:
        if not isinstance(item, Mapping):
            return item
        rank = {key: n for n, key in enumerate(keys)}
        return {k: item[k] for k in sorted(item, key=lambda k: (rank.get(k, len(rank)), k))}

    result = ordered(document, list(_TOP_KEYS))
    if ruleset is not None:
        if "options" in result:
            result["options"] = ordered(result["options"], [f.name for f in ruleset.options])
        for key, fields in (("units", ruleset.unit_fields), ("generals", ruleset.general_fields)):
            if isinstance(result.get(key), list):
                names = ["id", *(f.name for f in fields)]
                result[key] = [ordered(item, names) for item in result[key]]
    return result
