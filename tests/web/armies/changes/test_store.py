"""Commands read through the unit of work they are given (``store.ArmyStore``): run
against a store of the test's own, with no database, they answer from it alone; the
pipeline hands its store to the command it runs."""

from collections.abc import Callable, Mapping
from typing import Any

import pytest

import rules
from armybuilder.armies import services
from armybuilder.armies.changes import commands, pipeline
from armybuilder.armies.changes.conflicts import FieldConflict
from armybuilder.armies.history import rewind
from armybuilder.armies.history.revisions import HistoryMissing
from armybuilder.armies.models import Army, Revision
from tests.support import army

FYRD = {"id": "fyrd0001", "name": "Fyrd", "figures": 20}


class FakeStore:
    """A unit of work held in memory: what each read answers is set by the test."""

    def __init__(self, **answers: Any) -> None:
        self.answers = answers
        self.asked: list[str] = []

    def _answer(self, name: str) -> Any:
        self.asked.append(name)
        return self.answers[name]

    def list_data(self, army: Army, slug: Any) -> Mapping[str, Any] | None:
        return self._answer("list_data")

    def parsed(self, army: Army) -> rules.Army | None:
        return self._answer("parsed")

    def list_namer(self, army: Army, ruleset: str) -> Callable[[str], str]:
        names = self._answer("list_names")
        return lambda slug: names.get(slug, "an army list no longer in Muster")

    def document_at(self, army: Army, version: int) -> dict[str, Any]:
        found = self._answer("documents")
        if version not in found:
            raise HistoryMissing(f"no version {version}")
        return found[version]

    def undoable(self, army: Army, pk: int | None) -> Revision | None:
        return self._answer("undoable")

    def in_effect_since(self, army: Army, revision: Revision) -> bool:
        return self._answer("in_effect_since")


def unsaved(units: list[dict[str, Any]], version: int = 3, **top: Any) -> Army:
    """An army never stored: any query about it would fail the test (no database)."""
    return Army(pk=None, document=army("into-the-dark", units, **top), version=version)


def test_restoring_a_version_takes_the_document_the_store_keeps():
    old = army("into-the-dark", [{**FYRD, "figures": 12}])
    store = FakeStore(documents={1: old})
    result = rewind.RestoreVersion(1)(unsaved([FYRD]), store)
    assert result.document == old and store.asked == ["documents"]
    with pytest.raises(HistoryMissing):
        rewind.RestoreVersion(2)(unsaved([FYRD]), store)


def test_undo_takes_back_the_revision_the_store_offers():
    made = Revision(
        version=3, kind=Revision.FIELD, target="units", index=0, item_id="fyrd0001",
        field="figures", before=12, after=20, summary="Fyrd: Figures 12 → 20",
    )  # fmt: skip
    result = rewind.Undo()(unsaved([FYRD]), FakeStore(undoable=made))
    assert result.document["units"][0]["figures"] == 12
    assert result.note.summary == "Undid: Fyrd: Figures 12 → 20"


def test_undo_is_refused_as_a_conflict_when_the_value_moved_on_since():
    made = Revision(
        version=2, kind=Revision.FIELD, target="units", index=0, item_id="fyrd0001",
        field="figures", before=12, after=16, summary="Fyrd: Figures 12 → 16",
    )  # fmt: skip
    with pytest.raises(FieldConflict) as refused:
        rewind.Undo()(unsaved([FYRD]), FakeStore(undoable=made))
    assert (refused.value.theirs, refused.value.yours) == (20, 12)


def test_undo_with_nothing_the_store_offers_is_refused():
    with pytest.raises(rewind.NothingToUndo):
        rewind.Undo()(unsaved([FYRD]), FakeStore(undoable=None))


def test_a_whole_document_undo_asks_the_store_whether_a_later_change_still_counts():
    made = Revision(
        version=2, kind=Revision.SNAPSHOT, op="delete", target="units", index=1,
        document=army("into-the-dark", [FYRD, {"id": "gone0001", "name": "Thegns"}]),
        summary="Deleted Thegns",
    )  # fmt: skip
    with pytest.raises(rewind.NothingToUndo):
        rewind.Undo()(unsaved([FYRD]), FakeStore(undoable=made, in_effect_since=True))
    result = rewind.Undo()(unsaved([FYRD]), FakeStore(undoable=made, in_effect_since=False))
    assert [u["name"] for u in result.document["units"]] == ["Fyrd", "Thegns"]


def test_changing_the_army_list_names_both_lists_as_the_store_names_them():
    store = FakeStore(list_names={"old-list": "Old List", "new-list": "New List"})
    change = commands.SetValue("army", "army_list", "new-list")
    result = change(unsaved([FYRD], army_list="old-list"), store)
    assert result.document["army_list"] == "new-list"
    assert result.note.summary == "Army list: Old List → New List"


def test_a_preset_unit_is_made_from_the_list_data_the_store_reads():
    store = FakeStore(list_data=None)
    result = commands.Add("units", "blank")(unsaved([FYRD]), store)
    assert len(result.document["units"]) == 2 and store.asked == ["list_data"]


def test_the_pipeline_runs_its_command_with_the_store_it_is_given(user):
    saved = services.create_army(
        army("into-the-dark", [{"name": "Fyrd", "figures": 12}]), owner=user
    )
    kept = army("into-the-dark", [{**saved.document["units"][0], "figures": 30}])
    checked = pipeline.run(saved, rewind.RestoreVersion(1), store=FakeStore(documents={1: kept}))
    assert checked.army.document["units"][0]["figures"] == 30
    assert Army.objects.get(pk=saved.pk).version == 2
