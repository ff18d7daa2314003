"""bench/builder.py measures the builder's open, an add and a field edit, and prints them."""

import pytest

from bench import builder


@pytest.mark.django_db
def test_the_builder_table_has_an_open_an_add_and_an_edit_row_per_size(monkeypatch):
    monkeypatch.setattr(builder, "SIZES", (1, 4))
    monkeypatch.setattr(builder, "GOAL_UNITS", 4)
    monkeypatch.setattr(builder, "OPENS", 2)
    monkeypatch.setattr(builder, "ANSWERS", 1)
    monkeypatch.setattr(builder, "WARM_UP", 1)
    result = builder.run()
    cases = [(row["case"], row["units"]) for row in result["rows"]]
    assert cases == [
        ("floor: minimal view", ""),
        ("builder open", 1),
        ("builder open", 4),
        ("add a unit", 1),
        ("add a unit", 4),
        ("a field edit's answer", 1),
        ("a field edit's answer", 4),
    ]
    opened = {row["units"]: row for row in result["rows"] if row["case"] == "builder open"}
    assert opened[4]["KB"] > opened[1]["KB"] > 0
    assert opened[4]["queries"] == opened[1]["queries"]  # no query per unit
    assert result["notes"][0].startswith("goal, builder open for 4 units: <= 50 ms")
