"""What a command reads besides the army it changes: the unit of work it is given.

A command (``commands``, ``history.rewind``) is called with the army as the pipeline read
it and an ``ArmyStore``: every other read it makes (the army's lists, their names, the
document at an earlier version, the revisions Undo takes back) goes through the store,
never a query of its own. The pipeline passes ``DATABASE``, which reads the database;
a test passes a store of its own and runs a command with no database at all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

import rules
from armybuilder.armies import presets
from armybuilder.armies.history import revisions
from armybuilder.armies.models import Army, Revision


class ArmyStore(Protocol):
    """The reads a command may make (each may query; none writes)."""

    def list_data(self, army: Army, slug: Any) -> Mapping[str, Any] | None:
        """The data of the army list ``slug`` of the army's rule set (None: no such list)."""
        ...

    def parsed(self, army: Army) -> rules.Army | None:
        """The army as the engine reads it against its pinned lists (None: it does not read)."""
        ...

    def list_namer(self, army: Army, ruleset: str) -> Callable[[str], str]:
        """How the army names a list of ``ruleset`` (its pinned revision's name)."""
        ...

    def document_at(self, army: Army, version: int) -> dict[str, Any]:
        """The army's document at ``version`` (``revisions.HistoryMissing``: not kept)."""
        ...

    def undoable(self, army: Army, pk: int | None) -> Revision | None:
        """The revision ``pk`` if it can still be undone, else (no ``pk``) the newest one."""
        ...

    def in_effect_since(self, army: Army, revision: Revision) -> bool:
        """Whether a change made after ``revision`` still counts."""
        ...


class DatabaseStore:
    """The store the pipeline runs commands with: the database, read as it is now."""

    def list_data(self, army: Army, slug: Any) -> Mapping[str, Any] | None:
        return presets.list_data_of(army, slug)

    def parsed(self, army: Army) -> rules.Army | None:
        return presets.parsed_army(army)

    def list_namer(self, army: Army, ruleset: str) -> Callable[[str], str]:
        return revisions.list_namer(army, ruleset)

    def document_at(self, army: Army, version: int) -> dict[str, Any]:
        return revisions.document_at(army, version)

    def undoable(self, army: Army, pk: int | None) -> Revision | None:
        return revisions.undoable(army, pk)

    def in_effect_since(self, army: Army, revision: Revision) -> bool:
        return revisions.in_effect_since(army, revision)


DATABASE = DatabaseStore()
