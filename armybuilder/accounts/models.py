"""Accounts' own tables: the counters of the rate limits and the log-in lock-out (one row
per key, changed by single atomic SQL statements: ``counters.py``), the looks of the
usernames (``names.py``), and the log of every use of the support permission."""

from django.conf import settings
from django.db import models


class Counter(models.Model):
    key = models.CharField(max_length=255, primary_key=True)
    # A count, or the time (seconds since the epoch) a lock-out ends.
    value = models.FloatField()
    # Seconds since the epoch after which the row counts as gone (culled now and then).
    expires = models.FloatField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key} = {self.value:g}"


class NameLook(models.Model):
    """One way an account's name looks (``names.look_alike_keys``, stored as its SHA-256):
    unique, so no two accounts can hold one, even signing up at the same moment in two
    processes. Kept by ``names`` whenever an account is made or renamed."""

    key = models.CharField(max_length=64, primary_key=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="name_looks"
    )

    def __str__(self) -> str:
        return f"{self.key[:12]}… of account {self.user_id}"


class SupportAccess(models.Model):
    """One use of the support permission: someone read or changed a player's private
    content (a list or an army) that only its author may otherwise see.

    Staff are not owners: a private list or army is invisible to them (404, and absent
    from the admin) unless they hold ``accounts.support_private``, granted on purpose to
    a named account; every use of it writes one of these rows (``accounts.support``).
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    action = models.CharField(max_length=40, help_text="What was done: view, edit, copy...")
    what = models.CharField(max_length=200, help_text="The list or army, as the admin names it.")
    owner = models.CharField(max_length=150, blank=True, help_text="Whose content it was.")

    class Meta:
        ordering = ["-at"]
        verbose_name_plural = "support accesses"
        permissions = [
            (
                "support_private",
                "Can see and change players' private lists and armies (every use is logged)",
            )
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.user}: {self.action} {self.what}"
