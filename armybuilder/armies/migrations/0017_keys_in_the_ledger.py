"""Armies' one-time keys moved into the operation kernel's one ledger
(``operations.AppliedKey``): every key an army's revision carries and every
``AppliedAction`` (a change that made no revision of its own), none lost. The revisions
keep their keys as data; the ledger alone now says whether a key was applied, so the
revisions' unique key and ``AppliedAction`` go. The reverse puts the keys no revision
carries back into ``AppliedAction``."""

from django.db import migrations

from armybuilder.operations.kernel import moved_in, moved_out

SUBJECT = "army"


def keys_in(apps, schema_editor):
    kept = apps.get_model("armies", "AppliedAction").objects.values_list(
        "army_id", "key", "created"
    )
    made = apps.get_model("armies", "Revision").objects.exclude(key__isnull=True)
    moved_in(apps, SUBJECT, ((pk, key, None, at) for pk, key, at in kept.iterator()))
    moved_in(apps, SUBJECT, made.values_list("army_id", "key", "version", "created").iterator())


def keys_out(apps, schema_editor):
    made = set(
        apps.get_model("armies", "Revision").objects.exclude(key__isnull=True)
        .values_list("army_id", "key")
    )  # fmt: skip
    kept = apps.get_model("armies", "AppliedAction")
    kept.objects.bulk_create(
        kept(army_id=pk, key=key, created=at)
        for pk, key, _, at in moved_out(apps, SUBJECT)
        if (pk, key) not in made
    )


class Migration(migrations.Migration):
    dependencies = [
        ("armies", "0016_documents_kept_on_write"),
        ("operations", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(keys_in, keys_out),
        migrations.RemoveConstraint(model_name="revision", name="revision_army_key"),
        migrations.DeleteModel(name="AppliedAction"),
    ]
