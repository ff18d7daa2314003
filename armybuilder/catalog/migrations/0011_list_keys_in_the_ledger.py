"""The list editor's one-time keys (``AppliedListChange``) moved into the operation
kernel's one ledger (``operations.AppliedKey``), each with the revision it left the list
at, none lost (a key once answered with a refusal stays answered as before: it was
remembered then); the old table goes. The reverse puts them back as applied."""

from django.db import migrations

from armybuilder.operations.kernel import moved_in, moved_out

SUBJECT = "list"


def keys_in(apps, schema_editor):
    found = apps.get_model("catalog", "AppliedListChange").objects
    moved_in(
        apps, SUBJECT, found.values_list("army_list_id", "key", "version", "created").iterator()
    )


def keys_out(apps, schema_editor):
    model = apps.get_model("catalog", "AppliedListChange")
    model.objects.bulk_create(
        model(army_list_id=pk, key=key, status="applied", version=version or 0, created=at)
        for pk, key, version, at in moved_out(apps, SUBJECT)
    )


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0010_list_delete_undone"),
        ("operations", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(keys_in, keys_out),
        migrations.DeleteModel(name="AppliedListChange"),
    ]
