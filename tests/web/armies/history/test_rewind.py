"""``rewind``: Undo takes back one change (a field's value, or the document from before a
whole-document change), refusing what later changes depend on; restores put back a kept
version or a named snapshot. Each runs through the pipeline like any other command."""

from __future__ import annotations

import pytest

from armybuilder.armies.changes import pipeline
from armybuilder.armies.changes.commands import Delete, SetValue
from armybuilder.armies.changes.conflicts import FieldConflict
from armybuilder.armies.history import rewind
from armybuilder.armies.history.revisions import HistoryMissing
from armybuilder.armies.models import Revision
from tests.web.armies.changes.test_operations import make


def run(saved, command):
    pipeline.run(saved, command)
    saved.refresh_from_db()


def test_undo_takes_back_the_newest_field_change_and_marks_it_undone(user):
    saved = make(user, 2)
    unit = saved.document["units"][0]["id"]
    run(saved, SetValue(unit, "figures", 6))
    changed = Revision.objects.get(army=saved, version=saved.version)
    run(saved, rewind.Undo())
    assert saved.document["units"][0]["figures"] == 12
    assert Revision.objects.get(pk=changed.pk).undone
    undo = Revision.objects.get(army=saved, version=saved.version)
    assert (undo.undo_of_id, undo.summary) == (changed.pk, f"Undid: {changed.summary}")


def test_undo_of_a_delete_puts_the_whole_army_back(user):
    saved = make(user, 3)
    before = saved.document
    run(saved, Delete(saved.document["units"][1]["id"]))
    run(saved, rewind.Undo())
    assert saved.document == before


def test_undo_with_nothing_to_undo_says_so(user):
    saved = make(user, 1)
    with pytest.raises(rewind.NothingToUndo) as raised:
        pipeline.run(saved, rewind.Undo())
    assert str(raised.value) == rewind.NOTHING


def test_undo_of_a_delete_with_later_changes_in_effect_is_refused(user):
    saved = make(user, 3)
    run(saved, Delete(saved.document["units"][0]["id"]))
    deleted = Revision.objects.get(army=saved, version=saved.version)
    run(saved, SetValue(saved.document["units"][0]["id"], "figures", 20))
    with pytest.raises(rewind.NothingToUndo) as raised:
        pipeline.run(saved, rewind.Undo(deleted.pk))
    assert str(raised.value) == rewind.SINCE


def test_undo_of_a_field_another_writer_changed_since_is_a_conflict_naming_the_unit(user):
    saved = make(user, 1)
    unit = saved.document["units"][0]
    run(saved, SetValue(unit["id"], "figures", 6))
    changed = Revision.objects.get(army=saved, version=saved.version)
    run(saved, SetValue(unit["id"], "figures", 9))
    with pytest.raises(FieldConflict) as raised:
        pipeline.run(saved, rewind.Undo(changed.pk))
    conflict = raised.value
    assert (conflict.theirs, conflict.yours) == (9, 12)
    assert conflict.label == f"{unit['name']}: Figures"
    # chosen anyway, made from the value the player was shown: it lands
    run(saved, rewind.Undo(changed.pk, made_from=9))
    assert saved.document["units"][0]["figures"] == 12


def test_restoring_a_version_makes_the_army_what_it_was_then(user):
    saved = make(user, 2)
    first = (saved.version, saved.document)
    run(saved, SetValue(saved.document["units"][0]["id"], "figures", 6))
    run(saved, Delete(saved.document["units"][1]["id"]))
    run(saved, rewind.RestoreVersion(first[0]))
    assert saved.document == first[1]
    restored = Revision.objects.get(army=saved, version=saved.version)
    assert (restored.op, restored.summary) == ("replace", f"Restored version {first[0]}")
    with pytest.raises(HistoryMissing):
        pipeline.run(saved, rewind.RestoreVersion(saved.version + 5))


def test_restoring_a_snapshot_puts_back_its_document_under_its_name(user):
    saved = make(user, 2)
    kept = saved.document
    run(saved, Delete(saved.document["units"][0]["id"]))
    run(saved, rewind.RestoreSnapshot("Before the cut", kept))
    assert saved.document == kept
    restored = Revision.objects.get(army=saved, version=saved.version)
    assert restored.summary == "Restored “Before the cut”"
