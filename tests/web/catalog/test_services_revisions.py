"""Every saved change of a list is a new, immutable, numbered revision; old ones stay."""

import copy
import json

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from armybuilder.catalog import services
from armybuilder.catalog.models import ArmyList, ArmyListRevision, RevisionIsImmutable
from armybuilder.catalog.services import load_lists

pytestmark = pytest.mark.django_db


def norman():
    return ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066")


def test_every_shipped_list_has_its_first_revision_with_its_content():
    for army_list in ArmyList.objects.all():
        assert army_list.latest_revision >= 1
        latest = army_list.revisions.get(number=army_list.latest_revision)
        assert (latest.name, latest.period, latest.source_note, latest.data) == (
            army_list.name,
            army_list.period,
            army_list.source_note,
            army_list.data,
        )


def test_a_changed_list_gets_the_next_revision_and_the_old_one_stays_readable(user):
    army_list = norman()
    first = army_list.latest_revision
    old_data = copy.deepcopy(army_list.data)
    data = copy.deepcopy(old_data)
    data["entries"][0]["max"] = data["entries"][0]["max"] + 1
    saved = services.save_list(army_list, by=user, data=data, name="Normans, revised")
    assert saved.created and saved.revision.number == first + 1
    assert saved.revision.author == user and saved.revision.name == "Normans, revised"
    assert norman().data == data and norman().latest_revision == first + 1
    assert army_list.revisions.get(number=first).data == old_data


def test_saving_the_same_content_writes_no_revision():
    army_list = norman()
    before = army_list.latest_revision
    saved = services.save_list(army_list, data=copy.deepcopy(army_list.data))
    assert not saved.created
    assert saved.revision.number == before == norman().latest_revision


def test_an_invalid_change_is_refused_and_writes_nothing():
    army_list = norman()
    before = (army_list.latest_revision, ArmyListRevision.objects.count())
    with pytest.raises(ValidationError):
        services.save_list(army_list, data={"entries": "not a list"})
    assert (norman().latest_revision, ArmyListRevision.objects.count()) == before
    assert norman().data != {"entries": "not a list"}


def test_a_revision_can_never_be_changed():
    revision = norman().revisions.first()
    revision.name = "rewritten"
    with pytest.raises(RevisionIsImmutable):
        revision.save()
    with pytest.raises(RevisionIsImmutable):
        ArmyListRevision.objects.filter(pk=revision.pk).update(name="rewritten")
    assert ArmyListRevision.objects.get(pk=revision.pk).name != "rewritten"


def test_load_lists_makes_a_revision_only_when_a_list_changed(tmp_path):
    counts = dict(
        ArmyList.objects.values_list("slug", "latest_revision").filter(ruleset="feudal-2017")
    )
    assert load_lists() == 31
    assert (
        dict(ArmyList.objects.values_list("slug", "latest_revision").filter(ruleset="feudal-2017"))
        == counts
    )

    fixture = json.loads((services.FIXTURES_DIR / "feudal-2017.json").read_text(encoding="utf-8"))
    for record in fixture:
        if record["fields"]["slug"] == "bretons":
            record["fields"]["data"]["extra_terrain"] = "A marsh."
    (tmp_path / "feudal-2017.json").write_text(json.dumps(fixture), encoding="utf-8")
    old = ArmyList.objects.get(ruleset="feudal-2017", slug="bretons")
    old_revision = old.revisions.get(number=old.latest_revision)
    load_lists(tmp_path)
    changed = ArmyList.objects.get(ruleset="feudal-2017", slug="bretons")
    assert changed.latest_revision == old.latest_revision + 1
    assert changed.data["extra_terrain"] == "A marsh."
    # the revision armies may be pinned to is as it was
    assert ArmyListRevision.objects.get(pk=old_revision.pk).data == old_revision.data
    others = ArmyList.objects.filter(ruleset="feudal-2017").exclude(slug="bretons")
    assert all(a.latest_revision == counts[a.slug] for a in others)


def test_load_lists_never_overwrites_a_players_list_of_the_same_slug(tmp_path, user):
    ArmyList.objects.filter(ruleset="feudal-2017", slug="bretons").update(author=user)
    with pytest.raises(services.ListFileError, match="a player's list"):
        load_lists()


def test_the_command_still_loads_every_list(capsys):
    call_command("muster", "load-lists")
    assert "Loaded 31 army lists." in capsys.readouterr().out


def test_an_admin_save_makes_a_revision_by_that_admin(admin_client, admin_user):
    army_list = norman()
    before = army_list.latest_revision
    data = copy.deepcopy(army_list.data)
    data["entries"][0]["note"] = "changed in the admin"
    response = admin_client.post(
        f"/admin/catalog/armylist/{army_list.pk}/change/",
        {
            "ruleset": army_list.ruleset,
            "slug": army_list.slug,
            "name": army_list.name,
            "period": army_list.period,
            "source_note": army_list.source_note,
            "data": json.dumps(data),
            "status": "published",
            "revisions-TOTAL_FORMS": str(army_list.revisions.count()),
            "revisions-INITIAL_FORMS": str(army_list.revisions.count()),
            **{
                f"revisions-{n}-id": str(rev.pk)
                for n, rev in enumerate(army_list.revisions.order_by("number"))
            },
            **{
                f"revisions-{n}-army_list": str(army_list.pk)
                for n in range(army_list.revisions.count())
            },
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    latest = norman().revisions.get(number=before + 1)
    assert latest.author == admin_user
    assert latest.data["entries"][0]["note"] == "changed in the admin"


def test_the_data_migration_gives_a_list_without_revisions_its_first_one():
    from importlib import import_module

    from django.apps import apps

    migration = import_module("armybuilder.catalog.migrations.0003_first_revisions")
    shipped = norman()
    bare = ArmyList.objects.create(
        ruleset="into-the-dark",
        slug="from-before-revisions",
        name="Old list",
        data=copy.deepcopy(shipped.data),
    )
    assert bare.latest_revision == 0
    migration.first_revisions(apps, None)
    bare.refresh_from_db()
    assert bare.latest_revision == 1 and bare.status == "published"
    (first,) = bare.revisions.all()
    assert (first.number, first.name, first.data) == (1, "Old list", shipped.data)
    assert norman().latest_revision == shipped.latest_revision  # lists with one: untouched
