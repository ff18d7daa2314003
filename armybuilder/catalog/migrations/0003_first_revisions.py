"""Every list that exists before revisions gets revision 1 (its current content), and
Muster's compiled lists are marked published."""

from django.db import migrations


def first_revisions(apps, schema_editor):
    ArmyList = apps.get_model("catalog", "ArmyList")
    ArmyListRevision = apps.get_model("catalog", "ArmyListRevision")
    for army_list in ArmyList.objects.filter(latest_revision=0):
        ArmyListRevision.objects.create(
            army_list=army_list,
            number=1,
            name=army_list.name,
            period=army_list.period,
            source_note=army_list.source_note,
            data=army_list.data,
            author=army_list.author,
        )
        # queryset update: neither auto_now nor the historical model's save() involved
        ArmyList.objects.filter(pk=army_list.pk).update(latest_revision=1)
    ArmyList.objects.filter(author__isnull=True).update(status="published")


class Migration(migrations.Migration):
    dependencies = [("catalog", "0002_list_authors_status_revisions")]

    operations = [migrations.RunPython(first_revisions, migrations.RunPython.noop)]
