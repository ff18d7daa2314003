"""Every stored unit and general has its own stable id: given on the way in, kept on the
way out, a new one for every new unit, stored armies given theirs by a data migration."""

import importlib
import json

from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile

from armybuilder.armies import services
from armybuilder.armies.models import Army, ArmySnapshot, Revision
from tests.support import army, item_id

UNIT = {"name": "Fyrd", "figures": 12}


def upload(doc) -> SimpleUploadedFile:
    content = json.dumps(doc).encode()
    return SimpleUploadedFile("army.json", content, content_type="application/json")


def unit_ids(army_row: Army) -> list[str]:
    army_row.refresh_from_db()
    return [u["id"] for u in army_row.document["units"]]


def test_an_import_without_ids_gets_one_for_each_unit_and_general(owner_client):
    doc = army("into-the-dark", [UNIT, UNIT], generals=[{"name": "Harold"}])
    owner_client.post("/armies/import/", {"document": upload(doc)})
    stored = Army.objects.get().document
    ids = [u["id"] for u in stored["units"]] + [stored["generals"][0]["id"]]
    assert len(set(ids)) == 3


def test_ids_survive_export_then_import(owner_client, user):
    original = services.create_army(army("into-the-dark", [UNIT, UNIT]), owner=user)
    exported = json.loads(owner_client.get(f"/armies/{original.pk}/export.json").content)
    assert [u["id"] for u in exported["units"]] == unit_ids(original)
    owner_client.post("/armies/import/", {"document": upload(exported)})
    imported = Army.objects.exclude(pk=original.pk).get()
    assert unit_ids(imported) == unit_ids(original)


def test_an_import_with_a_repeated_id_is_refused_naming_the_unit(owner_client):
    doc = army("into-the-dark", [{"id": "a", **UNIT}, {"id": "a", **UNIT}])
    response = owner_client.post("/armies/import/", {"document": upload(doc)})
    assert response.status_code == 400
    assert "Fyrd (unit 2), id: &#x27;a&#x27; is already the id of units[0]" in (
        response.content.decode()
    )
    assert not Army.objects.exists()


def test_added_and_duplicated_units_get_ids_of_their_own_and_the_others_keep_theirs(
    owner_client, user
):
    saved = services.create_army(army("into-the-dark", [UNIT]), owner=user)
    first = unit_ids(saved)
    saved = services.add_item(saved, kind="units", version=saved.version).army
    saved = services.duplicate_item(saved, kind="units", item_id=item_id(saved, 0)).army
    ids = unit_ids(saved)
    assert ids[0] == first[0]
    assert len(set(ids)) == 3


def test_a_deleted_units_id_is_not_given_to_the_unit_added_after(user):
    saved = services.create_army(army("into-the-dark", [UNIT, UNIT]), owner=user)
    gone = unit_ids(saved)[1]
    saved = services.delete_item(saved, kind="units", item_id=item_id(saved, 1)).army
    saved = services.add_item(saved, kind="units", version=saved.version).army
    assert gone not in unit_ids(saved)


def test_the_data_migration_gives_ids_to_stored_armies_revisions_and_snapshots(user):
    plain = army("into-the-dark", [UNIT, UNIT])
    row = Army.objects.create(owner=user, document=plain)
    revision = Revision.objects.create(
        army=row, version=2, summary="x", kind=Revision.SNAPSHOT, document=plain
    )
    snapshot = ArmySnapshot.objects.create(army=row, name="n", version=1, document=plain)
    complete = Army.objects.create(
        owner=user, document=services.create_army(plain, owner=user).document
    )
    kept = unit_ids(complete)
    migration = importlib.import_module("armybuilder.armies.migrations.0011_item_ids")
    migration.give_ids(apps, None)
    for stored in (row, revision, snapshot):
        stored.refresh_from_db()
        ids = [u["id"] for u in stored.document["units"]]
        assert len(set(ids)) == 2
    assert unit_ids(complete) == kept


def test_the_data_migration_names_each_old_revisions_unit_by_the_id_it_has_now(user):
    saved = services.create_army(army("into-the-dark", [UNIT, UNIT, UNIT]), owner=user)
    ids = unit_ids(saved)
    # recorded before ids: unit 2's figures at version 2, then unit 0 deleted at version 3
    edit = Revision.objects.create(
        army=saved, version=2, summary="figures", kind=Revision.FIELD, target="units",
        index=2, field="figures", before=12, after=20,
    )  # fmt: skip
    Revision.objects.create(
        army=saved, version=3, summary="delete", kind=Revision.SNAPSHOT, target="units",
        index=0, op="delete", document=saved.document,
    )  # fmt: skip
    Army.objects.filter(pk=saved.pk).update(
        version=3, document={**saved.document, "units": saved.document["units"][1:]}
    )
    migration = importlib.import_module("armybuilder.armies.migrations.0012_revision_item_id")
    migration.name_items(apps, None)
    edit.refresh_from_db()
    assert edit.item_id == ids[2]
