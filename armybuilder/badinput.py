"""Control characters in a URL: a path holding one is a 404, a query a 400, before any
view sees them; a method the URL's view does not take is a 405 (``MethodsMiddleware``).

No route, slug, token or search of Muster has a control character in it, and PostgreSQL
refuses a NUL in a text value (an error, a 500) where SQLite just finds nothing; so a
path with one (``/s/%00/``) is nothing, on every database, and a query with one
(``?q=%00``) is a request that could not be understood. Unicode's ``Cc`` category: C0
(NUL, tab, newline…), DEL and C1.
"""

from __future__ import annotations

import functools
import inspect
import unicodedata
from collections.abc import Callable
from typing import Any

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


# What a view that declares no methods serves: Django's admin pages read GET and POST.
UNDECLARED = ("GET", "HEAD", "POST")


@functools.cache
def allowed_methods(view: Callable[..., Any]) -> tuple[str, ...] | None:
    """The methods ``view`` declares: those of Django's ``require_http_methods`` (and its
    ``require_GET``, ``require_POST``, ``require_safe``) wherever it sits in the view's
    decorators, or a class-based view's handlers; None when it declares none. The decorator
    keeps its list only in its closure, so that is where it is read."""
    seen: set[int] = set()
    current: Any = view
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        view_class = getattr(current, "view_class", None)
        if view_class is not None:
            names = [m for m in view_class.http_method_names if hasattr(view_class, m)]
            if "get" in names and "head" not in names:
                names.append("head")  # View.setup answers HEAD with get
            return tuple(m.upper() for m in names)
        if inspect.isfunction(current):
            declared = inspect.getclosurevars(current).nonlocals.get("request_method_list")
            if declared is not None:
                return tuple(declared)
        current = getattr(current, "__wrapped__", None)
    return None


class MethodsMiddleware:
    """405, with ``Allow``, for a method the URL's view does not take, before the CSRF
    check or a log-in redirect: a ``QUERY``, ``PUT`` or ``DELETE`` (or any method no one
    has heard of) is not a refused form post, and a page that only shows (``/``) is not
    a form to post to. The view's own declaration is the list, so it cannot drift."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> HttpResponse | None:
        allowed = allowed_methods(view) or UNDECLARED
        if request.method in allowed:
            return None
        response = errors._respond(
            request,
            405,
            "Not allowed here",
            f"This address answers {', '.join(allowed)} only, not {request.method}.",
        )
        response["Allow"] = ", ".join(allowed)
        return response
