"""The test database's name on a database server, this run's own.

pytest-django names it ``test_<NAME>`` (``_gw0`` ... under xdist), the same for every
checkout: two ``make test`` runs at once on one PostgreSQL would create, use and drop the
same database. A part made of this process's id and a random one makes the name no one
else's; SQLite's test databases (in memory, or files of this checkout) are left as they are.
"""

import os
import secrets
from collections.abc import Mapping
from typing import Any

LONGEST = 63  # PostgreSQL's identifiers: longer names are silently cut


def run_part() -> str:
    return f"{os.getpid()}_{secrets.token_hex(4)}"


def own_test_names(databases: Mapping[str, dict[str, Any]], part: str) -> None:
    """Give each server database in ``databases`` (Django's setting) a test name ending
    in ``part``, kept within PostgreSQL's 63 characters."""
    for settings in databases.values():
        if settings["ENGINE"].endswith("sqlite3"):
            continue
        test = settings.setdefault("TEST", {})
        base = test.get("NAME") or f"test_{settings['NAME']}"
        suffix = f"_{part}"
        test["NAME"] = base[: LONGEST - len(suffix)] + suffix
