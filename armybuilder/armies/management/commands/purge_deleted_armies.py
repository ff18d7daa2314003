"""``python manage.py purge_deleted_armies``: remove armies deleted more than 30 days ago.

The same as ``armies.making.lifecycle.purge_deleted_armies``, which a worker may schedule instead.
"""

from typing import Any

from django.core.management.base import BaseCommand

from armybuilder.armies.making import lifecycle
from armybuilder.armies.models import RESTORE_DAYS


class Command(BaseCommand):
    help = f"Delete for good the armies deleted more than {RESTORE_DAYS} days ago."

    def handle(self, *args: Any, **options: Any) -> None:
        count = lifecycle.purge_deleted_armies()
        self.stdout.write(f"purged {count} deleted arm{'y' if count == 1 else 'ies'}")
