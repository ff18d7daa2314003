"""Friendly error pages: JSON under /api/, HTML elsewhere; never a stack trace."""

import sys

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string


def _respond(request: HttpRequest, status: int, title: str, message: str) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"error": message, "path": ""}, status=status)
    try:
        body = render_to_string(
            "error.html", {"status": status, "title": title, "message": message}, request
        )
    except Exception:  # a broken template must not hide the error page itself
        body = f"<h1>{status} {title}</h1><p>{message}</p>"
    return HttpResponse(body, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _respond(request, 400, "Bad request", "The request could not be understood.")


def forbidden(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _respond(request, 403, "Not allowed", "This page is not open to you.")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: a refused form post, said as a player reads it (never Django's
    page, whose inline style our Content-Security-Policy would refuse anyway)."""
    return _respond(
        request,
        403,
        "Not sent",
        "This page's security check did not match: it was open for a long time, or this "
        "browser's cookies were cleared or are blocked. Nothing was saved. Reload the page "
        "(with cookies allowed for this site) and try again.",
    )


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _respond(request, 404, "Not found", "There is nothing at this address.")


def server_error(request: HttpRequest) -> HttpResponse:
    from armybuilder import outage

    # called while the exception is handled: an outage (database, cache, queue) is a 503
    if outage.is_outage(sys.exc_info()[1]):
        return outage.unavailable(request)
    return _respond(
        request, 500, "Something went wrong", "The error has been logged. Please try again."
    )
