"""bench/clicks.py prints the clicks the browser journeys recorded."""

import json

from bench import clicks


def test_the_clicks_table_has_one_row_per_action_and_rule_set(tmp_path, monkeypatch):
    source = tmp_path / "clicks.json"
    source.write_text(
        json.dumps(
            {
                "add a list unit": {"feudal-2017": {"clicks": 1, "keys": 0}},
                "add a unit by keyboard": {"into-the-dark": {"clicks": 0, "keys": 4}},
            }
        )
    )
    monkeypatch.setattr(clicks, "SOURCE", source)
    result = clicks.run()
    assert result["rows"] == [
        {"action": "add a list unit", "rule set": "feudal-2017", "clicks": 1, "keystrokes": 0},
        {"action": "add a unit by keyboard", "rule set": "into-the-dark", "clicks": 0,
         "keystrokes": 4},
    ]  # fmt: skip


def test_without_a_browser_run_the_table_says_how_to_make_one(tmp_path, monkeypatch):
    monkeypatch.setattr(clicks, "SOURCE", tmp_path / "missing.json")
    result = clicks.run()
    assert result["rows"] == [] and "pytest tests/browser" in result["notes"][0]
