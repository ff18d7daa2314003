"""The per-operation transaction: a key is applied once even when its second arrival, from
another connection, comes between the first one's duplicate check and its write."""

import pytest

from tests.support import needs_database, race_on_a_sqlite_file
from tests.web.operations import once_races

# One change made, one revision, one key in the ledger; the second arrival waited for the
# first one's commit and was told "duplicate". A key checked outside the subject's lock
# and written apart from its change lets the second arrival save as well (version 3, a
# second copy) while it is told "duplicate".
ONCE = {
    "answers": {"first": "applied", "second": "duplicate"},
    "version": 2,
    "units": 2,
    "revisions": 1,
    "keyed_revisions": 1,
    "ledger": 1,
}


@pytest.mark.django_db(transaction=True)
def test_the_same_key_from_a_second_connection_mid_change_is_a_duplicate_on_postgresql(user):
    needs_database("postgresql")
    assert once_races.same_key_from_a_second_connection(user) == ONCE


def test_the_same_key_from_a_second_connection_mid_change_is_a_duplicate_on_a_sqlite_file(
    tmp_path,
):
    needs_database("sqlite")
    assert race_on_a_sqlite_file(tmp_path, "once") == ONCE
