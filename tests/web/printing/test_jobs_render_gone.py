"""A render deleted while the request that asked for it is still running (pruned from the
store, an army deleted, the test database emptied under a late request) is answered "try
again" (503, as when the queue is away), never as a server error; asked again, it is made
anew."""

from __future__ import annotations

import pytest
from django.test import Client

from armybuilder.printing import jobs
from armybuilder.printing.models import Render

pytestmark = pytest.mark.django_db
URL = "/rulesets/into-the-dark/qrs.pdf?paper=letter"


class GoneOnceQueued:
    """The render task, whose row is deleted as soon as it is queued."""

    def __init__(self, task):
        self.task = task

    def enqueue(self, render_pk):
        result = self.task.enqueue(render_pk)
        Render.objects.filter(pk=render_pk).delete()
        return result


def test_a_render_deleted_as_it_is_queued_is_no_server_error(monkeypatch):
    real = jobs.render_sheet
    monkeypatch.setattr(jobs, "render_sheet", GoneOnceQueued(real))
    answer = Client().get(URL)
    assert answer.status_code == 503 and b"please try again" in answer.content
    monkeypatch.setattr(jobs, "render_sheet", real)
    again = Client().get(URL)
    assert again.status_code == 200 and again["Content-Type"] == "application/pdf"
