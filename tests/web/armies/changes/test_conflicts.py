"""A command made from a value the army no longer holds is a conflict the player settles,
unless it changes nothing or was made from no value; both values read as words."""

from __future__ import annotations

import pytest

from armybuilder.armies.changes.commands import check_conflict
from armybuilder.armies.changes.conflicts import UNSET, FieldConflict
from armybuilder.armies.field_values import shown
from armybuilder.armies.models import Army


def test_a_field_changed_since_the_command_was_made_is_a_conflict_with_both_values():
    army = Army(document={"name": "Mine"})
    with pytest.raises(FieldConflict) as raised:
        check_conflict(army, "name", "Name", made_from="Old", old="Theirs", new="Yours")
    conflict = raised.value
    assert conflict.army is army
    assert (conflict.field, conflict.label) == ("name", "Name")
    assert (conflict.theirs_text, conflict.yours_text) == ("Theirs", "Yours")
    assert conflict.theirs_json == '"Theirs"'


@pytest.mark.parametrize(
    ("made_from", "old", "new"),
    [
        ("Same", "Same", "New"),  # nobody else changed it
        ("Old", "Theirs", "Theirs"),  # the army already holds what the command sets
        (UNSET, "Theirs", "Yours"),  # made from no value
    ],
)
def test_no_conflict_when_nothing_is_lost(made_from, old, new):
    assert check_conflict(Army(), "name", "Name", made_from, old, new) is None


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (None, "(empty)"),
        ("", "(empty)"),
        (True, "yes"),
        (False, "no"),
        ([], "(none)"),
        (["a", 2], "a, 2"),
        ({"bows": 2}, "bows 2"),
        (600, "600"),
    ],
)
def test_a_value_is_shown_as_a_player_reads_it(value, words):
    assert shown(value) == words
