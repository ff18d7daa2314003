"""The worker's schedule: which recurring task is queued next (one row per job)."""

from django.db import models


class Scheduled(models.Model):
    """A recurring task's next queued run, so starting more workers queues no second chain."""

    name = models.CharField(max_length=100, unique=True)
    task_id = models.CharField(max_length=64, blank=True, default="")
    run_after = models.DateTimeField(null=True, blank=True)
    last_run = models.DateTimeField(null=True, blank=True)
    last_result = models.TextField(blank=True, default="")

    def __str__(self) -> str:
        return self.name


class WorkerBeat(models.Model):
    """A worker process's heartbeat: written every few seconds while it runs.

    ``/healthz/workers`` reads the newest one (no worker seen for 30 s: 503). ``render`` is the
    render the worker is making now: its lease, so a render whose worker stopped beating
    is queued again instead of waiting forever.
    """

    worker = models.CharField(max_length=100, unique=True, help_text="host:pid:start token")
    host = models.CharField(max_length=100)
    pid = models.IntegerField()
    started = models.DateTimeField()
    seen = models.DateTimeField(db_index=True)
    render = models.CharField(max_length=64, blank=True, default="")
    waiting = models.CharField(
        max_length=200,
        blank=True,
        default="",
        help_text="Why the worker is waiting instead of working (the queue is away), if it is.",
    )

    def __str__(self) -> str:
        return self.worker
