"""Submissions racing each other at the deadline are all stored: each is on time or late,
numbered once, none lost (the entrant's row lock; SQLite's immediate transactions)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_eight_submissions_at_the_deadline_are_all_kept_and_numbered_once(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.web.events.race_submissions_sqlite_file",
            str(tmp_path / "race.db"),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == [f"{n} on-time" for n in range(1, 9)]
