"""The organiser's pack: ask for it, watch its progress, download it."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from armybuilder.events import selectors
from armybuilder.events.models import Pack
from armybuilder.events.tasks import make_pack


def pack(request: HttpRequest, code: str) -> HttpResponse:
    """GET: the newest pack's progress (htmx polls the panel while it is being made).
    POST: queue a new pack of the approved armies as they are now."""
    event = selectors.organised_event_or_404(code, user=request.user)
    if request.method == "POST":
        made = Pack.objects.create(
            event=event, requested_by=request.user, with_qrs=request.POST.get("qrs") == "1"
        )
        made.total = len(selectors.approved_submissions(event)) * (2 if made.with_qrs else 1)
        made.save(update_fields=["total"])
        make_pack.enqueue(made.pk)
        return redirect(reverse("events:pack", args=[event.code]))
    newest = event.packs.defer("pdf").first()
    template = "events/pack.html#progress" if request.htmx else "events/pack.html"
    return render(
        request,
        template,
        {"event": event, "pack": newest, "approved": len(selectors.approved_submissions(event))},
    )


def pack_pdf(request: HttpRequest, code: str, pack: int) -> HttpResponse:
    event = selectors.organised_event_or_404(code, user=request.user)
    found = Pack.objects.filter(event=event, pk=pack, status=Pack.READY).first()
    if found is None:
        raise Http404("no such pack")
    response = HttpResponse(bytes(found.pdf), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="event-{event.code}-pack.pdf"'
    return response
