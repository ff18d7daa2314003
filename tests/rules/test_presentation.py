"""Words the cards show: units that share a name are numbered so a player tells them apart."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rules.presentation import numbered_names


def test_units_of_one_name_are_numbered_in_the_armys_order_and_others_keep_theirs():
    names = ["Fyrd shieldwall", "Thegns", "Fyrd shieldwall", "fyrd  shieldwall", "Archers"]
    assert numbered_names(names) == [
        "Fyrd shieldwall 1", "Thegns", "Fyrd shieldwall 2", "fyrd  shieldwall 3", "Archers",
    ]  # fmt: skip


def test_a_number_another_unit_is_named_with_is_skipped():
    assert numbered_names(["Spears", "Spears", "Spears 1"]) == ["Spears 2", "Spears 3", "Spears 1"]


def test_a_shared_name_ending_in_a_number_is_numbered_in_brackets():
    names = ["Hirdmen 1", "Hirdmen 1", "Hirdmen 1 (1)", "Bondi 2"]
    assert numbered_names(names) == ["Hirdmen 1 (2)", "Hirdmen 1 (3)", "Hirdmen 1 (1)", "Bondi 2"]


NAMES = ["A", "A 1", "A 2", "a", "B", "B 1 1", "B 1", "B 1 (1)", "B 1 (2)"]


@given(st.lists(st.sampled_from(NAMES), max_size=12))
def test_every_unit_ends_with_a_name_of_its_own(names):
    found = numbered_names(names)
    assert len(found) == len(names)
    assert len({" ".join(n.split()).casefold() for n in found}) == len(found)
    for before, after in zip(names, found, strict=True):
        assert after == before or after.startswith(before + " ")


def test_units_are_called_by_their_name_numbered_among_units_of_that_name():
    from rules.presentation import called_units

    units = [{"name": "Fyrd"}, {"name": "Hird"}, {"name": " fyrd"}, {"name": ""}, {"name": ""}]
    assert called_units(units) == ["Fyrd 1", "Hird", " fyrd 2", "", ""]
