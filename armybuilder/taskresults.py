"""What the tasks backends raise for a task id they do not know, for every app that asks
a queued task's result (printing's renders, ops's scheduled maintenance)."""

from __future__ import annotations

from django.tasks.exceptions import TaskResultDoesNotExist


def _missing_result_errors() -> tuple[type[Exception], ...]:
    """Django's own class, and the django-tasks backport's, which the RQ and database
    backends raise when it is installed (e.g. after Redis lost its data: the stored id
    points at nothing)."""
    found: list[type[Exception]] = [TaskResultDoesNotExist]
    try:
        from django_tasks.exceptions import TaskResultDoesNotExist as Backport
    except ImportError:
        pass
    else:
        found.append(Backport)
    return tuple(found)


MISSING_RESULT = _missing_result_errors()
