"""Run by tests/web/armies/making/test_drafts.py in a child process: 40 parallel imports from one
session against a file-based SQLite database (the test database is in memory, where
SQLite's shared cache serialises connections on its own and so cannot show a race).

Usage: python -m tests.web.armies.race_drafts_sqlite_file DBFILE CAP; prints the drafts stored.
"""

import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

if __name__ == "__main__":
    db, cap = sys.argv[1], int(sys.argv[2])
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    settings.MUSTER_MAX_DRAFTS = cap
    from armybuilder.armies import services
    from armybuilder.armies.models import Army

    document = (
        b'{"format": "muster.army/1", "name": "Raced", "ruleset": "into-the-dark", "units": []}'
    )
    barrier = threading.Barrier(40)

    def one(_: int) -> str:
        barrier.wait()
        try:
            services.import_document(document, session_key="racer")
            return "created"
        except services.DraftLimitReached:
            return "refused"
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=40) as pool:
        results = list(pool.map(one, range(40)))
    stored = Army.objects.filter(session_key="racer").count()
    print(stored, results.count("created"), results.count("refused"))
