"""Run by tests/web/events/test_services_submission_race.py in a child process: 8 parallel
submissions of one entrant at the deadline against a file-based SQLite database (the test
database is in memory, where SQLite's shared cache locks whole tables instead).

Usage: python -m tests.web.events.race_submissions_sqlite_file DBFILE; prints each stored
submission's number and whether it is late, then any errors.
"""

import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

if __name__ == "__main__":
    os.environ["DATABASE_URL"] = f"sqlite:///{sys.argv[1]}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from freezegun import freeze_time

    call_command("migrate", verbosity=0)
    from armybuilder.catalog.services import load_lists
    from armybuilder.events import services
    from armybuilder.events.models import Submission
    from tests.web.events.helpers import DEADLINE, make_event, player, saved_army

    load_lists()
    event = make_event(player("org"))
    bob = player("bob")
    entrant = services.join(event, user=bob)
    army = saved_army(bob)
    barrier = threading.Barrier(8)

    def one(_: int) -> str:
        barrier.wait()
        try:
            services.submit(entrant, army=army, by=bob)
            return ""
        except Exception as exc:  # noqa: BLE001 - printed for the test to report
            return repr(exc)
        finally:
            connection.close()

    with freeze_time(DEADLINE), ThreadPoolExecutor(8) as pool:
        errors = [e for e in pool.map(one, range(8)) if e]
    for number, late in Submission.objects.order_by("number").values_list("number", "late"):
        print(number, "late" if late else "on-time")
    for error in errors:
        print("error", error)
