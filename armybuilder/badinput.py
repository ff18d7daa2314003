"""Control characters in a URL: a path holding one is a 404, a query a 400, before any
view sees them.

No route, slug, token or search of Muster has a control character in it, and PostgreSQL
refuses a NUL in a text value (an error, a 500) where SQLite just finds nothing; so a
path with one (``/s/%00/``) is nothing, on every database, and a query with one
(``?q=%00``) is a request that could not be understood. Unicode's ``Cc`` category: C0
(NUL, tab, newline…), DEL and C1.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from armybuilder import errors


def has_control(text: str) -> bool:
    return any(unicodedata.category(c) == "Cc" for c in text)


class ControlCharactersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if has_control(request.path):
            return errors.not_found(request)
        for key, values in request.GET.lists():
            if has_control(key) or any(has_control(v) for v in values):
                return errors._respond(
                    request,
                    400,
                    "Bad request",
                    f"{key if not has_control(key) else 'A query parameter'}: control "
                    "characters (such as NUL or a line break) are not allowed in an address.",
                )
        return self.get_response(request)
