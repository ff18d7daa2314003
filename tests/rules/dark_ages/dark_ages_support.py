"""Helpers the Dark Ages tests share: units, checking an army, the shared list cases."""

from typing import Any

import rules
from tests.support import army, fixture_lists


def unit(name: str, type_: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "type": type_, **fields}


def report_for(ruleset: str, units: list[dict[str, Any]], **top: Any) -> rules.Report:
    """The report of an army of ``ruleset``, its army lists read from fixtures/."""
    return rules.check_document(army(ruleset, units, **top), fixture_lists)[1]


def codes(report: rules.Report) -> list[str]:
    return [i.code for i in report.issues]


def anglo_saxon_choice_cases() -> dict[str, tuple[list[dict[str, Any]], dict[str, Any]]]:
    """The list-machinery check cases both rule sets' anglo-saxon lists raise alike."""
    return {
        "choice-not-allowed": (
            [*(unit(f"Fyrd {i}", "infantry") for i in range(5)), unit("Horse", "cavalry")],
            {"army_list": "anglo-saxon"},
        ),
        "too-many-of-choice": (
            [
                *(unit(f"Fyrd {i}", "infantry") for i in range(4)),
                unit("Bows 1", "skirmishers", missile="bow"),
                unit("Bows 2", "skirmishers", missile="bow"),
            ],
            {"army_list": "anglo-saxon"},
        ),
    }
