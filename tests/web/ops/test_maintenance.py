"""The worker's scheduled housekeeping (ops/maintenance.py): one chain of runs however many
workers start, each pruning what is old and queueing the next."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from armybuilder.armies.models import Army
from armybuilder.ops import maintenance
from armybuilder.ops.models import Scheduled
from tests.support import example


@pytest.mark.django_db(transaction=True)
def test_the_worker_prunes_abandoned_drafts_on_a_schedule(settings):
    settings.TASKS = {"default": settings.TASK_BACKENDS["database"]}
    from django_tasks_db.models import DBTaskResult

    old = timezone.now() - timedelta(seconds=settings.SESSION_COOKIE_AGE + 3600)
    document = example("dewitt-medieval-lance-and-bow.json")
    abandoned = Army.objects.create(session_key="gone" * 8, document=document)
    fresh = Army.objects.create(session_key="here" * 8, document=document)
    Army.objects.filter(pk=abandoned.pk).update(updated=old)

    maintenance.ensure_scheduled()
    maintenance.ensure_scheduled()  # a second worker starting queues no second run
    assert DBTaskResult.objects.count() == 1

    call_command("db_worker", "--batch", "--no-startup-delay", "--queue-name", "default")

    assert not Army.objects.filter(pk=abandoned.pk).exists()
    assert Army.objects.filter(pk=fresh.pk).exists()
    row = Scheduled.objects.get(name="maintenance")
    assert row.last_result.startswith("pruned 1 abandoned draft")
    assert "0 old stored PDFs" in row.last_result
    assert "purged 0 deleted armies" in row.last_result
    upcoming = DBTaskResult.objects.get(id=row.task_id)
    assert upcoming.status == "READY"
    assert upcoming.run_after > timezone.now() + timedelta(minutes=30)
