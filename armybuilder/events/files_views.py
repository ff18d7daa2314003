"""The event's flyer: one A4 page with its name, date, place, code and a QR of its link.

Like every PDF, it is made by the background worker, never in a web process: the first
request queues it and answers a page that waits for it (htmx asks again; without
JavaScript a link does); the PDF is then kept in the cache under a key of everything it
shows, so it is made once per version of the event.
"""

from __future__ import annotations

import hashlib
import json

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect

from armybuilder import throttle
from armybuilder.events import selectors
from armybuilder.events.models import Event
from armybuilder.events.tasks import flyer_key, make_flyer

QUEUED_SECONDS = 120  # a queued flyer is not queued again for this long


def flyer_url(request: HttpRequest, event: Event) -> str:
    return request.build_absolute_uri(reverse("events:event", args=[event.code]))


def _key(event: Event, url: str) -> str:
    shown = [event.name, event.date, event.place, event.code, event.ruleset, event.points_limit,
             event.deadline, event.time_zone, url]  # fmt: skip
    text = json.dumps(shown, default=str, ensure_ascii=False)
    return flyer_key(hashlib.sha256(text.encode()).hexdigest())


def flyer(request: HttpRequest, code: str) -> HttpResponse:
    """Anyone holding the code may print the flyer: it shows only what the event page does."""
    event = selectors.event_or_404(code)
    url = flyer_url(request, event)
    key = _key(event, url)
    pdf = cache.get(key)
    if pdf is None and not cache.get(f"{key}:queued"):
        # a render queued counts against the PDF limit; the waiting page's polls do not
        limited = throttle.hit("pdf", throttle.client_address(request))
        if limited:
            return throttle.too_many(request, limited)
        if cache.add(f"{key}:queued", 1, QUEUED_SECONDS):
            make_flyer.enqueue(event.pk, url, key)
        pdf = cache.get(key)  # made already when the queue runs tasks at once (make dev)
    if isinstance(pdf, bytes) and request.htmx:  # the waiting page: now open the PDF itself
        return HttpResponseClientRedirect(request.path)
    if isinstance(pdf, bytes):
        response = HttpResponse(pdf, content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="event-{event.code}-flyer.pdf"'
        return response
    template = "events/flyer_wait.html#wait" if request.htmx else "events/flyer_wait.html"
    return render(request, template, {"event": event}, status=202)
