"""The words a unit's card and the picker show, worked out from a checked army.

One copy for both drawings: the server's builder (``armies.builder.presenters``) and the
page's engine (``rules.page.builder``, in the browser's worker) call these, so a card says
the same thing whichever drew it. Plain Python, no Django.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from rules.base import Army, Issue, RuleSet

ITEM = {"units": "unit", "generals": "general"}
# the choice fields whose labels say what kind of unit it is, in this order
DESCRIBING = ("type", "arm", "class", "quality", "density", "armour", "rating")
# a choice label's own count of hits ("Standard (15 hits)"): the stat line's count, which
# follows every change (an upgrade, an advantage), is said instead
LABEL_HITS = re.compile(r"\s*\(\d+ (?:hits|casualties)\)")
LEADING_NUMBER = re.compile(r"\s*(\d+)")


def stat_items(stats: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """A unit's stat line as (label, value) pairs, in the rule set's order."""
    return tuple(
        (str(key).replace("_", " "), "" if value is None else str(value))
        for key, value in stats.items()
    )


def hits_of(stats: Mapping[str, Any] | None) -> int | None:
    """The hits the stat line gives the unit (its leading number), or None."""
    found = LEADING_NUMBER.match(str((stats or {}).get("hits") or ""))
    return int(found.group(1)) if found else None


def descriptor(
    ruleset: RuleSet, kind: str, item: Mapping[str, Any], stats: Mapping[str, Any] | None = None
) -> str:
    """The unit's kind in a few words, from its choice fields (labels, not codes), and the
    hits its stat line gives it (``stats``) where the rule set counts hits."""
    fields = ruleset.unit_fields if kind == "units" else ruleset.general_fields
    hits = hits_of(stats)
    words = []
    for f in fields:
        if f.name in DESCRIBING and f.kind == "choice":
            value = item.get(f.name)
            label = next((c.label for c in f.choices if c.value == value), None)
            if label and hits is not None:
                label = LABEL_HITS.sub("", label)
            if label:
                words.append(label)
    if item.get("mounted") is True:
        words.append("mounted")
    if item.get("dismounted") is True:
        words.append("dismounted")
    if hits is not None:
        words.append(f"{hits} hits")
    return " · ".join(words)


def size_text(item: Mapping[str, Any]) -> str:
    """ "24 figures", "4 stands", or "" for a unit that counts neither."""
    if isinstance(item.get("stands"), int):
        n = item["stands"]
        return f"{n} stand{'s' if n != 1 else ''}"
    if isinstance(item.get("figures"), int):
        n = item["figures"]
        return f"{n} figure{'s' if n != 1 else ''}"
    return ""


def item_anchor(kind: str, item_id: str, index: int) -> str:
    """The element id of a unit's card: ``unit-<its id>`` (its place only for an item
    without an id, which a stored army never has)."""
    return f"{ITEM[kind]}-{item_id or index}"


def issue_place(
    army: Army, issue: Issue, unit_ids: Sequence[str | None], general_ids: Sequence[str | None]
) -> tuple[str, str]:
    """Where a problem points: the anchor of its unit's (or general's) card, e.g.
    ``#unit-ab12cd34``, and that item in words, "Knights (unit 3)"; ("", "") for the army."""
    for kind, at, items, ids in (
        ("units", issue.unit, army.units, unit_ids),
        ("generals", issue.general, army.generals, general_ids),
    ):
        if at is not None and 0 <= at < len(items):
            item_id = (ids[at] if at < len(ids) else None) or ""
            href = f"#{item_anchor(kind, item_id, at)}"
            return href, f"{items[at]['name']} ({ITEM[kind]} {at + 1})"
    return "", ""


def entry_counts(
    *,
    still_required: int,
    remaining: int | None,
    have: int,
    replaces: str = "",
    nothing_to_replace: bool = False,
) -> str:
    """How many more of a list entry the list requires or allows, in words."""
    if nothing_to_replace:
        return f"no {replaces} to replace"
    if still_required:
        return f"{still_required} more required"
    if remaining is None:
        return f"{have} taken" if have else ""
    if remaining == 0:
        return "list maximum reached"
    return f"up to {remaining} more"


def entry_dom_id(preset_key: str) -> str:
    """The element id of a picker tile, from its preset (``entry:<key>``)."""
    return "entry-" + "".join(ch if ch.isalnum() else "-" for ch in preset_key[6:])


def total_words(
    *, units: int, valid: bool, errors: int, warnings: int, total: int | None, limit: int | None
) -> dict[str, Any]:
    """The totals panel in words: the verdict's badge, the problems' count, and (with a
    points limit) the share of it used and the points left or over."""
    verdict = "No units yet" if not units and valid else ("Legal" if valid else "Illegal")
    words: dict[str, Any] = {
        "verdict": verdict,
        "verdict_class": "" if verdict == "No units yet" else ("legal" if valid else "illegal"),
        "problems": f"{errors} error{'s' if errors != 1 else ''}, "
        f"{warnings} warning{'s' if warnings != 1 else ''}",
        "units_text": f"{units} unit{'s' if units != 1 else ''}",
        "percent": 0,
        "left": "",
        "over": False,
    }
    if total is not None and limit:
        words["percent"] = min(100, round(100 * total / limit))
        over = total - limit
        words["over"] = over > 0
        if over > 0:
            words["left"] = f"{over} point{'s' if over != 1 else ''} over the limit"
        else:
            words["left"] = f"{-over} point{'s' if -over != 1 else ''} left"
    return words


def problem_mark(count: int) -> str:
    """A card's mark when it has errors: "✗ 2 problems"."""
    return f"✗ {count} problem{'s' if count != 1 else ''}"


def matrix_words(rows: Sequence[int] | None) -> str:
    """Which rows of its force matrix the army fits, in words ("" without a matrix)."""
    if rows is None:
        return ""
    if not rows:
        return "Fits no force-matrix row"
    return f"Fits force-matrix row{'s' if len(rows) != 1 else ''} {', '.join(str(r) for r in rows)}"


def called_units(units: Sequence[Any]) -> list[str]:
    """What each unit of an army is called wherever it is shown (the builder's cards, the
    order of battle, a game's cards, pickers and log): its name, numbered when other units
    have it too (``numbered_names``)."""
    return numbered_names([str(u.get("name", "")) if isinstance(u, Mapping) else "" for u in units])


def numbered_names(names: Sequence[str]) -> list[str]:
    """Names that tell units apart: a name two or more units share is numbered in the
    army's order ("Fyrd shieldwall 1", "Fyrd shieldwall 2"), skipping a number whose name
    another unit has already; a name of its own stays as it is. A shared name that ends in
    a number already is numbered in brackets ("Hirdmen 1 (2)", not "Hirdmen 1 2"). Names
    are compared as a player reads them (case and runs of spaces aside)."""

    def said(name: str) -> str:
        return " ".join(name.split()).casefold()

    def numbered(name: str, number: int) -> str:
        return f"{name} ({number})" if name.rstrip()[-1:].isdigit() else f"{name} {number}"

    counts: dict[str, int] = {}
    for name in names:
        counts[said(name)] = counts.get(said(name), 0) + 1
    taken = set(counts)
    last: dict[str, int] = {}
    found = []
    for name in names:
        key = said(name)
        if counts[key] == 1 or not key:  # a blank name has nothing to number
            found.append(name)
            continue
        number = last.get(key, 0) + 1
        while said(numbered(name, number)) in taken:
            number += 1
        last[key] = number
        taken.add(said(numbered(name, number)))
        found.append(numbered(name, number))
    return found
