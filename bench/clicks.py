"""Clicks (and keystrokes) a player spends on common builder actions.

Measured by the browser journeys (tests/browser/test_builder_journeys.py), which write
test-artifacts/clicks.json as they go: run ``pytest tests/browser`` first. Nothing is
measured here; this prints what the browser recorded, one row per action and rule set.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

TITLE = "Clicks per common action, as the browser tests performed them"
SOURCE = Path(__file__).resolve().parent.parent / "test-artifacts" / "clicks.json"


def rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    table = []
    for action in sorted(data):
        for ruleset, count in sorted(data[action].items()):
            table.append(
                {
                    "action": action,
                    "rule set": ruleset,
                    "clicks": count.get("clicks", 0),
                    "keystrokes": count.get("keys", 0),
                }
            )
    return table


def run() -> dict[str, Any]:
    if not SOURCE.exists():
        return {
            "title": TITLE,
            "rows": [],
            "notes": [f"{SOURCE} is missing: run `.venv/bin/pytest tests/browser` first."],
        }
    return {
        "title": TITLE,
        "rows": rows(json.loads(SOURCE.read_text(encoding="utf-8"))),
        "notes": ["Measured by tests/browser/test_builder_journeys.py (Debian Chromium)."],
    }
