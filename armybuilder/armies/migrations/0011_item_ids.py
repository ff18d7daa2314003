"""Give every unit and general of every stored document its stable ``id``.

Armies (and visitors' drafts, which are armies without an owner), the documents kept by
snapshot revisions and named snapshots: each item without an id gets a fresh one
(``rules.document.with_ids``); items that have one keep it, rows where every item has one
are not touched. The reverse keeps the ids: they are part of the format.
"""

from django.db import migrations


def give_ids(apps, schema_editor):
    from rules.document import with_ids

    for model in ("Army", "Revision", "ArmySnapshot"):
        rows = apps.get_model("armies", model).objects
        # values, not model instances: the document exactly as stored
        found = rows.exclude(document__isnull=True).values_list("pk", "document")
        for pk, document in found.iterator(chunk_size=200):
            filled = with_ids(document)
            if filled is not document:
                rows.filter(pk=pk).update(document=filled)


class Migration(migrations.Migration):
    dependencies = [("armies", "0010_applied_action")]

    operations = [migrations.RunPython(give_ids, migrations.RunPython.noop)]
