"""The pack: one PDF with a cover page listing every approved army and its total, then
each approved roster in entrant order, made by the worker with progress, reusing rosters
already rendered."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.urls import reverse
from freezegun import freeze_time
from pypdf import PdfReader

from armybuilder.events import services
from armybuilder.events.models import Pack, Submission
from armybuilder.printing.services import SavedArmy, army_sheet_pdf
from tests.web.events.helpers import DEADLINE, make_event, player, saved_army

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = make_event(player("org"))
    for name in ("zed", "amy", "max"):  # joined in this order: the pack's order
        entrant = services.join(event, user=player(name))
        with freeze_time(DEADLINE - timedelta(hours=1)):
            services.submit(
                entrant, army=saved_army(entrant.user, name=f"Host of {name}"), by=entrant.user
            )
    Submission.objects.exclude(entrant__user__username="max").update(state=Submission.APPROVED)
    return event


def pages_text(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def test_the_pack_is_a_cover_then_each_approved_roster_in_entrant_order(client, event):
    client.force_login(event.organiser)
    client.post(reverse("events:pack", args=[event.code]))
    pack = Pack.objects.get(event=event)
    assert pack.status == Pack.READY and (pack.done, pack.total) == (2, 2)
    page = client.get(reverse("events:pack", args=[event.code])).content.decode()
    assert "Download the pack" in page
    pdf = client.get(reverse("events:pack_pdf", args=[event.code, pack.pk])).content
    texts = pages_text(pdf)
    cover = texts[0]
    assert cover.index("Host of zed") < cover.index("Host of amy")
    assert "Host of max" not in "".join(texts)  # not approved
    assert "Viking (Great Army), revision 1" in cover
    rosters = [t for t in texts[1:] if "Host of" in t]
    assert [r.split("Host of ")[1].split()[0] for r in rosters] == ["zed", "amy"]


def test_rosters_already_rendered_are_reused(client, event):
    zed = Submission.objects.get(entrant__user__username="zed")
    army_sheet_pdf(
        {**zed.document, "list_revisions": zed.list_revisions},
        sheet="roster",
        paper="a4",
        saved=SavedArmy(zed.entrant.user_id),
    )
    client.force_login(event.organiser)
    client.post(reverse("events:pack", args=[event.code]))
    assert Pack.objects.get(event=event).reused == 1
    client.post(reverse("events:pack", args=[event.code]))
    assert Pack.objects.filter(event=event).first().reused == 2


def test_the_pack_with_qrs_adds_each_armys_reference_sheet(client, event):
    client.force_login(event.organiser)
    client.post(reverse("events:pack", args=[event.code]), {"qrs": "1"})
    pack = Pack.objects.get(event=event)
    assert (pack.done, pack.total) == (4, 4)


def test_while_it_is_made_the_page_shows_its_progress(client, event, settings):
    settings.TASKS = {"default": settings.TASK_BACKENDS["database"]}  # queued, not run
    client.force_login(event.organiser)
    client.post(reverse("events:pack", args=[event.code]))
    page = client.get(reverse("events:pack", args=[event.code]), headers={"HX-Request": "true"})
    assert 'value="0"' in page.content.decode() and "0 of 2 sheets" in page.content.decode()
    pack = Pack.objects.get(event=event)
    assert client.get(reverse("events:pack_pdf", args=[event.code, pack.pk])).status_code == 404
