"""``pipeline.run``: a command's document is checked and saved with its revision; a
command that changes nothing, or fails, writes nothing."""

from __future__ import annotations

import pytest

from armybuilder.armies.changes import pipeline
from armybuilder.armies.changes.commands import Result
from armybuilder.armies.changes.store import ArmyStore
from armybuilder.armies.history.revisions import RevisionNote
from armybuilder.armies.making.lifecycle import create_army
from armybuilder.armies.models import Army
from tests.web.events.helpers import list_army

pytestmark = pytest.mark.django_db


def renamed(name: str):
    def command(army: Army, store: ArmyStore) -> Result:
        return Result({**army.document, "name": name}, RevisionNote("Renamed", field="name"))

    return command


def test_a_commands_document_is_saved_with_its_revision_and_key(user):
    army = create_army(list_army("viking"), owner=user)
    before = army.version
    checked = pipeline.run(army, renamed("Stamford Bridge"), key="k-1")
    army.refresh_from_db()
    assert army.document["name"] == "Stamford Bridge"
    assert army.version == before + 1
    assert checked.revision is not None
    assert checked.revision.summary == "Renamed"
    assert army.revisions.filter(pk=checked.revision.pk).exists()


def test_a_command_that_changes_nothing_writes_nothing(user):
    army = create_army(list_army("viking"), owner=user)
    before = (army.version, army.revisions.count())
    checked = pipeline.run(army, lambda a, store: Result(None, RevisionNote("Nothing")))
    army.refresh_from_db()
    assert (army.version, army.revisions.count()) == before
    assert checked.army.pk == army.pk


def test_a_command_that_fails_saves_nothing(user):
    army = create_army(list_army("viking"), owner=user)
    before = (army.version, army.revisions.count())

    def failing(_: Army, store: ArmyStore) -> Result:
        raise LookupError("gone")

    with pytest.raises(LookupError):
        pipeline.run(army, failing)
    army.refresh_from_db()
    assert (army.version, army.revisions.count()) == before
