"""The event's printed files: the one-page A4 flyer (name, date, place, code, QR)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse

from armybuilder.events import selectors
from armybuilder.events.presenters import event_words
from armybuilder.printing.pdf import html_to_pdf
from armybuilder.printing.services import qr_svg


def flyer(request: HttpRequest, code: str) -> HttpResponse:
    """Anyone holding the code may print the flyer: it shows only what the event page
    shows. Rendered in the request: one small page with no roster to lay out."""
    event = selectors.event_or_404(code)
    url = request.build_absolute_uri(reverse("events:event", args=[event.code]))
    html = render_to_string(
        "events/flyer.html",
        {"event": event, "words": event_words(event), "url": url, "qr": qr_svg(url)},
    )
    response = HttpResponse(html_to_pdf(html), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="event-{event.code}-flyer.pdf"'
    response["Cache-Control"] = "private, no-store"
    return response
