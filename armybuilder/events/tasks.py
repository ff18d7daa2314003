"""The worker's side of an event's PDFs, never made in a web process: the pack (its
progress written as each sheet is done) and the flyer, both kept in the database where
every web process reads them."""

from __future__ import annotations

from typing import Any

from django.db.models import F
from django.tasks import task
from django.template.loader import render_to_string
from django.utils import timezone

from armybuilder.events.models import Event, Flyer, Pack
from armybuilder.events.pack import make_pack_pdf
from armybuilder.events.presenters import event_words
from armybuilder.events.rechecks import recheck_event
from armybuilder.printing import jobstate
from armybuilder.printing.pdf import render_pdf
from armybuilder.printing.services import qr_svg


@task
def make_pack(pack_id: int) -> str:
    row = Pack.objects.filter(pk=pack_id)
    if not jobstate.claim(row):
        return "skipped"
    pack = Pack.objects.select_related("event").get(pk=pack_id)

    def progress(done: int, total: int, reused: int) -> None:
        row.update(done=done, total=total, reused=reused)

    def make() -> dict[str, Any]:
        pdf, reused = make_pack_pdf(pack.event, with_qrs=pack.with_qrs, progress=progress)
        return {"pdf": pdf, "reused": reused}

    return jobstate.finish(
        row,
        make,
        what=f"pack {pack_id}",
        unexpected="The pack could not be made; please try again.",
    )


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
    try:
        return f"{recheck_event(event, by_id, change)} changed"
    finally:  # the pages' "re-checking…" ends with the last re-check asked for
        Event.objects.filter(pk=event_pk).update(rechecks_done=F("rechecks_done") + 1)
