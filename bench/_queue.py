"""A task queue the bench holds in this process: enqueued tasks wait here until the
bench, standing in for the worker, runs them when they are due."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from django.tasks.backends.dummy import DummyBackend


class HeldBackend(DummyBackend):
    # one list for every thread: the live server's thread enqueues, the bench runs them
    held: ClassVar[list[Any]] = []

    def enqueue(self, task: Any, args: Any, kwargs: Any) -> Any:
        result = super().enqueue(task, args, kwargs)
        HeldBackend.held.append(result)
        return result

    @classmethod
    def due(cls, now: datetime) -> list[Any]:
        """The held tasks whose time has come, taken off the list."""
        ready = [r for r in cls.held if r.task.run_after is None or r.task.run_after <= now]
        cls.held[:] = [r for r in cls.held if r not in ready]
        return ready
