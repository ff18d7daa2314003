"""The event's flyer: one A4 page with its name, date, place, code and a QR of its link.

Like every PDF, it is made by the background worker, never in a web process: the first
request queues it and answers a page that waits for it (htmx asks again; without
JavaScript a link does). The PDF is kept in the database (``Flyer``) under a key of
everything it shows, so every web process sees it and it is made once per version of the
event; never in a process's own cache, which the worker's and the web's do not share.
"""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django_htmx.http import HttpResponseClientRedirect

from armybuilder import throttle
from armybuilder.events import selectors
from armybuilder.events.models import Event, Flyer
from armybuilder.events.tasks import make_flyer

QUEUED_SECONDS = 120  # a flyer queued this long ago and not made is queued again


def flyer_url(request: HttpRequest, event: Event) -> str:
    return request.build_absolute_uri(reverse("events:event", args=[event.code]))


def _key(event: Event, url: str) -> str:
    shown = [event.name, event.date, event.place, event.code, event.ruleset, event.points_limit,
             event.deadline, event.time_zone, url]  # fmt: skip
    text = json.dumps(shown, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _queue(request: HttpRequest, event: Event, url: str, key: str) -> HttpResponse | None:
    """Queue the flyer unless it is queued (and recent) already; a 429 when over the limit."""
    now = timezone.now()
    stale = now - timedelta(seconds=QUEUED_SECONDS)
    found = Flyer.objects.filter(key=key).defer("pdf").first()
    if found is not None and (found.finished is not None or found.queued > stale):
        return None
    # a render queued counts against the PDF limit; the waiting page's polls do not
    limited = throttle.check(request, "pdf")
    if limited:
        return throttle.too_many(request, limited)
    try:
        with transaction.atomic():
            if found is None:
                Flyer.objects.create(event=event, key=key, queued=now)
            elif not Flyer.objects.filter(pk=found.pk, queued__lte=stale).update(queued=now):
                return None  # another request queued it again just now
    except IntegrityError:  # another request queued it first
        return None
    make_flyer.enqueue(event.pk, url, key)
    return None


def flyer(request: HttpRequest, code: str) -> HttpResponse:
    """Anyone holding the code may print the flyer: it shows only what the event page does."""
    event = selectors.event_or_404(code)
    url = flyer_url(request, event)
    key = _key(event, url)
    ready = Flyer.objects.filter(key=key, finished__isnull=False).first()
    if ready is None:
        refused = _queue(request, event, url, key)
        if refused is not None:
            return refused
        # made already when the queue runs tasks at once (make dev)
        ready = Flyer.objects.filter(key=key, finished__isnull=False).first()
    if ready is not None and request.htmx:  # the waiting page: now open the PDF itself
        return HttpResponseClientRedirect(request.path)
    if ready is not None:
        response = HttpResponse(bytes(ready.pdf), content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="event-{event.code}-flyer.pdf"'
        return response
    template = "events/flyer_wait.html#wait" if request.htmx else "events/flyer_wait.html"
    return render(request, template, {"event": event}, status=202)
