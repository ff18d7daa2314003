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


class RenderGrant(models.Model):
    """Who may fetch a render by its id, and for as long as what granted it holds.

    A render is keyed by content, so the owner's print and a share-link holder's print of
    the same sheet are one row; each way in is a grant of its own, checked on every fetch
    (``printing.access``):

    - no army: a sheet anyone may ask for (a rule set's QRS, a document posted to the API);
    - an army and no token: the army's owner (or the visitor whose draft it is), while the
      army is not deleted;
    - an army and a share token: anyone holding the render id, while that token is still
      the army's link (a new link, sharing off or a deleted army ends it).
    """

    render = models.ForeignKey(Render, on_delete=models.CASCADE, related_name="grants")
    army = models.ForeignKey("armies.Army", null=True, blank=True, on_delete=models.CASCADE)
    share_token = models.CharField(max_length=64, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["render"],
                condition=models.Q(army__isnull=True),
                name="render_grant_public_once",
            ),
            models.UniqueConstraint(
                fields=["render", "army", "share_token"],
                condition=models.Q(army__isnull=False),
                name="render_grant_army_once",
            ),
        ]

    def __str__(self) -> str:
        if self.army_id is None:
            return f"{self.render_id}: anyone"
        return f"{self.render_id}: army {self.army_id} ({'link' if self.share_token else 'owner'})"
