"""The RQ job class ``muster_worker`` runs: django-tasks-rq's (which runs a Django task), on
fresh, checked database connections.

RQ's worker runs job after job in one process, and nothing closes Django's connections
between them (a web request has ``request_started``/``request_finished`` for that): after
a PostgreSQL restart every job would meet the closed connection ("the connection is
closed") until the worker was restarted by hand. Each job here begins and ends as a
request does, with ``close_old_connections``, so the first job after a restart opens a new
connection.
"""

from __future__ import annotations

from typing import Any

from django_tasks_rq import Job as TaskJob

from armybuilder.printing.tasks import fresh_connections


class Job(TaskJob):
    def perform(self) -> Any:
        fresh_connections()
        try:
            return super().perform()
        finally:
            fresh_connections()
