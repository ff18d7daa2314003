"""Every item of every list (entries, limits, replacements, choice groups and their
options) gets its stable id, the list editor's name for it.

A list's revisions are walked oldest first and each item takes the id of the item in
the same place of the revision before (``rules.list_ids.carried``), so undoing to an
older revision, or comparing two, finds the same items under the same ids. Revisions are
otherwise never changed: this is the one rewrite of their content, giving ids only."""

from django.db import migrations

from rules.list_ids import carried, with_ids


def give_ids(apps, schema_editor):
    ArmyList = apps.get_model("catalog", "ArmyList")
    ArmyListRevision = apps.get_model("catalog", "ArmyListRevision")
    for army_list in ArmyList.objects.all().iterator():
        earlier = {}
        for revision in ArmyListRevision.objects.filter(army_list=army_list).order_by("number"):
            data = with_ids(carried(revision.data, earlier))
            if data != revision.data:
                ArmyListRevision.objects.filter(pk=revision.pk).update(data=data)
            earlier = data
        data = with_ids(carried(army_list.data, earlier))
        if data != army_list.data:
            # queryset update: neither auto_now nor the historical model's save() involved
            ArmyList.objects.filter(pk=army_list.pk).update(data=data)


class Migration(migrations.Migration):
    dependencies = [("catalog", "0007_list_change_keys")]

    operations = [migrations.RunPython(give_ids, migrations.RunPython.noop)]
