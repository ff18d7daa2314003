"""Tabs racing on one army: edits of different units all land, undo takes back only its
own change, and a page however old still finds its units."""

import pytest

from armybuilder.armies import services
from armybuilder.armies.changes import commands, pipeline
from armybuilder.armies.changes.conflicts import FieldConflict
from armybuilder.armies.models import Army, Revision
from tests.support import army, item_id, item_url, needs_database, race_on_a_sqlite_file
from tests.web.armies import edit_races
from tests.web.armies.edit_races import HX, field_change, undo_target


@pytest.mark.django_db(transaction=True)
def test_twenty_writers_on_different_units_all_land_on_postgresql(user):
    needs_database("postgresql")
    result = edit_races.writers_on_different_units(user)
    assert result == {"saved": 200, "refused": 0, "units_with_every_edit": 20, "version": 201}


def test_twenty_writers_on_different_units_all_landrace_on_a_sqlite_file(tmp_path):
    needs_database("sqlite")
    result = race_on_a_sqlite_file(tmp_path, "writers")
    assert result == {"saved": 200, "refused": 0, "units_with_every_edit": 20, "version": 201}


@pytest.mark.django_db(transaction=True)
def test_undo_raced_against_another_tabs_edit_never_loses_it_on_postgresql(user):
    needs_database("postgresql")
    result = edit_races.undo_against_another_tabs_edit(user, trials=100)
    assert result == {"trials": 100, "losses": 0, "undone": 100}


def test_undo_raced_against_another_tabs_edit_never_loses_itrace_on_a_sqlite_file(tmp_path):
    needs_database("sqlite")
    result = race_on_a_sqlite_file(tmp_path, "undo")
    assert result == {"trials": 100, "losses": 0, "undone": 100}


def _make(user, count: int = 4) -> Army:
    units = [{"name": f"Unit {i}", "quality": "levy"} for i in range(count)]
    return services.create_army(army("into-the-dark", units), owner=user)


def _figures(saved: Army) -> list[int]:
    saved.refresh_from_db()
    return [u["figures"] for u in saved.document["units"]]


def test_undo_takes_back_only_the_change_it_names_after_another_tabs_edit(owner_client, user):
    saved = _make(user)
    mine = field_change(owner_client, saved, 2, 30, 12)
    field_change(owner_client, saved, 3, 40, 12)  # another tab, on a page of version 1
    response = owner_client.post(
        f"/armies/{saved.pk}/undo/", {"revision": undo_target(mine)}, headers=HX
    )
    assert response.status_code == 200
    assert _figures(saved) == [12, 12, 12, 40]


def test_undo_follows_its_unit_after_another_tab_deleted_one_above_it(owner_client, user):
    saved = _make(user)
    mine = field_change(owner_client, saved, 2, 30, 12)
    owner_client.post(item_url(saved, 0, "units", "delete/"), {"version": 1}, headers=HX)
    owner_client.post(f"/armies/{saved.pk}/undo/", {"revision": undo_target(mine)}, headers=HX)
    saved.refresh_from_db()
    assert [(u["name"], u["figures"]) for u in saved.document["units"]] == [
        ("Unit 1", 12), ("Unit 2", 12), ("Unit 3", 12),
    ]  # fmt: skip


def test_undo_of_a_value_changed_since_offers_both_values_and_changes_nothing(owner_client, user):
    saved = _make(user)
    mine = field_change(owner_client, saved, 2, 30, 12)
    field_change(owner_client, saved, 2, 35, 30)  # another tab changed the same field since
    revision = undo_target(mine)
    response = owner_client.post(f"/armies/{saved.pk}/undo/", {"revision": revision}, headers=HX)
    body = response.content.decode()
    assert response.status_code == 409
    assert "changed somewhere else to 35" in body and "set it back to 12" in body
    assert "Undo anyway" in body and "Keep 35" in body
    assert _figures(saved) == [12, 12, 35, 12]
    anyway = {"revision": revision, "_from": "35"}
    assert owner_client.post(f"/armies/{saved.pk}/undo/", anyway, headers=HX).status_code == 200
    assert _figures(saved) == [12, 12, 12, 12]


def test_the_undo_button_without_javascript_names_the_latest_change_and_undoes_it(
    owner_client, user
):
    saved = _make(user)
    field_change(owner_client, saved, 1, 30, 12)
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    latest = Revision.objects.get(army=saved, version=2)
    assert f'name="revision" id="undo-revision" value="{latest.pk}"' in page
    response = owner_client.post(f"/armies/{saved.pk}/undo/", {"revision": str(latest.pk)})
    assert response.status_code == 302
    assert _figures(saved) == [12, 12, 12, 12]


def test_a_page_with_no_change_to_undo_undoes_nothing(owner_client, user):
    saved = _make(user)
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    assert 'name="revision" id="undo-revision" value=""' in page
    field_change(owner_client, saved, 1, 30, 12)  # another tab
    response = owner_client.post(f"/armies/{saved.pk}/undo/", {"revision": ""}, headers=HX)
    assert response.status_code == 409 and "Nothing to undo." in response.content.decode()
    assert _figures(saved) == [12, 30, 12, 12]


def test_a_page_150_revisions_old_still_finds_its_unit_by_identity(owner_client, user):
    saved = _make(user)
    drawn = item_id(saved, 2)  # unit 2 on the page
    services.delete_item(
        saved, kind="units", item_id=item_id(saved, 0)
    )  # unit 2 on the page is unit 1 now
    for i in range(150):
        saved = Army.objects.get(pk=saved.pk)
        services.update_settings(saved, data={"name": f"Name {i}"}, version=saved.version)
    assert saved.version == 152
    assert Revision.objects.filter(army=saved).count() == 151  # every change kept
    response = field_change(owner_client, saved, drawn, 30, 12, version=1)
    assert response.status_code == 200, response.content.decode()[:300]
    saved.refresh_from_db()
    assert [(u["name"], u["figures"]) for u in saved.document["units"]] == [
        ("Unit 1", 12), ("Unit 2", 30), ("Unit 3", 12),
    ]  # fmt: skip


def test_a_change_120_versions_old_is_restorable_but_not_undoable_on_its_own(owner_client, user):
    saved = _make(user)
    services.delete_item(saved, kind="units", item_id=item_id(saved, 0))
    deleted = Revision.objects.get(army=saved, version=2)
    for i in range(120):
        saved = Army.objects.get(pk=saved.pk)
        services.update_settings(saved, data={"name": f"Name {i}"}, version=saved.version)
    undo = {"revision": deleted.pk}  # a whole-army change: undone only while it is the last
    assert owner_client.post(f"/armies/{saved.pk}/undo/", undo, headers=HX).status_code == 409
    assert len(_figures(saved)) == 3
    response = owner_client.post(f"/armies/{saved.pk}/history/1/restore/")
    assert response.status_code == 302 and response["Location"].endswith(f"/armies/{saved.pk}/")
    assert len(_figures(saved)) == 4


def test_a_change_read_before_another_writer_saved_is_made_again_on_the_latest_army(user):
    saved = _make(user)
    read_by_a, read_by_b = Army.objects.get(pk=saved.pk), Army.objects.get(pk=saved.pk)
    first, second = item_id(saved, 0), item_id(saved, 1)
    pipeline.run(read_by_a, commands.SetValue(first, "figures", 20, 12))
    checked = pipeline.run(
        read_by_b, commands.SetValue(second, "figures", 30, 12)
    )  # b's read is one version behind: its save finds the row moved and goes again
    assert checked.army.version == 3 and checked.index == 1
    assert _figures(saved) == [20, 30, 12, 12]


def test_only_a_change_of_the_same_field_since_is_a_conflict(user):
    saved = _make(user)
    read_by_a, read_by_b = Army.objects.get(pk=saved.pk), Army.objects.get(pk=saved.pk)
    first = item_id(saved, 0)
    pipeline.run(read_by_a, commands.SetValue(first, "figures", 20, 12))
    with pytest.raises(FieldConflict) as raised:
        pipeline.run(read_by_b, commands.SetValue(first, "figures", 30, 12))
    assert (raised.value.theirs, raised.value.yours) == (20, 30)
    assert _figures(saved) == [20, 12, 12, 12]


def test_an_undo_conflict_without_javascript_shows_both_values_and_the_choice(owner_client, user):
    saved = _make(user)
    mine = field_change(owner_client, saved, 2, 30, 12)
    field_change(owner_client, saved, 2, 35, 30)
    response = owner_client.post(f"/armies/{saved.pk}/undo/", {"revision": undo_target(mine)})
    body = response.content.decode()
    assert response.status_code == 409
    assert "changed somewhere else to 35" in body and "Undo anyway (set it to 12)" in body
    assert '<input type="hidden" name="_from" value="35">' in body
