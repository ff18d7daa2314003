"""The keys of a game's actions made by the page's script, copied into the operation
kernel's one ledger (``operations.AppliedKey``) with each action's number, none lost. The
actions keep their keys as data (Undo names the action it takes back by its key), no
longer unique: the ledger alone says whether a key was applied. The reverse takes the
copies out of the ledger."""

from django.db import migrations

from armybuilder.operations.kernel import moved_in, moved_out

SUBJECT = "game"


def keys_in(apps, schema_editor):
    found = apps.get_model("games", "GameAction").objects.exclude(key__isnull=True)
    moved_in(apps, SUBJECT, found.values_list("game_id", "key", "number", "created").iterator())


def keys_out(apps, schema_editor):
    moved_out(apps, SUBJECT)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_seats_and_turns"),
        ("operations", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(keys_in, keys_out),
        migrations.RemoveConstraint(model_name="gameaction", name="game_action_key_once"),
    ]
