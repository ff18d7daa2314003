"""Revisions name their unit or general by its stable id (``item_id``).

A revision recorded before names the item by its index at its version; the index it has
now is found by following the structural revisions after it (added, deleted, moved), and
the id is the one the army's current document holds there. An item deleted since (or an
army replaced since) keeps "": it can no longer be undone on its own, as before.
"""

from django.db import migrations, models


def _index_now(later, kind, index):
    for op, target, at, to in later:
        if op == "replace":
            return None
        if target != kind or at is None:
            continue
        if op == "add" and index >= at:
            index += 1
        elif op == "delete":
            if index == at:
                return None
            if index > at:
                index -= 1
        elif op == "move" and to is not None:
            if index == at:
                index = to
            elif at < index <= to:
                index -= 1
            elif to <= index < at:
                index += 1
    return index


def name_items(apps, schema_editor):
    Army = apps.get_model("armies", "Army")
    Revision = apps.get_model("armies", "Revision")
    found = Revision.objects.filter(target__in=("units", "generals"), index__isnull=False)
    for army_pk in found.values_list("army", flat=True).distinct():
        document = Army.objects.filter(pk=army_pk).values_list("document", flat=True).first()
        moves = list(
            Revision.objects.filter(army=army_pk)
            .exclude(op="edit")
            .order_by("version")
            .values_list("version", "op", "target", "index", "op_to")
        )
        for pk, version, kind, index in found.filter(army=army_pk).values_list(
            "pk", "version", "target", "index"
        ):
            later = [m[1:] for m in moves if m[0] > version]
            now = _index_now(later, kind, index)
            items = document.get(kind) if isinstance(document, dict) else None
            if now is None or not isinstance(items, list) or not 0 <= now < len(items):
                continue
            item = items[now]
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                Revision.objects.filter(pk=pk).update(item_id=item["id"])


class Migration(migrations.Migration):
    dependencies = [("armies", "0011_item_ids")]

    operations = [
        migrations.AddField(
            model_name="revision",
            name="item_id",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
        migrations.RunPython(name_items, migrations.RunPython.noop),
    ]
