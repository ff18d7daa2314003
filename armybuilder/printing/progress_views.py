"""Background printing over HTTP: the builder's print panel, the progress page, downloads.

A PDF request finds the stored render (``printing.jobs``) or queues it for the worker.
Browsers watch ``/prints/<id>/``: with htmx the progress partial polls itself every second
(queued -> rendering -> ready, with the elapsed time) and ``static/js/print.js`` then starts
the download; without JavaScript the page refreshes itself and shows a download link. API
clients get ``202 Accepted`` with a status URL, then the PDF from that URL.

A render's id is a random UUID known only to whoever asked for it, and it answers only while
what led to it holds (``printing.access``): the owner's own army, a live share link, or a
sheet anyone may ask for; anyone else gets 404.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from uuid import UUID

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

import rules
from armybuilder import throttle
from armybuilder.armies.builder.presenters import share_url
from armybuilder.armies.making.files import exported
from armybuilder.armies.models import Army
from armybuilder.armies.selectors import owned_army_or_404
from armybuilder.nostore import no_store
from armybuilder.printing import access, jobs, services
from armybuilder.printing.models import Render


def render_pdf_response(render_obj: Render) -> HttpResponse:
    cached = not getattr(render_obj, "queued_now", False)
    return pdf_response(bytes(render_obj.pdf), render_obj.filename, cached)


def pdf_response(pdf: bytes, filename: str, cached: bool = True) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = services.content_disposition(filename)
    response["X-Muster-Cache"] = "hit" if cached else "miss"
    return no_store(response)


def status_url(render_obj: Render) -> str:
    return reverse("printing:status", args=[render_obj.pk])


def api_status_url(render_obj: Render) -> str:
    return reverse("printing:api_status", args=[render_obj.pk])


def browser_response(
    request: HttpRequest, render_obj: Render, version: int | None = None
) -> HttpResponse:
    """A PDF link's answer: the PDF when ready, else the progress page (or the error).
    ``version``: the army's version the sheet is made from, named on the progress panel."""
    if request.htmx:  # the print panel: progress (or "ready"), never PDF bytes in a swap
        return _progress(request, render_obj, version=version)
    if render_obj.status == Render.READY:
        return render_pdf_response(render_obj)
    if render_obj.status == Render.FAILED:
        return _progress(request, render_obj, status=400)
    return redirect(status_url(render_obj), permanent=False)


def api_response(render_obj: Render) -> HttpResponse:
    """The API's answer: the PDF, 202 with the status URL, or 400 naming the failure."""
    if render_obj.status == Render.READY:
        return render_pdf_response(render_obj)
    if render_obj.status == Render.FAILED:
        return JsonResponse(
            {"error": render_obj.error, "path": "", "status": render_obj.status}, status=400
        )
    url = api_status_url(render_obj)
    response = JsonResponse(
        {
            "status": render_obj.status,
            "status_url": url,
            "elapsed_seconds": jobs.elapsed_seconds(render_obj),
        },
        status=202,
    )
    response["Location"] = url
    response["Retry-After"] = "1"
    return response


def _version(request: HttpRequest) -> int | None:
    """The army version a polling panel was started for (it names it while it polls)."""
    text = request.GET.get("version", "")
    return int(text) if text.isdigit() and len(text) <= 12 else None


def _progress(
    request: HttpRequest, render_obj: Render, status: int = 200, version: int | None = None
) -> HttpResponse:
    return _progress_page(request, render_obj, status, version=version, urls=(
        status_url(render_obj), reverse("printing:download", args=[render_obj.pk])))  # fmt: skip


def progress_at(request: HttpRequest, render_obj: Render, url: str) -> HttpResponse:
    """A sheet whose one URL is also its progress page (a game's summary, reached only
    through the game's own URLs, never by the render's id): the PDF when it is ready and
    the page asks for it, else the progress (polled at ``url``), or the failure with
    "Try again" (``url?retry=1``)."""
    if render_obj.status == Render.READY and not request.htmx:
        return render_pdf_response(render_obj)
    status = 400 if render_obj.status == Render.FAILED else 202 if render_obj.pending else 200
    return _progress_page(request, render_obj, status if not request.htmx else 200,
                          urls=(url, url))  # fmt: skip


def _progress_page(
    request: HttpRequest,
    render_obj: Render,
    status: int = 200,
    *,
    urls: tuple[str, str],
    version: int | None = None,
) -> HttpResponse:
    watched, download = urls
    context = {
        "version": version,
        "render": render_obj,
        "elapsed": jobs.elapsed_seconds(render_obj),
        "status_url": watched,
        "download_url": download,
        "retry_url": watched + "?retry=1",
        # an htmx panel saw it finish: static/js/print.js starts the download once
        "auto_download": bool(request.htmx),
    }
    if request.htmx:
        return render(request, "printing/progress.html#progress", context)
    return render(request, "printing/progress.html", context, status=status)


@require_safe
def print_status(request: HttpRequest, render_id: UUID) -> HttpResponse:
    render_obj = access.render_or_404(request, render_id)
    if request.GET.get("retry"):
        # queue a failed render once more, then watch the plain URL (a refresh never re-queues)
        guarded(request, lambda: jobs.retry(render_obj) and HttpResponse())
        return redirect(status_url(render_obj), permanent=False)
    return _progress(
        request,
        render_obj,
        status=400 if render_obj.status == Render.FAILED else 200,
        version=_version(request),
    )


@require_safe
def print_download(request: HttpRequest, render_id: UUID) -> HttpResponse:
    render_obj = access.render_or_404(request, render_id, with_pdf=True)
    if render_obj.status != Render.READY:
        return redirect(status_url(render_obj), permanent=False)
    return render_pdf_response(render_obj)


@csrf_exempt  # the API reads no cookies: another method is 405, not a CSRF refusal
@require_safe
def api_print_status(request: HttpRequest, render_id: UUID) -> HttpResponse:
    try:
        render_obj = access.render_or_404(request, render_id, with_pdf=True)
    except Http404:
        return JsonResponse({"error": "No such print job.", "path": ""}, status=404)
    return api_response(render_obj)


def pdf_charge(request: HttpRequest) -> Callable[[], None]:
    """What a render queued for this request costs: one of the asker's PDFs (a render
    already stored costs nothing, ``jobs``)."""
    return lambda: throttle.charge(request, "pdf")


def saved_army_render(
    request: HttpRequest, army: Army, sheet: str, extras: Iterable[str] = ()
) -> Render:
    """The render of one sheet of a saved army on the paper the request asks for."""
    return jobs.army_render(
        exported(army),  # with the list revisions it is checked against
        sheet,
        request.GET.get("paper", "a4"),
        charge=pdf_charge(request),
        share_url=army_share_url(request, army),
        extras=extras,
        saved=services.SavedArmy(army.owner_id),
    )


@require_safe
def army_print(request: HttpRequest, pk: int) -> HttpResponse:
    """The builder's print panel (sheet and paper chosen there): start, then show progress."""
    army = owned_army_or_404(request, pk)
    sheet = request.GET.get("sheet", "roster")
    return guarded(
        request,
        lambda: browser_response(
            request,
            access.for_owner(
                saved_army_render(request, army, sheet),
                army,
            ),
            # the army as it is now: the panel says which version it prints
            version=army.version,
        ),
    )


def guarded(
    request: HttpRequest, make: Callable[[], HttpResponse], *, api: bool = False
) -> HttpResponse:
    """Player-facing errors of a print request as a page (4xx), or for the API as JSON
    naming the path at fault; never a stack trace."""
    try:
        return make()
    except rules.MalformedDocument as exc:
        if api:
            return JsonResponse(exc.to_json(), status=400)
        return error_page(request, f"The army document is not valid: {exc.message}")
    except services.PrintError as exc:
        if api:
            return JsonResponse(exc.to_json(), status=exc.status)
        return error_page(request, exc.message, exc.status)


def error_page(request: HttpRequest, message: str, status: int = 400) -> HttpResponse:
    return render(
        request,
        "error.html",
        {"status": status, "title": "This sheet cannot be printed", "message": message},
        status=status,
    )


def army_share_url(request: HttpRequest, army: Army) -> str | None:
    """The army's share page as the roster's QR code and caption give it, or None."""
    return share_url(request, army.share_token) or None
