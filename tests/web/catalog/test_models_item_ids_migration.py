"""The data migration that gave the lists of before their items' ids: every item of a
list and of each revision gets one, the same item keeping the same id from revision to
revision, and a revision's content is otherwise untouched."""

import copy
import importlib

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from armybuilder.catalog.models import ArmyList, ArmyListRevision
from rules.list_ids import items_in

pytestmark = pytest.mark.django_db
migration = importlib.import_module("armybuilder.catalog.migrations.0008_list_item_ids")


def historical_apps():
    """The models as the migration sees them (plain managers: no save path's refusals)."""
    loader = MigrationLoader(connection)
    return loader.project_state(("catalog", "0008_list_item_ids")).apps


def without_ids(data):
    data = copy.deepcopy(data)
    for item in items_in(data):
        item.pop("id", None)
    return data


def test_every_item_of_a_list_and_its_revisions_gets_an_id_kept_across_revisions():
    shipped = ArmyList.objects.get(ruleset="dark-ages-2015", slug="viking")
    written = without_ids(shipped.data)
    renamed = copy.deepcopy(written)
    renamed["required"][0]["name"] = "Renamed"
    # the rows as they were before ids: written directly, as no save path would now
    ArmyListRevision.objects.filter(army_list=shipped).delete()
    for number, data in ((1, written), (2, renamed)):
        ArmyListRevision(army_list=shipped, number=number, name=shipped.name, data=data).save()
    ArmyList.objects.filter(pk=shipped.pk).update(data=renamed, latest_revision=2)

    migration.give_ids(historical_apps(), None)

    shipped.refresh_from_db()
    first, second = (r.data for r in ArmyListRevision.objects.filter(army_list=shipped))
    ids = [item["id"] for item in items_in(first)]
    assert len(ids) == len(list(items_in(written))) and len(set(ids)) == len(ids)
    assert [item["id"] for item in items_in(second)] == ids
    assert [item["id"] for item in items_in(shipped.data)] == ids
    assert (without_ids(first), without_ids(second)) == (written, renamed)
    assert without_ids(shipped.data) == renamed


def test_the_migration_run_again_changes_nothing():
    before = {a.pk: a.data for a in ArmyList.objects.all()}
    migration.give_ids(historical_apps(), None)
    assert {a.pk: a.data for a in ArmyList.objects.all()} == before
