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
