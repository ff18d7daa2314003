"""Counters shared by every web process (rate limits and log-in lock-out) when there is no
Redis: one row per key, changed by single atomic SQL statements (``counters.py``)."""

from django.db import models


class Counter(models.Model):
    key = models.CharField(max_length=255, primary_key=True)
    # A count, or the time (seconds since the epoch) a lock-out ends.
    value = models.FloatField()
    # Seconds since the epoch after which the row counts as gone (culled now and then).
    expires = models.FloatField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key} = {self.value:g}"
