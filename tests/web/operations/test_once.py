"""The per-operation transaction: a key is applied once even when its second arrival, from
another connection, comes between the first one's duplicate check and its write."""

import json
import os
import subprocess
import sys

import pytest
from django.db import connection

from tests.support import ROOT
from tests.web.operations import once_races

# One change made, one revision, one key in the ledger; the second arrival waited for the
# first one's commit and was told "duplicate". The army path before the kernel checked
# the key outside the army's lock: the second arrival also saved (version 3, no
# revision of its own) and was still told "duplicate".
ONCE = {
    "answers": {"first": "applied", "second": "duplicate"},
    "version": 2,
    "units": 2,
    "revisions": 1,
    "keyed_revisions": 1,
    "ledger": 1,
}


def _needs(vendor: str) -> None:
    if connection.vendor != vendor:
        pytest.skip(f"this race runs on {vendor}; the other database has its own test")


@pytest.mark.django_db(transaction=True)
def test_the_same_key_from_a_second_connection_mid_change_is_a_duplicate_on_postgresql(user):
    _needs("postgresql")
    assert once_races.same_key_from_a_second_connection(user) == ONCE


def test_the_same_key_from_a_second_connection_mid_change_is_a_duplicate_on_a_sqlite_file(
    tmp_path,
):
    _needs("sqlite")
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    done = subprocess.run(
        [sys.executable, "-m", "tests.web.operations.race_once_sqlite_file",
         str(tmp_path / "once.db")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == ONCE
