"""Request bodies: refused as soon as their size is known, read to the end when chunked.

Each URL has a body limit (``body_limit``): the army document's size for the API's document
posts, that plus the form around the file for the import form, Django's own
``DATA_UPLOAD_MAX_MEMORY_SIZE`` for everything else. ``RequestSizeMiddleware`` answers 413
before anything reads the body when ``Content-Length`` is over the limit, so a 1 GB upload
is neither received nor spooled to disk; Django's CSRF check would otherwise parse the whole
multipart body before the view could look at the file.

A chunked body (``Transfer-Encoding: chunked``, no ``Content-Length``) has no size until it
ends. Django's WSGI request reads ``CONTENT_LENGTH`` bytes, which is 0 then, so the body
would look empty: the middleware reads it itself, to the end but never past the limit and
within ``MUSTER_BODY_READ_SECONDS``, and hands it on as an ordinary body with its length. It
does this only where the server has already removed the chunk framing and ends the stream
(``wsgi.input_terminated``, as gunicorn and ASGI servers do); a server that does neither
(Django's ``runserver``) leaves the body unread, as before.

Under ``make run`` the server layer (``armybuilder/asgi.py``) reads every body in its event
loop first: over the URL's limit, or past the body deadline, it stops receiving, hands Django
an empty body with the request marked (``REFUSED``), and the middleware answers the same 413,
or 408. Waiting for the body there costs no worker thread, only the deadline.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable, MutableMapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve

CHUNK = 64 * 1024
# The import form posts the file inside a multipart body: boundaries, part headers and the
# CSRF token field come to a few hundred bytes, so this allowance is generous.
FORM_ALLOWANCE = 16 * 1024
# URL name -> what is posted there: the army document itself, or a form carrying it as a file
DOCUMENT_BODIES = frozenset({"api:check", "api:roster_pdf", "api:qrs_pdf"})
DOCUMENT_UPLOADS = frozenset({"armies:import"})
# WSGI environ key: the server layer left this body unread, "large" (413) or "slow" (408)
REFUSED = "muster.body_refused"


class BodyRefused(Exception):
    """A body that will not be read: too large (413) or too slow (408)."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BodyTooLarge(BodyRefused):
    status = 413


class BodyTooSlow(BodyRefused):
    status = 408


def document_limit() -> int:
    return int(settings.MUSTER_MAX_DOCUMENT_BYTES)


def url_name(path: str) -> str | None:
    try:
        return resolve(path).view_name
    except Resolver404:
        return None


def body_limit(name: str | None) -> int:
    """The largest body, in bytes, the URL named ``name`` reads."""
    if name in DOCUMENT_BODIES:
        return document_limit()
    if name in DOCUMENT_UPLOADS:
        return document_limit() + FORM_ALLOWANCE
    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)


def smallest_limit() -> int:
    """A body no larger than this is within every URL's limit."""
    return min(document_limit(), int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE))


def body_seconds() -> float:
    """How long a client may take to send its body (``MUSTER_BODY_READ_SECONDS``)."""
    return float(getattr(settings, "MUSTER_BODY_READ_SECONDS", 10))


def declared_length(meta: MutableMapping[str, Any]) -> int | None:
    """Content-Length as a number; None when absent (MalformedHeadersMiddleware refuses junk)."""
    try:
        return int(str(meta.get("CONTENT_LENGTH") or "").split(",")[0])
    except ValueError:
        return None


def is_chunked(meta: MutableMapping[str, Any]) -> bool:
    coding = str(meta.get("HTTP_TRANSFER_ENCODING", "")).lower()
    return "chunked" in coding and declared_length(meta) is None


def _chunked_reader(request: HttpRequest) -> Callable[[int], bytes] | None:
    """Where a chunked body can be read to its end, or None when it cannot be, safely."""
    if hasattr(request, "scope"):  # ASGI: Django holds the whole (limited) body already
        return request.read
    stream = request.META.get("wsgi.input")
    if request.META.get("wsgi.input_terminated") and stream is not None:
        return stream.read  # the server dechunks and ends the stream (gunicorn)
    return None


def read_body(request: HttpRequest, limit: int) -> bytes:
    """The body, never more than ``limit`` bytes, within ``body_seconds()``.

    BodyTooLarge past the limit, BodyTooSlow past the deadline. A client that declares more
    bytes than it sends would otherwise hold a worker until the server gives up: under
    gunicorn the socket itself gets the deadline as its timeout (``gunicorn.socket``), so
    even a read that never returns ends; every server also has the deadline checked between
    chunks. A chunked body is read to its end (see the module's note).
    """
    if hasattr(request, "_body"):  # already read (e.g. by the middleware)
        return request.body
    read = request.read
    if is_chunked(request.META):
        read = _chunked_reader(request) or read
    seconds = body_seconds()
    deadline = time.monotonic() + seconds
    sock = request.META.get("gunicorn.socket")
    if not (hasattr(sock, "settimeout") and hasattr(sock, "gettimeout")):
        sock = None
    before = sock.gettimeout() if sock is not None else None
    if sock is not None:
        sock.settimeout(seconds)
    chunks: list[bytes] = []
    size = 0
    try:
        while True:
            # never ask for more than one byte past the limit: a stream that passes it is
            # refused then, not after waiting for bytes a blocking read would want
            chunk = read(min(CHUNK, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise BodyTooLarge(f"the body is larger than {limit} bytes")
            if time.monotonic() > deadline:
                raise BodyTooSlow(f"the request body took longer than {seconds:g} seconds")
    except (TimeoutError, OSError) as exc:
        raise BodyTooSlow(f"the request body did not arrive within {seconds:g} seconds") from exc
    finally:
        if sock is not None:
            sock.settimeout(before)
    return b"".join(chunks)


def refusal(request: HttpRequest, name: str | None, error: BodyRefused) -> HttpResponse:
    """The answer to a refused body: JSON under /api/, the player's page elsewhere."""
    limit = body_limit(name)
    if request.path.startswith("/api/"):
        message = error.message
        if isinstance(error, BodyTooLarge) and name in DOCUMENT_BODIES:
            message = f"the document is larger than {limit} bytes"  # as read_json_body says
        return JsonResponse({"error": message, "path": ""}, status=error.status)
    if isinstance(error, BodyTooSlow):
        title, message = "Too slow", f"The upload did not arrive in time: {error.message}."
    elif name in DOCUMENT_UPLOADS:
        # the import form's own refusal (armies.services.read_upload), said before reading
        title, most = "This file is too large", document_limit() // 1024
        size = declared_length(request.META)
        shown = f"{max(1, size // 1024)} KiB" if size is not None else f"over {most} KiB"
        message = f"The file is {shown}; an army document is at most {most} KiB."
    else:
        title = "Too large"
        message = f"The request is larger than this page accepts ({limit // 1024} KiB)."
    try:
        body = render_to_string(
            "error.html", {"status": error.status, "title": title, "message": message}
        )
    except Exception:  # never let the error page be the next error
        body = f"<h1>{error.status} {title}</h1><p>{message}</p>"
    return HttpResponse(body, status=error.status)


class RequestSizeMiddleware:
    """413 before the body is read when it is known to be too large; chunked bodies read."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        declared = declared_length(request.META)
        refused = request.META.get(REFUSED)  # armybuilder.asgi left the body unread
        chunked = is_chunked(request.META) and _chunked_reader(request) is not None
        if not (refused or chunked or (declared or 0) > smallest_limit()):
            return self.get_response(request)  # most requests: no URL lookup needed
        name = url_name(request.path_info)
        limit = body_limit(name)
        if refused == "slow":
            seconds = body_seconds()
            message = f"the request body did not arrive within {seconds:g} seconds"
            return refusal(request, name, BodyTooSlow(message))
        if refused or (declared is not None and declared > limit):
            return refusal(request, name, BodyTooLarge(f"the body is larger than {limit} bytes"))
        if chunked:
            try:
                body = read_body(request, limit)
            except BodyRefused as exc:
                return refusal(request, name, exc)
            # from here on an ordinary body of known length (forms, the API, request.body)
            request._body = body
            request._stream = io.BytesIO(body)
            request.META["CONTENT_LENGTH"] = str(len(body))
        return self.get_response(request)
