"""Reading a posted army document strictly: size, time, encoding, JSON, then the parser."""

import time
from typing import Any

from django.conf import settings
from django.http import HttpRequest, JsonResponse

from rules.document import load_json
from rules.errors import MalformedDocument


class BadBody(Exception):
    def __init__(self, status: int, message: str, path: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.path = path

    def response(self) -> JsonResponse:
        return JsonResponse({"error": self.message, "path": self.path}, status=self.status)


def read_json_body(request: HttpRequest) -> Any:
    """The request body as JSON, or BadBody (413 over the limit, 400 otherwise)."""
    limit = settings.MUSTER_MAX_DOCUMENT_BYTES
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared > limit:
        raise BadBody(413, f"the document is larger than {limit} bytes")
    body = read_body(request, limit)
    if len(body) > limit:
        raise BadBody(413, f"the document is larger than {limit} bytes")
    if not body.strip():
        raise BadBody(400, "the request body is empty; post an army document as JSON")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadBody(400, "the request body is not UTF-8 text") from exc
    try:
        return load_json(text)
    except MalformedDocument as exc:
        raise BadBody(400, f"the request body is {exc.message}") from None


def body_seconds() -> float:
    """How long a client may take to send its body (``MUSTER_BODY_READ_SECONDS``)."""
    return float(getattr(settings, "MUSTER_BODY_READ_SECONDS", 10))


def read_body(request: HttpRequest, limit: int) -> bytes:
    """The body, read in chunks with a deadline: BadBody 408 when the client is too slow.

    A client that declares more bytes than it sends would otherwise hold a worker until
    the server gives up. Under gunicorn the socket itself gets the deadline as its timeout
    (``gunicorn.socket``), so even a read that never returns ends; every server also has
    the deadline checked between chunks. (Behind a proxy, its own body timeout, e.g.
    nginx's ``client_body_timeout``, ends a stalled upload before it reaches Muster.)
    """
    if hasattr(request, "_body"):  # already read (e.g. by a middleware)
        return request.body
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
            chunk = request.read(64 * 1024)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise BadBody(413, f"the document is larger than {limit} bytes")
            if time.monotonic() > deadline:
                raise BadBody(408, f"the request body took longer than {seconds:g} seconds")
    except (TimeoutError, OSError) as exc:
        raise BadBody(408, f"the request body did not arrive within {seconds:g} seconds") from exc
    finally:
        if sock is not None:
            sock.settimeout(before)
    return b"".join(chunks)
