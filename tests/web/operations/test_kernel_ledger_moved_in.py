"""The migrations that moved the three old ledgers of applied keys (an army's revisions'
keys and ``AppliedAction``, the list editor's ``AppliedListChange``, a game's actions'
keys) into the operation kernel's one ``AppliedKey``: every key is there afterwards, with
the version it made, and is still answered "duplicate"."""

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from armybuilder.armies import services as armies
from armybuilder.armies.changes import operations as army_operations
from armybuilder.armies.models import Army
from armybuilder.catalog.models import ArmyList
from armybuilder.games import operations as game_operations
from armybuilder.games import services as games
from armybuilder.operations.models import AppliedKey
from tests.support import army
from tests.web.games.operations import next_phase

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [
    ("armies", "0016_documents_kept_on_write"),
    ("catalog", "0010_list_delete_undone"),
    ("games", "0006_seats_and_turns"),
]
AFTER = [
    ("armies", "0017_keys_in_the_ledger"),
    ("catalog", "0011_list_keys_in_the_ledger"),
    ("games", "0007_keys_in_the_ledger"),
]


def latest():
    """Every app's newest migration: where the rest of the suite expects the schema."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state([*targets, ("operations", "0001_initial")]).apps


def test_every_key_of_the_three_old_ledgers_is_in_the_one_ledger_with_its_version():
    user = User.objects.create_user("ann")
    saved = armies.create_army(army("into-the-dark", [{"name": "Hirdmen"}]), owner=user)
    unit = saved.document["units"][0]["id"]
    renamed = army_operations.Operation("army-rev", "set", unit, "name", "Hird")
    assert army_operations.apply_operations(saved, [renamed]).outcomes[0].status == "applied"
    feudal = armies.create_army(army("feudal-2017", [{"name": "Knights", "type": "knights"}]),
                                owner=user)  # fmt: skip
    game = games.start_game(user, army_a=feudal, army_b=feudal)
    sent = game_operations.parse_operations({"operations": [next_phase(1, "shoot", key="act")]})
    assert game_operations.apply_operations(game, sent)[0].status == "applied"
    listed = ArmyList.objects.filter(ruleset="into-the-dark").first()

    old = migrate(BEFORE)  # the keys as the old ledgers held them
    old.get_model("armies", "AppliedAction").objects.create(army_id=saved.pk, key="kept")
    changes = old.get_model("catalog", "AppliedListChange").objects
    changes.create(army_list_id=listed.pk, key="list-1", status="applied", version=2)
    changes.create(army_list_id=listed.pk, key="list-2", status="refused", version=1)
    assert old.get_model("armies", "Revision").objects.filter(key="army-rev").exists()
    assert old.get_model("games", "GameAction").objects.filter(key="act").exists()
    assert not old.get_model("operations", "AppliedKey").objects.exists()

    migrate(AFTER)
    moved = set(AppliedKey.objects.values_list("subject", "subject_id", "key", "version"))
    assert moved == {
        ("army", saved.pk, "army-rev", 2),
        ("army", saved.pk, "kept", None),
        ("list", listed.pk, "list-1", 2),
        ("list", listed.pk, "list-2", 1),
        ("game", game.pk, "act", 1),
    }
    migrate(latest())  # the models below are today's, as is every later test's schema
    again = army_operations.apply_operations(Army.objects.get(pk=saved.pk), [renamed])
    assert again.outcomes[0].status == "duplicate"
    assert game_operations.apply_operations(game, sent)[0].status == "duplicate"
