"""The workers' test job (ops/probe.py): /healthz/workers tells a queue whose workers beat but
cannot run jobs (a worker started with the wrong job class fails every job) from one whose
workers do."""

from datetime import timedelta

import pytest
from django.tasks import default_task_backend
from django.utils import timezone

from armybuilder.ops import probe
from armybuilder.ops.models import Scheduled, WorkerBeat


@pytest.fixture
def kept_queue(settings):
    """A queue that keeps what is sent and runs nothing, as when no worker can run it."""
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
    default_task_backend.clear()
    return default_task_backend


def a_worker_beating_since(minutes):
    now = timezone.now()
    return WorkerBeat.objects.create(
        worker="elsewhere:4242:x", host="elsewhere", pid=4242,
        started=now - timedelta(minutes=minutes), seen=now,
    )  # fmt: skip


def probes(queue):
    return [r for r in queue.results if r.task.name == "probe"]


def test_healthz_is_503_when_the_workers_beat_but_have_run_no_job(client, db, kept_queue):
    a_worker_beating_since(minutes=5)
    assert probe.send_if_due()  # sent on a beat; nobody runs it
    response = client.get("/healthz/workers")
    assert response.status_code == 503
    body = response.json()
    assert body["queue"].startswith("error: the workers run no jobs: none ran for ")
    assert body["queue"].endswith(" s (database)")
    assert body["worker"]["test_job_ran_seconds_ago"] is None

    probes(kept_queue)[0].task.call()  # a worker that can run jobs takes it
    response = client.get("/healthz/workers")
    assert response.status_code == 200
    assert response.json()["queue"] == "ok (database)"
    assert 0 <= response.json()["worker"]["test_job_ran_seconds_ago"] < 5


def test_a_worker_that_just_started_is_given_time_to_run_its_first_test_job(client, db, kept_queue):
    a_worker_beating_since(minutes=0)
    probe.send_if_due()
    assert client.get("/healthz/workers").status_code == 200


def test_healthz_is_503_when_the_last_test_job_ran_longer_ago_than_allowed(client, db, settings):
    settings.MUSTER_PDF_TIME_LIMIT = 60
    a_worker_beating_since(minutes=10)
    Scheduled.objects.create(name=probe.NAME, last_run=timezone.now() - timedelta(seconds=120))
    assert (
        client.get("/healthz/workers").status_code == 503
    )  # 30 s silent + one 60 s render allowed
    Scheduled.objects.filter(name=probe.NAME).update(
        last_run=timezone.now() - timedelta(seconds=60)
    )
    assert client.get("/healthz/workers").status_code == 200


def test_one_probe_is_in_flight_and_the_next_follows_once_it_ran(db, kept_queue):
    now = timezone.now()
    assert probe.send_if_due(now)
    assert not probe.send_if_due(now + timedelta(seconds=5))  # another worker's beat: none
    assert len(probes(kept_queue)) == 1
    probes(kept_queue)[0].task.call()
    assert not probe.send_if_due(now + timedelta(seconds=5))  # ran; the next in 10 s
    assert probe.send_if_due(now + timedelta(seconds=11))
    assert len(probes(kept_queue)) == 2


def test_a_probe_that_never_ran_is_sent_again_before_healthz_would_give_up(db, kept_queue):
    now = timezone.now()
    assert probe.send_if_due(now)
    assert not probe.send_if_due(now + timedelta(seconds=20))
    assert probe.send_if_due(now + timedelta(seconds=31))  # lost, e.g. Redis lost its data
    assert probe.allowance() > 31


def test_probes_go_ahead_of_the_renders_on_the_database_queue(db, settings):
    from django.tasks.base import TASK_MAX_PRIORITY
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": settings.TASK_BACKENDS["database"]}
    probe.send_if_due()
    (sent,) = DBTaskResult.objects.filter(task_path="armybuilder.ops.probe.probe")
    assert sent.priority == TASK_MAX_PRIORITY


def test_on_rq_the_worker_takes_probes_before_renders(settings):
    from armybuilder.ops.management.commands.muster_worker import RQ_QUEUES

    assert RQ_QUEUES == (probe.QUEUE, "default")
    assert probe.QUEUE in settings.TASK_BACKENDS["rq"]["QUEUES"]
    assert probe.QUEUE in settings.RQ_QUEUES


def test_housekeeping_prunes_the_test_jobs_the_database_queue_kept(db, settings):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": settings.TASK_BACKENDS["database"]}
    settings.MUSTER_TASK_BACKEND = "database"
    now = timezone.now()
    assert probe.send_if_due(now - timedelta(hours=2))
    assert probe.send_if_due(now)  # unanswered for two hours: sent again
    old, new = DBTaskResult.objects.filter(task_path="armybuilder.ops.probe.probe")
    DBTaskResult.objects.filter(pk=old.pk).update(finished_at=now - timedelta(hours=2))
    DBTaskResult.objects.filter(pk=new.pk).update(finished_at=now)
    assert probe.prune(now) == 1
    assert list(DBTaskResult.objects.values_list("pk", flat=True)) == [new.pk]
