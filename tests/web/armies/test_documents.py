"""Reading a saved army only reads: its check and its page write nothing back to the row;
what a stored row lacks (an item's id, the text rule) is given by a data migration."""

import importlib

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext

from armybuilder.armies import documents, services
from armybuilder.armies.models import Army, ArmySnapshot, Revision
from tests.support import army

pytestmark = pytest.mark.django_db


def test_checking_a_row_stored_without_ids_writes_nothing_and_gives_no_ids(user):
    # a row written around the services (a script): ids come from the import, the
    # services and the data migration, never from a read
    row = Army.objects.create(owner=user, document=army("into-the-dark", [{"name": "Fyrd"}]))
    documents.forget_checks()
    read = Army.objects.get(pk=row.pk)
    with CaptureQueriesContext(connection) as queries:
        checked = documents.check_army(read)
    assert checked.report is not None
    assert not [
        q for q in queries.captured_queries if q["sql"].lstrip().upper().startswith("UPDATE")
    ]
    assert "id" not in Army.objects.values_list("document", flat=True).get(pk=row.pk)["units"][0]
    assert read.version == 1


UNIT = {"name": "Fyrd", "figures": 12}


def stored(model, pk: int):
    return model.objects.filter(pk=pk).values_list("document", flat=True).get()


def test_opening_the_builder_writes_nothing_to_the_army(owner_client, user):
    saved = services.create_army(army("into-the-dark", [UNIT, UNIT]), owner=user)
    documents.forget_checks()
    with CaptureQueriesContext(connection) as queries:
        assert owner_client.get(f"/armies/{saved.pk}/").status_code == 200
    written = [q["sql"] for q in queries.captured_queries if "armies_" in q["sql"]]
    assert not [sql for sql in written if sql.lstrip().upper().startswith(("UPDATE", "INSERT"))]


def test_the_data_migration_repairs_text_and_gives_ids_in_the_rows_themselves(user):
    plain = army("into-the-dark", [UNIT, UNIT])
    row = Army.objects.create(owner=user, document=plain)
    Army.objects.filter(pk=row.pk).update(document={**plain, "name": "Lone \u200b\x07"})
    revision = Revision.objects.create(
        army=row, version=2, summary="x", kind=Revision.SNAPSHOT, document=plain
    )
    snapshot = ArmySnapshot.objects.create(army=row, name="n", version=1, document=plain)
    complete = services.create_army(plain, owner=user)
    kept = stored(Army, complete.pk)
    name = "armybuilder.armies.migrations.0016_documents_kept_on_write"
    migration = importlib.import_module(name)
    migration.keep_documents(apps, None)
    assert stored(Army, row.pk)["name"] == "Lone "
    for model, pk in ((Army, row.pk), (Revision, revision.pk), (ArmySnapshot, snapshot.pk)):
        assert len({u["id"] for u in stored(model, pk)["units"]}) == 2
    assert stored(Army, complete.pk) == kept
    migration.keep_documents(apps, None)  # a second run changes nothing
    assert stored(Army, complete.pk) == kept
