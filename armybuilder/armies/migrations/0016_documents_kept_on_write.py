"""Repair and complete every stored document once, so that reading one only reads.

Until now the builder's first read of an army gave its items their ids and wrote them
back. A read now only reads, so the rows written around the services since
``0004_repair_stored_text`` and ``0011_item_ids`` (a fixture, a script, a raw UPDATE) are
repaired in the rows themselves here: the text rule applied (a lone surrogate becomes U+FFFD, controls and
invisible formatting removed) and every unit and general without an id given one, in
armies, drafts, snapshot revisions and named snapshots. Rows that need neither are not
touched; a second run changes nothing. Nothing to undo: the reverse is a no-op.
"""

from django.db import migrations


def keep_documents(apps, schema_editor):
    from rules.document import with_ids
    from rules.text import repair

    for model in ("Army", "Revision", "ArmySnapshot"):
        rows = apps.get_model("armies", model).objects
        # values, not model instances: the document exactly as stored
        found = rows.exclude(document__isnull=True).values_list("pk", "document")
        for pk, document in found.iterator(chunk_size=200):
            fixed, changed = repair(document)
            filled = with_ids(fixed)
            if changed or filled is not fixed:
                rows.filter(pk=pk).update(document=filled)


class Migration(migrations.Migration):
    dependencies = [("armies", "0015_army_document_field")]

    operations = [migrations.RunPython(keep_documents, migrations.RunPython.noop)]
