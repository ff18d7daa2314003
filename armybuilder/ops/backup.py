"""Backups of the site's database, made while it serves, and their restore into a fresh one
(``manage.py muster backup FILE`` / ``muster restore FILE``).

SQLite: the online backup API of ``sqlite3`` copies a consistent snapshot of the live file
(it holds a read lock for the copy; writers wait at most for that, as they wait for each
other). PostgreSQL: ``pg_dump`` in its custom format, one consistent snapshot taken in one
transaction while the site writes on, and ``pg_restore`` (Debian's ``postgresql-client``,
``make system-deps`` installs it). A restore only goes into a database that holds no
tables yet, so it never mixes a backup into live data or drops anything.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from django.db import connections

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"


class BackupError(Exception):
    """A backup or restore that cannot be done: a message for the operator."""


def _database(alias: str = "default") -> dict[str, Any]:
    return connections[alias].settings_dict


def _is_sqlite(settings: dict[str, Any]) -> bool:
    return str(settings["ENGINE"]).endswith("sqlite3")


def backup(path: Path, alias: str = "default") -> str:
    """Write a backup of the database to ``path``; what was written, for the operator."""
    settings = _database(alias)
    if path.exists():
        raise BackupError(f"{path} exists already: a backup never overwrites a file")
    if _is_sqlite(settings):
        source = sqlite3.connect(f"file:{settings['NAME']}?mode=ro", uri=True, timeout=30)
        target = sqlite3.connect(path)
        try:
            source.backup(target)
        finally:
            target.close()
            source.close()
        return f"SQLite database {settings['NAME']} backed up to {path}"
    _postgres_tool("pg_dump", settings, "--format=custom", "--no-owner", "--no-privileges",
                   "--file", str(path))  # fmt: skip
    return f"PostgreSQL database {settings['NAME']} backed up to {path}"


def restore(path: Path, alias: str = "default") -> str:
    """Load the backup in ``path`` into the configured database, which must hold no tables."""
    settings = _database(alias)
    try:
        with path.open("rb") as file:
            head = file.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise BackupError(f"cannot read {path}: {exc}") from exc
    connection = connections[alias]
    if connection.introspection.table_names():
        raise BackupError(
            f"database {settings['NAME']} already holds tables: restore into a fresh, empty "
            "database (create it, point DATABASE_URL at it, then restore)"
        )
    connection.close()
    if _is_sqlite(settings):
        if not head.startswith(SQLITE_MAGIC):
            raise BackupError(f"{path} is not a SQLite backup (this site runs on SQLite)")
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        target = sqlite3.connect(settings["NAME"])
        try:
            source.backup(target)
        finally:
            target.close()
            source.close()
        return f"{path} restored into SQLite database {settings['NAME']}"
    if not head.startswith(PG_MAGIC):
        raise BackupError(f"{path} is not a pg_dump backup (this site runs on PostgreSQL)")
    _postgres_tool("pg_restore", settings, "--no-owner", "--no-privileges", "--exit-on-error",
                   "--single-transaction", str(path))  # fmt: skip
    return f"{path} restored into PostgreSQL database {settings['NAME']}"


def _postgres_tool(tool: str, settings: dict[str, Any], *args: str) -> None:
    found = shutil.which(tool)
    if found is None:
        raise BackupError(
            f"{tool} is not installed (Debian: apt-get install postgresql-client, or make "
            "system-deps)"
        )
    env = dict(os.environ)
    if settings.get("PASSWORD"):
        env["PGPASSWORD"] = str(settings["PASSWORD"])
    where = []
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if settings.get(key):
            where += [flag, str(settings[key])]
    done = subprocess.run(  # noqa: S603 (the configured database's own settings, no shell)
        [found, *where, "--dbname", str(settings["NAME"]), *args],
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise BackupError(f"{tool} failed ({done.returncode}): {done.stderr.strip()[-1000:]}")
