"""The event's flyer: one A4 page with its name, date, place, code and a QR of its link."""

from __future__ import annotations

import io
from unittest import mock

import pytest
from django.core.cache import cache
from django.urls import reverse
from pypdf import PdfReader

from armybuilder.events import tasks
from tests.web.events.helpers import make_event, player

pytestmark = pytest.mark.django_db


def test_the_flyer_is_one_a4_page_with_the_events_facts_and_a_qr_of_its_link(client):
    event = make_event(player("org"), name="Hastings <Day> & Night", place="Battle Abbey")
    with mock.patch.object(tasks, "qr_svg", wraps=tasks.qr_svg) as qr:
        response = client.get(reverse("events:flyer", args=[event.code]))
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 1
    page = reader.pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (595, 842)
    text = page.extract_text()
    link = f"http://testserver/events/{event.code}/"
    for fact in ("Hastings <Day> & Night", "Battle Abbey", event.code, "Tuesday 8 June 2027", link):
        assert fact in text
    qr.assert_called_once_with(link)


def test_a_made_up_code_has_no_flyer(client):
    assert client.get(reverse("events:flyer", args=["NOSUCHCODE"])).status_code == 404


def test_the_flyer_is_made_by_the_worker_and_the_page_waits_for_it(client, settings):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": settings.TASK_BACKENDS["database"]}  # queued, not run
    event = make_event(player("org"))
    url = reverse("events:flyer", args=[event.code])
    waiting = client.get(url)
    again = client.get(url, headers={"HX-Request": "true"})
    assert waiting.status_code == 202 and "being made" in waiting.content.decode()
    assert again.status_code == 202
    (queued,) = DBTaskResult.objects.filter(task_path__endswith="make_flyer")  # queued once
    tasks.make_flyer.call(*queued.args_kwargs["args"])  # what the worker does
    cache.clear()  # another process: its own memory holds nothing of the worker's
    ready = client.get(url, headers={"HX-Request": "true"})
    assert ready["HX-Redirect"] == url
    assert client.get(url)["Content-Type"] == "application/pdf"
