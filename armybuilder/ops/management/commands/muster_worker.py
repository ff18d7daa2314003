"""``python manage.py muster_worker``: the background worker for the configured task backend.

Queues the scheduled housekeeping if it is not queued yet, then runs the worker of
``MUSTER_TASK_BACKEND``: django-tasks-db's ``db_worker`` (database) or django-rq's
``rqworker --with-scheduler`` (rq). One worker renders one PDF at a time, so the number of
workers caps concurrent renders; web pages are served by gunicorn and never wait on them.
"""

from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from armybuilder.ops.maintenance import ensure_scheduled


class Command(BaseCommand):
    help = "Run the background worker (PDF renders, scheduled housekeeping)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--batch", action="store_true", help="Work until the queue is empty, then stop."
        )

    def handle(self, *args: Any, batch: bool = False, **options: Any) -> None:
        ensure_scheduled()
        if settings.MUSTER_TASK_BACKEND == "rq":
            extra = ["--burst"] if batch else []
            call_command("rqworker", "default", "--with-scheduler", *extra)
        else:
            extra = ["--batch"] if batch else []
            call_command("db_worker", "--queue-name", "default", "--interval", "0.5", *extra)
