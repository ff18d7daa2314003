"""The worker's heartbeat, render leases and outage backoff (ops/heartbeat.py,
printing/jobs.py, the muster_worker command), without starting processes; the leases on
both queues, the database and Redis (RQ)."""

import json
import os
import subprocess
import sys
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import OperationalError
from django.utils import timezone

from armybuilder.ops import heartbeat
from armybuilder.ops.management.commands import muster_worker
from armybuilder.ops.models import WorkerBeat
from armybuilder.printing import jobs
from armybuilder.printing.models import Render
from tests.support import example
from tests.web.ops.redis_server import module_redis  # noqa: F401 (the rq queue's Redis)
from tests.web.printing.test_tasks import queue  # noqa: F401 (both queues, with a worker)


@pytest.fixture
def database_queue(settings):
    settings.TASKS = {"default": settings.TASK_BACKENDS["database"]}
    settings.MUSTER_TASK_BACKEND = "database"
    cache.clear()


def queued_render(client):
    response = client.post(
        "/api/v1/roster.pdf",
        json.dumps(example("dewitt-medieval-lance-and-bow.json")),
        content_type="application/json",
    )
    assert response.status_code == 202
    return Render.objects.get()


def claimed_by(render, *, worker_pid, seen_seconds_ago, started_seconds_ago=60):
    """The render as a worker left it mid-render, with that worker's last beat."""
    now = timezone.now()
    Render.objects.filter(pk=render.pk).update(
        status=Render.RENDERING, started=now - timedelta(seconds=started_seconds_ago)
    )
    WorkerBeat.objects.create(
        worker=f"{heartbeat.HOST}:{worker_pid}:x",
        host=heartbeat.HOST,
        pid=worker_pid,
        started=now - timedelta(minutes=5),
        seen=now - timedelta(seconds=seen_seconds_ago),
        render=str(render.pk),
    )
    render.refresh_from_db()
    return render


def a_dead_pid():
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    return int(done.stdout)


@pytest.mark.django_db(transaction=True)
def test_a_render_held_by_a_live_worker_is_left_alone(client, database_queue):
    render = claimed_by(queued_render(client), worker_pid=os.getpid(), seen_seconds_ago=2)
    assert jobs.requeue_lost() == 0
    render.refresh_from_db()
    assert render.status == Render.RENDERING
    # asking again, or asking to retry, returns the same render still in progress
    assert queued_render(client).status == Render.RENDERING
    assert jobs.retry(render).status == Render.RENDERING


@pytest.mark.django_db(transaction=True)
def test_a_render_whose_worker_stopped_beating_is_queued_again_and_finishes(client, queue):  # noqa: F811
    # a worker elsewhere that has not beaten for longer than the lease (15 s)
    render = claimed_by(queued_render(client), worker_pid=os.getpid(), seen_seconds_ago=20)
    WorkerBeat.objects.filter(render=str(render.pk)).update(host="another-machine")
    first_task = render.task_id
    assert jobs.requeue_lost() == 1
    render.refresh_from_db()
    assert render.status == Render.QUEUED and render.task_id != first_task
    assert jobs.requeue_lost() == 0  # queued once, not once per pass

    queue()  # the worker runs both tasks: the first finds the render no longer its own
    render.refresh_from_db()
    assert render.status == Render.READY and bytes(render.pdf).startswith(b"%PDF")


@pytest.mark.django_db(transaction=True)
def test_a_render_whose_worker_process_is_gone_is_queued_again_when_asked_for(
    client, database_queue
):
    # beaten a second ago, but its process on this machine no longer exists: no waiting
    render = claimed_by(queued_render(client), worker_pid=a_dead_pid(), seen_seconds_ago=1)
    again = queued_render(client)  # the player asks again
    assert again.pk == render.pk and again.status == Render.QUEUED


@pytest.mark.django_db(transaction=True)
def test_retry_queues_a_render_whose_worker_died(client, database_queue):
    render = claimed_by(queued_render(client), worker_pid=a_dead_pid(), seen_seconds_ago=1)
    assert jobs.retry(render).status == Render.QUEUED


@pytest.mark.django_db(transaction=True)
def test_a_render_just_claimed_is_not_taken_for_lost(client, database_queue):
    render = claimed_by(
        queued_render(client), worker_pid=a_dead_pid(), seen_seconds_ago=1, started_seconds_ago=1
    )
    assert not jobs.is_lost(render)


def lose_every_task(backend):
    """What a queue that lost its data looks like (Redis restarted empty)."""
    if backend == "rq":
        import django_rq

        django_rq.get_connection("default").flushdb()
    else:
        from django_tasks_db.models import DBTaskResult

        DBTaskResult.objects.all().delete()


@pytest.mark.django_db(transaction=True)
def test_a_queued_render_whose_task_the_queue_lost_is_queued_again(client, queue, settings):  # noqa: F811
    render = queued_render(client)
    lose_every_task(settings.MUSTER_TASK_BACKEND)
    Render.objects.filter(pk=render.pk).update(queued=timezone.now() - timedelta(seconds=20))
    assert jobs.requeue_lost() == 1
    render.refresh_from_db()
    assert render.task_id != "" and not jobs.is_lost(render)
    queue()
    render.refresh_from_db()
    assert render.status == Render.READY


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_names_the_render_it_holds_while_working_on_it(database_queue):
    beat = heartbeat.Heartbeat()
    heartbeat._current = beat
    try:
        with heartbeat.working_on("a-render-id"):
            row = WorkerBeat.objects.get(worker=beat.worker)
            assert row.render == "a-render-id" and row.pid == os.getpid()
        assert WorkerBeat.objects.get(worker=beat.worker).render == ""
    finally:
        heartbeat._current = None


@pytest.mark.django_db(transaction=True)
def test_the_worker_backs_off_through_an_outage_instead_of_exiting(monkeypatch, database_queue):
    runs, waits = [], []

    def backend(self, batch):
        runs.append(batch)
        if len(runs) < 4:
            raise OperationalError("could not connect to server")

    monkeypatch.setattr(muster_worker.Command, "run_backend", backend)
    monkeypatch.setattr(muster_worker.time, "sleep", waits.append)
    muster_worker.Command().work(batch=False)
    assert len(runs) == 4  # the fourth start ran until the backend stopped by itself
    assert waits == [1.0, 2.0, 4.0]


@pytest.mark.django_db(transaction=True)
def test_the_worker_lowers_its_cpu_priority(monkeypatch, database_queue):
    seen = []
    monkeypatch.setattr(muster_worker.Command, "work", lambda self, batch: seen.append(batch))
    monkeypatch.setattr(muster_worker, "lower_priority", lambda n: seen.append(("nice", n)) or n)
    call_command("muster_worker")
    assert seen == [("nice", 10), False]


@pytest.mark.django_db(transaction=True)
def test_a_batch_run_retries_a_few_times_then_gives_up(monkeypatch, database_queue):
    runs = []

    def backend(self, batch):
        runs.append(batch)
        raise OperationalError("database is locked")

    monkeypatch.setattr(muster_worker.Command, "run_backend", backend)
    monkeypatch.setattr(muster_worker.time, "sleep", lambda seconds: None)
    with pytest.raises(OperationalError):
        muster_worker.Command().work(batch=True)
    assert len(runs) == muster_worker.BATCH_ATTEMPTS
