"""Run by tests/web/operations/test_once.py in a child process: ``once_races`` against a
file-based SQLite database, as a real server keeps it (the test database is in memory,
where SQLite's shared cache refuses a second writer at once instead of making it wait).

Usage: python -m tests.web.operations.race_once_sqlite_file DBFILE; prints JSON.
"""

import json
import os
import sys

if __name__ == "__main__":
    os.environ["DATABASE_URL"] = f"sqlite:///{sys.argv[1]}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    settings.TASKS = {"default": settings.TASK_BACKENDS["immediate"]}
    from armybuilder.catalog.services import load_lists
    from tests.web.operations import once_races

    load_lists()
    user = User.objects.create_user("racer", password="a-long-Pass-123")
    print(json.dumps(once_races.same_key_from_a_second_connection(user)))
