"""The combat form's input read back: the die (or dice) typed, the other numbers."""

from __future__ import annotations

import pytest

from armybuilder.games.presenters import read_dice, read_numbers
from armybuilder.games.services import Refused


def test_a_die_or_several_or_none_to_roll():
    assert read_dice("5") == (5,)
    assert read_dice(" 3 4, 6 ") == (3, 4, 6)
    assert read_dice("") is None


@pytest.mark.parametrize("typed", ["six", "-1", "3.5", "1e3", "99999"])
def test_a_die_that_is_not_a_number_is_refused_in_words(typed):
    with pytest.raises(Refused, match="Type the die as a number"):
        read_dice(typed)


def test_other_numbers_are_name_equals_number():
    assert read_numbers("figures=12, men=20") == {"figures": 12, "men": 20}
    for typed in ("figures", "figures=-1", "Figures=3", "figures=x"):
        with pytest.raises(Refused, match="name=number"):
            read_numbers(typed)
    with pytest.raises(Refused, match="from 0 to 10000"):
        read_numbers("figures=20000")
