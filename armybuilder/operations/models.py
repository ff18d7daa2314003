"""The one ledger of applied one-time keys, whatever the operation changed."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class AppliedKey(models.Model):
    """An operation's one-time key, applied to one subject (an army, an army list, a game),
    written in the transaction that made its change: sent again (a lost answer, a queue
    replayed after a reload, a second tab sending the device's queue), it is answered
    "duplicate" and changes nothing. The subject is named by its kind and primary key,
    not by a foreign key, so this app stays below the apps whose rows it names (primary
    keys are never given twice, so a deleted subject's keys name nothing and go with the
    housekeeping's ``ledger.prune``)."""

    subject = models.CharField(max_length=16, help_text="army, list or game")
    subject_id = models.BigIntegerField()
    key = models.CharField(max_length=64)
    # what the subject's version was once the change was made (an army's version, a list's
    # revision, a game's action number): what a duplicate is answered with
    version = models.BigIntegerField(null=True, blank=True)
    # a default, not auto_now_add: keys moved in from the old ledgers keep their time
    created = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["subject", "subject_id", "key"], name="applied_key_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.subject} {self.subject_id}: {self.key}"
