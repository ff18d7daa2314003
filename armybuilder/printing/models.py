"""Stored PDF renders: one row per distinct sheet (document content + sheet + paper + ...).

A render is asked for by the web process and made by the worker (``printing.tasks``). The
row keeps the inputs, the state a player watches (queued -> rendering -> ready / failed)
and, once ready, the PDF itself, so a repeat print is instant and survives a restart.
"""

import uuid

from django.db import models


class Render(models.Model):
    QUEUED = "queued"
    RENDERING = "rendering"
    READY = "ready"
    FAILED = "failed"
    STATES = [(QUEUED, "Queued"), (RENDERING, "Rendering"), (READY, "Ready"), (FAILED, "Failed")]

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    key = models.CharField(max_length=80, unique=True, help_text="Digest of all the inputs.")
    spec = models.JSONField(help_text="What to render: the document or rule set, sheet, paper.")
    filename = models.CharField(max_length=200)
    status = models.CharField(max_length=12, choices=STATES, default=QUEUED)
    error = models.TextField(blank=True, default="")
    pdf = models.BinaryField(null=True, blank=True, editable=False)
    task_id = models.CharField(max_length=64, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)
    queued = models.DateTimeField(help_text="When the current attempt was queued.")
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["created"], name="render_created")]

    def __str__(self) -> str:
        return f"{self.filename} ({self.status})"

    @property
    def pending(self) -> bool:
        return self.status in (self.QUEUED, self.RENDERING)
