"""The worker's side of an event's PDFs, never made in a web process: the pack (its
progress written as each sheet is done) and the flyer, both kept in the database where
every web process reads them."""

from __future__ import annotations

import logging

from django.tasks import task
from django.template.loader import render_to_string
from django.utils import timezone

import rules
from armybuilder.events.models import Event, Flyer, Pack
from armybuilder.events.pack import make_pack_pdf
from armybuilder.events.presenters import event_words
from armybuilder.events.rechecks import recheck_event
from armybuilder.printing.pdf import PrintError, render_pdf
from armybuilder.printing.services import qr_svg

logger = logging.getLogger(__name__)


@task
def make_pack(pack_id: int) -> str:
    claimed = Pack.objects.filter(pk=pack_id, status=Pack.QUEUED).update(status=Pack.RENDERING)
    if not claimed:
        return "skipped"
    pack = Pack.objects.select_related("event").get(pk=pack_id)

    def progress(done: int, total: int, reused: int) -> None:
        Pack.objects.filter(pk=pack_id).update(done=done, total=total, reused=reused)

    try:
        pdf, reused = make_pack_pdf(pack.event, with_qrs=pack.with_qrs, progress=progress)
    except (PrintError, rules.MalformedDocument) as exc:
        Pack.objects.filter(pk=pack_id).update(
            status=Pack.FAILED, error=exc.message, finished=timezone.now()
        )
        return "failed"
    except Exception:
        logger.exception("pack %s failed", pack_id)
        Pack.objects.filter(pk=pack_id).update(
            status=Pack.FAILED,
            error="The pack could not be made; please try again.",
            finished=timezone.now(),
        )
        return "failed"
    Pack.objects.filter(pk=pack_id).update(
        status=Pack.READY, pdf=pdf, reused=reused, finished=timezone.now()
    )
    return "ready"


@task
def make_flyer(event_pk: int, url: str, key: str) -> str:
    """Render the event's one-page flyer into its ``Flyer`` row (``key``)."""
    event = Event.objects.filter(pk=event_pk).first()
    if event is None or not Flyer.objects.filter(key=key, finished__isnull=True).exists():
        return "skipped"
    html = render_to_string(
        "events/flyer.html",
        {"event": event, "words": event_words(event), "url": url, "qr": qr_svg(url)},
    )
    Flyer.objects.filter(key=key).update(pdf=render_pdf(html), finished=timezone.now())
    Flyer.objects.filter(event=event).exclude(key=key).delete()  # the event changed since
    return "ready"


@task
def recheck_submissions(event_pk: int, by_id: int | None, change: str) -> str:
    """Check every held submission of the event again after its rules changed."""
    event = Event.objects.filter(pk=event_pk).first()
    if event is None:
        return "skipped"
    return f"{recheck_event(event, by_id, change)} changed"
