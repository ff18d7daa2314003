"""Repair stored army documents that break the text rule (rules/text.py).

A lone UTF-16 surrogate becomes U+FFFD; control characters (other than newline and tab
in notes), bidirectional controls and zero-width characters are removed. Rows that keep
the rule are not touched. Nothing to undo: the reverse is a no-op.
"""

from django.db import migrations


def repair_documents(apps, schema_editor):
    from rules.text import repair

    Army = apps.get_model("armies", "Army")
    # values, not model instances: the document exactly as stored
    rows = Army.objects.values_list("pk", "document").iterator(chunk_size=200)
    for pk, document in rows:
        fixed, changed = repair(document)
        if changed:
            Army.objects.filter(pk=pk).update(document=fixed)


class Migration(migrations.Migration):
    dependencies = [("armies", "0003_army_deleted_at")]

    operations = [migrations.RunPython(repair_documents, migrations.RunPython.noop)]
