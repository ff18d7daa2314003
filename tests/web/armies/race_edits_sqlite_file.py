"""Run by tests/web/armies/changes/test_saving_concurrency.py and
tests/web/operations/test_kernel_once.py in a child process (``tests.support.race_on_a_sqlite_file``):
the builder races of ``edit_races``, or the one key from two connections of
``tests/web/operations/once_races.py``, against a file-based SQLite database, as a real
server keeps it.

Usage: python -m tests.web.armies.race_edits_sqlite_file DBFILE writers|undo|once; prints JSON.
"""

import json
import os
import sys

if __name__ == "__main__":
    db, race = sys.argv[1], sys.argv[2]
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.TASKS = {"default": settings.TASK_BACKENDS["immediate"]}
    from armybuilder.catalog.services import load_lists
    from tests.web.armies import edit_races

    load_lists()
    user = User.objects.create_user("racer", password="a-long-Pass-123")
    if race == "writers":
        print(json.dumps(edit_races.writers_on_different_units(user)))
    elif race == "once":
        from tests.web.operations import once_races

        print(json.dumps(once_races.same_key_from_a_second_connection(user)))
    else:
        print(json.dumps(edit_races.undo_against_another_tabs_edit(user)))
