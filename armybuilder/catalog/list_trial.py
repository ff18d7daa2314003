""" "Try it": a real sample army built from a list as a player would build it from the
builder's tiles, checked like any army, so an author sees its points and every problem.

Each entry gives the units its minimum asks for; then entries are taken one unit at a
time, in the list's order, while a unit more makes the army better (fewer errors, then
fewer warnings, such as too few units) and the entry allows it, every optional entry
(a choice group's option) once when that adds no error, and a unit is taken back where that ends an
error. The army is the one ``rules.check_document`` checks everywhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import rules
from armybuilder.catalog import services
from armybuilder.catalog.models import ArmyList
from rules.list_document import ListDocument

ROUNDS = 3  # passes over the entries adding one unit each
MOST_UNITS = 30


@dataclass(frozen=True)
class Trial:
    units: tuple[tuple[str, int], ...]  # (entry, how many units of it)
    points: int | None
    errors: tuple[str, ...]
    warnings: tuple[str, ...]
    broken: str = ""  # the list cannot make an army at all (why)


def _check(
    ruleset: rules.RuleSet, listed: ListDocument, units: list[dict[str, Any]]
) -> rules.Report:
    raw = {
        "format": rules.FORMAT,
        "name": f"Try-out army of {listed.name}",
        "ruleset": ruleset.slug,
        "army_list": listed.slug,
        "units": units,
    }
    return services.check_with_list_document(raw, listed)[1]


def try_list(ruleset: rules.RuleSet, army_list: ArmyList) -> Trial:
    data = army_list.data if isinstance(army_list.data, dict) else {}
    listed = ListDocument(ruleset.slug, army_list.slug, army_list.name, army_list.period, "", data)
    try:
        entries = ruleset.list_entries(data, None)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:  # a list mid-edit
        return Trial((), None, (), (), f"the list cannot make an army yet ({exc})")
    counts = [entry.minimum for entry in entries]

    def units() -> list[dict[str, Any]]:
        return [dict(e.values) for e, n in zip(entries, counts, strict=True) for _ in range(n)]

    def score(report: rules.Report) -> tuple[int, int]:
        return len(report.errors), len(report.warnings)

    try:
        report = _check(ruleset, listed, units())
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
                tried = _check(ruleset, listed, units())
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
                tried = _check(ruleset, listed, units())
                if len(tried.errors) < len(report.errors):
                    report, grew = tried, True
                else:
                    counts[n] += 1
            if not grew:
                break
    except rules.MalformedDocument as exc:
        return Trial((), None, (), (), exc.message)
    return Trial(
        units=tuple((e.label, c) for e, c in zip(entries, counts, strict=True) if c),
        points=report.total_points,
        errors=tuple(i.message for i in report.errors),
        warnings=tuple(i.message for i in report.warnings),
    )
