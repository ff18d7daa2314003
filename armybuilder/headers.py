"""Malformed request headers answer 400 with a message, never 500.

Django already tolerates most malformed headers (a bad Host is a 400, a broken multipart
body is a 400). This middleware, first in the chain, refuses the rest before any other
code reads them: a ``Content-Length`` that is not one non-negative whole number (``abc``,
``-5``, or two different lengths joined by a proxy), and any header value with a control
character in it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

_LENGTH = re.compile(r"[0-9]{1,18}")  # ASCII digits only: int() reads "١٢" too
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def header_problem(request: HttpRequest) -> str | None:
    """What is malformed in the request's headers, or None."""
    length = request.META.get("CONTENT_LENGTH")
    if length not in (None, ""):
        values = {v.strip() for v in str(length).split(",")}
        if len(values) != 1 or not _LENGTH.fullmatch(next(iter(values))):
            return "the Content-Length header must be one whole number of bytes"
    for key, value in request.META.items():
        if (key.startswith("HTTP_") or key in ("CONTENT_TYPE", "CONTENT_LENGTH")) and (
            isinstance(value, str) and _CONTROL.search(value)
        ):
            name = key.removeprefix("HTTP_").replace("_", "-").title()
            return f"the {name} header contains a control character"
    return None


def bad_headers(request: HttpRequest, problem: str) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"error": f"malformed request: {problem}", "path": ""}, status=400)
    try:
        body = render_to_string(
            "error.html",
            {"status": 400, "title": "Bad request", "message": f"Malformed request: {problem}."},
        )
    except Exception:  # never let the error page be the next error
        body = f"<h1>400 Bad request</h1><p>Malformed request: {problem}.</p>"
    return HttpResponse(body, status=400)


class MalformedHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        problem = header_problem(request)
        if problem:
            return bad_headers(request, problem)
        return self.get_response(request)
