""" "Try it": a real sample army built from a list as a player would build it from the
builder's tiles, checked like any army, so an author sees its points and every problem.

Each entry gives the units its minimum asks for; then entries are taken one unit at a
time, in the list's order, while a unit more makes the army better (fewer errors, then
fewer warnings, such as too few units) and the entry allows it, every optional entry
(a choice group's option) once when that adds no error, and a unit is taken back where that
ends an error. The army is the one ``check_document`` checks everywhere else.

Plain Python over a ``ListDocument`` and a ListLookup, so the server's list editor
(``catalog/list_trial.py``) and the page's engine (``rules/page/lists.py``) try a list
with this one copy.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.base import NamedLists, Report, list_families, list_names
from rules.document import FORMAT, ListLookup
from rules.engine import check_document
from rules.errors import MalformedDocument
from rules.list_document import ListDocument
from rules.registry import get_ruleset

ROUNDS = 3  # passes over the entries adding one unit each
MOST_UNITS = 30


@dataclass(frozen=True)
class Trial:
    units: tuple[tuple[str, int], ...]  # (entry, how many units of it)
    points: int | None
    errors: tuple[str, ...]
    warnings: tuple[str, ...]
    broken: str = ""  # the list cannot make an army at all (why)

    def to_json(self) -> dict[str, Any]:
        """The trial as the page's engine answers it and the page carries the server's."""
        return {
            "units": [[label, count] for label, count in self.units],
            "points": self.points,
            "errors": list(self.errors),
            "warnings": list(self.warnings),
            "broken": self.broken,
        }


def lookup_with_list(lookup: ListLookup, listed: ListDocument) -> ListLookup:
    """``lookup`` where ``listed`` answers for its slug (its data, name and family) in its
    rule set: a list checked as it is being written, beside the rule set's other lists."""

    def with_list(ruleset: str) -> NamedLists:
        others = lookup(ruleset)
        found = NamedLists(others, list_names(others), list_families(others))
        if ruleset == listed.ruleset:
            found[listed.slug] = listed.data
            found.names[listed.slug] = listed.name
            if listed.family_slug != listed.slug:
                found.families[listed.slug] = listed.family_slug
        return found

    return with_list


def _check(lookup: ListLookup, listed: ListDocument, units: list[dict[str, Any]]) -> Report:
    raw = {
        "format": FORMAT,
        "name": f"Try-out army of {listed.name}",
        "ruleset": listed.ruleset,
        "army_list": listed.slug,
        "units": units,
    }
    return check_document(raw, lookup)[1]


def try_list(listed: ListDocument, lookup: ListLookup) -> Trial:
    """The sample army of ``listed`` checked with ``lookup``'s other lists of its rule set."""
    ruleset = get_ruleset(listed.ruleset)
    data: Mapping[str, Any] = listed.data if isinstance(listed.data, Mapping) else {}
    lookup = lookup_with_list(lookup, listed)
    try:
        entries = ruleset.list_entries(data, None)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:  # a list mid-edit
        return Trial((), None, (), (), f"the list cannot make an army yet ({exc})")
    counts = [entry.minimum for entry in entries]

    def units() -> list[dict[str, Any]]:
        return [dict(e.values) for e, n in zip(entries, counts, strict=True) for _ in range(n)]

    def score(report: Report) -> tuple[int, int]:
        return len(report.errors), len(report.warnings)

    try:
        report = _check(lookup, listed, units())
        for round_ in range(ROUNDS):
            if round_ and score(report) == (0, 0):
                break
            grew = False
            for n, entry in enumerate(entries):  # a unit more of each entry, in turn
                if sum(counts) >= MOST_UNITS:
                    break
                if entry.maximum is not None and counts[n] >= entry.maximum:
                    continue
                counts[n] += 1
                tried = _check(lookup, listed, units())
                # an optional entry (a choice group's option) is taken once when it adds no
                # error, so the sample shows the whole list
                optional = round_ == 0 and entry.minimum == 0
                no_worse = len(tried.errors) <= len(report.errors)  # a warning may come
                if score(tried) < score(report) or (optional and no_worse):
                    report, grew = tried, True
                else:
                    counts[n] -= 1
            for n, entry in enumerate(entries):  # a unit fewer, where that ends an error
                if counts[n] <= entry.minimum or sum(counts) <= 1:  # never an empty sample
                    continue
                counts[n] -= 1
                tried = _check(lookup, listed, units())
                if len(tried.errors) < len(report.errors):
                    report, grew = tried, True
                else:
                    counts[n] += 1
            if not grew:
                break
    except MalformedDocument as exc:
        return Trial((), None, (), (), exc.message)
    return Trial(
        units=tuple((e.label, c) for e, c in zip(entries, counts, strict=True) if c),
        points=report.total_points,
        errors=tuple(i.message for i in report.errors),
        warnings=tuple(i.message for i in report.warnings),
    )
