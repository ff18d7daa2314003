"""One key applied from two connections at once, for ``test_kernel_once.py``: the second arrives
between the kernel's duplicate check and its write. Run in this process on PostgreSQL and
in a child process on a SQLite file (``tests/web/armies/race_edits_sqlite_file.py``)."""

from __future__ import annotations

import threading
from typing import Any

from django.contrib.auth.models import User
from django.db import connection

from armybuilder.armies import services
from armybuilder.armies.changes.operations import Operation, apply_operations
from armybuilder.armies.models import Army, Revision
from armybuilder.operations import kernel
from armybuilder.operations.models import AppliedKey
from tests.support import army

KEY = "one-tap"
HOLD = 1.5  # seconds the first arrival holds still between its check and its write


def same_key_from_a_second_connection(user: User) -> dict[str, Any]:
    """Apply one unit's copy under one key, and while the first arrival has checked the key
    (``kernel.locked``) and not yet written, the same operation from a second connection
    (a thread). Says each arrival's answer, the army's version, and how many revisions
    and ledger rows the key made."""
    saved = services.create_army(army("into-the-dark", [{"name": "Hirdmen"}]), owner=user)
    unit = saved.document["units"][0]["id"]
    # a copy: made twice, it would show (a set of one value twice would not)
    operation = Operation(KEY, "duplicate", unit, base_version=1)
    answers: dict[str, str] = {}

    def send(who: str) -> None:
        found = Army.objects.get(pk=saved.pk)
        answers[who] = apply_operations(found, [operation]).outcomes[0].status

    def second() -> None:
        try:
            send("second")
        finally:
            connection.close()

    racer = threading.Thread(target=second)
    checked = kernel.locked

    def checked_then_raced(*args: Any) -> Any:
        row = checked(*args)
        if threading.current_thread() is not racer and not racer.is_alive():
            racer.start()
            racer.join(HOLD)  # it finishes meanwhile only if nothing holds it back
        return row

    kernel.locked = checked_then_raced
    try:
        send("first")
    finally:
        kernel.locked = checked
    racer.join()
    saved.refresh_from_db()
    return {
        "answers": answers,
        "version": saved.version,
        "units": len(saved.document["units"]),
        "revisions": Revision.objects.filter(army=saved).count(),
        "keyed_revisions": Revision.objects.filter(army=saved, key=KEY).count(),
        "ledger": AppliedKey.objects.filter(subject="army", subject_id=saved.pk).count(),
    }
