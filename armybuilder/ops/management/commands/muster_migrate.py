"""``python manage.py muster_migrate``: ``migrate`` then ``muster load-lists``, one host at a
time.

``make run`` runs it before it serves. Hosts that share one PostgreSQL may all start at
once: each waits for a PostgreSQL advisory lock (session-level, on a connection of its own,
so it is released if the process dies) while another migrates, then finds nothing left
to do. Two ``migrate`` runs side by side on a fresh database would both create the same
tables, and one would die (``IntegrityError … pg_type_typname_nsp_index``). SQLite is one
host's database: no lock is needed there (SQLite's own write lock orders the writes).
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connections

# pg_advisory_lock's key: any 64-bit number no other code on the database uses
LOCK_KEY = 0x6D75737465720001  # "muster" and 1


class Command(BaseCommand):
    help = "Migrate and load the army lists, one host at a time (a PostgreSQL advisory lock)."

    def handle(self, *args: Any, **options: Any) -> None:
        if connections["default"].vendor != "postgresql":
            self.setup()
            return
        lock = connections.create_connection("default")
        try:
            with lock.cursor() as cursor:
                if not self.try_lock(cursor):
                    self.stdout.write("another host is migrating the database: waiting for it")
                    began = time.monotonic()
                    cursor.execute("SELECT pg_advisory_lock(%s)", [LOCK_KEY])
                    self.stdout.write(f"its migration is done ({time.monotonic() - began:.0f} s)")
                try:
                    self.setup()
                finally:
                    cursor.execute("SELECT pg_advisory_unlock(%s)", [LOCK_KEY])
        finally:
            lock.close()

    def try_lock(self, cursor: Any) -> bool:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [LOCK_KEY])
        return bool(cursor.fetchone()[0])

    def setup(self) -> None:
        call_command("migrate", "--noinput", verbosity=1, stdout=self.stdout)
        call_command("muster", "load-lists", stdout=self.stdout)
