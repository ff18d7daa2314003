"""When a value a command was made from moved on: the conflict, with both values.

A ``set`` made from a value (the page sends ``from``: what its control was drawn with)
is refused with ``FieldConflict`` when the army's value is no longer that one and is not
the one the command sets (``commands.check_conflict``; an undo checks its own): another
tab or device changed the same field. The player then chooses (keep mine, take theirs).
A command made from no value (``UNSET``) never conflicts. The operations, the commands,
Undo and the builder's forms all speak of a conflict in these words.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from armybuilder.armies.field_values import shown
from armybuilder.armies.models import Army

UNSET: Any = object()  # a command made from no value: it never conflicts

# an army setting's name as a player reads it (options are named by their own label)
SETTINGS = {
    "name": "Army name",
    "army_list": "Army list",
    "points_limit": "Points limit",
    "notes": "Notes",
}


@dataclass(eq=False)  # not frozen: raising through a context manager sets __traceback__
class FieldConflict(Exception):
    """The field changed since the command was made from it: both values, for a choice."""

    army: Army
    field: str
    label: str
    theirs: Any
    yours: Any

    @property
    def theirs_text(self) -> str:
        return shown(self.theirs)

    @property
    def yours_text(self) -> str:
        return shown(self.yours)

    @property
    def theirs_json(self) -> str:
        return json.dumps(self.theirs)
