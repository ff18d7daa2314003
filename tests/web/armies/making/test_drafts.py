"""Visitors' drafts: an atomic per-session cap, a global cap, pruning."""

import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.db import OperationalError, close_old_connections, connection
from django.utils import timezone

from armybuilder.armies import services
from armybuilder.armies.making import drafts
from armybuilder.armies.models import Army
from tests.support import ROOT

DOCUMENT = json.dumps(
    {"format": "muster.army/1", "name": "Raced", "ruleset": "into-the-dark", "units": []}
).encode()


def _import_in_thread(barrier: threading.Barrier, session_key: str) -> str:
    barrier.wait()
    try:
        for _attempt in range(500):  # SQLite's in-memory test database: see below
            try:
                services.import_document(DOCUMENT, session_key=session_key)
                return "created"
            except services.DraftLimitReached:
                return "refused"
            except OperationalError as exc:
                # The test database on SQLite is in-memory with a shared cache, whose
                # table locks answer at once instead of waiting like a file database
                # does; the import is then retried, as a real server's busy wait would.
                if "locked" not in str(exc):
                    raise
                time.sleep(0.005)
        return "gave up"
    finally:
        close_old_connections()
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_forty_parallel_imports_from_one_session_never_exceed_the_cap(settings):
    settings.MUSTER_MAX_DRAFTS = 5
    barrier = threading.Barrier(40)
    with ThreadPoolExecutor(max_workers=40) as pool:
        results = list(pool.map(lambda _: _import_in_thread(barrier, "racer"), range(40)))
    stored = Army.objects.filter(owner__isnull=True, session_key="racer").count()
    assert stored == 5, (connection.vendor, results)
    assert results.count("created") == 5
    assert results.count("refused") == 35


def test_forty_parallel_imports_never_exceed_the_cap_on_a_sqlite_file(tmp_path):
    """As a real SQLite server holds it: a database file, each thread its own connection."""
    if connection.vendor != "sqlite":
        pytest.skip("the file-based race is SQLite's; PostgreSQL runs the test above")
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.web.armies.race_drafts_sqlite_file",
            str(tmp_path / "race.db"),
            "5",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["5", "5", "35"]


@pytest.mark.django_db
def test_the_global_cap_refuses_a_new_session_with_a_message(settings):
    settings.MUSTER_MAX_VISITOR_DRAFTS = 3
    for n in range(3):
        services.import_document(DOCUMENT, session_key=f"cookie-{n}")
    with pytest.raises(services.DraftLimitReached, match="Sign up"):
        services.import_document(DOCUMENT, session_key="cookie-dropped")
    assert Army.objects.filter(owner__isnull=True).count() == 3


@pytest.mark.django_db
def test_the_global_cap_prunes_abandoned_drafts_before_refusing(settings):
    settings.MUSTER_MAX_VISITOR_DRAFTS = 2
    old = [services.import_document(DOCUMENT, session_key=f"gone-{n}") for n in range(2)]
    Army.objects.filter(pk__in=[a.pk for a in old]).update(
        updated=timezone.now() - timedelta(days=400)
    )
    fresh = services.import_document(DOCUMENT, session_key="new-visitor")
    assert list(Army.objects.filter(owner__isnull=True)) == [fresh]


@pytest.mark.django_db
def test_drafts_are_pruned_on_schedule_every_so_many_creations(settings):
    settings.MUSTER_DRAFT_PRUNE_EVERY = 3
    gone = services.import_document(DOCUMENT, session_key="old")
    Army.objects.filter(pk=gone.pk).update(updated=timezone.now() - timedelta(days=400))
    services.import_document(DOCUMENT, session_key="a")
    assert Army.objects.filter(pk=gone.pk).exists()
    services.import_document(DOCUMENT, session_key="b")  # the third draft issued: prune
    assert not Army.objects.filter(pk=gone.pk).exists()
    assert drafts.abandoned_drafts().count() == 0


@pytest.mark.django_db
def test_an_account_is_not_capped(settings, user):
    settings.MUSTER_MAX_DRAFTS = 1
    settings.MUSTER_MAX_VISITOR_DRAFTS = 1
    for _ in range(3):
        services.import_document(DOCUMENT, owner=user)
    assert Army.objects.filter(owner=user).count() == 3


def _new_draft(client, name: str):
    return client.post("/armies/new/", {"ruleset": "into-the-dark", "name": name})


def _live_drafts(session_key: str) -> int:
    return Army.objects.filter(owner__isnull=True, session_key=session_key, deleted_at=None).count()


@pytest.mark.django_db
def test_restoring_a_deleted_draft_over_the_cap_is_refused_and_it_stays_restorable(
    client, settings
):
    settings.MUSTER_MAX_DRAFTS = 3
    for i in range(3):
        assert _new_draft(client, f"Draft {i}").status_code == 302
    first = Army.objects.order_by("pk").first()
    key = first.session_key
    client.post(f"/armies/{first.pk}/delete/")
    assert _new_draft(client, "Draft 3").status_code == 302  # the deleted one left room
    response = client.post(f"/armies/{first.pk}/restore/", follow=True)
    assert "Draft 0 was not restored. You already have 3 drafts." in response.content.decode()
    assert _live_drafts(key) == 3
    first.refresh_from_db()
    assert first.deleted_at is not None
    second = Army.objects.filter(session_key=key, deleted_at=None).order_by("pk").first()
    client.post(f"/armies/{second.pk}/delete/")
    assert client.post(f"/armies/{first.pk}/restore/").status_code == 302
    first.refresh_from_db()
    assert first.deleted_at is None and _live_drafts(key) == 3


@pytest.mark.django_db
def test_deleting_and_restoring_drafts_never_beats_the_cap(client, settings):
    settings.MUSTER_MAX_DRAFTS = 5
    for i in range(5):
        _new_draft(client, f"Draft {i}")
    key = Army.objects.first().session_key
    for i in range(10):  # delete one, make one in its room, try to bring the old one back
        old = Army.objects.filter(session_key=key, deleted_at=None).order_by("pk").first()
        client.post(f"/armies/{old.pk}/delete/")
        _new_draft(client, f"More {i}")
        client.post(f"/armies/{old.pk}/restore/")
        assert _live_drafts(key) == 5
