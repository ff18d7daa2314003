"""Reading a posted JSON body strictly (the API's and the print views' army documents): size,
time, encoding, JSON, then the parser."""

from typing import Any

from django.conf import settings
from django.http import HttpRequest, JsonResponse

from armybuilder import requestsize
from rules.document import load_json
from rules.errors import MalformedDocument


class BadOperation(ValueError):
    """One operation of a posted batch (an army's, a list's, a game's) that does not read:
    a missing key, an unknown op, a value of the wrong kind; ``message`` names the field
    at fault and what it may be."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


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
    declared = requestsize.declared_length(request.META) or 0
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


def read_body(request: HttpRequest, limit: int) -> bytes:
    """The body, read in chunks with a deadline (``armybuilder.requestsize.read_body``):
    BadBody 408 when the client is too slow, 413 past ``limit``. A chunked body (no
    Content-Length) is read to its end. (Behind a proxy, its own body timeout, e.g.
    nginx's ``client_body_timeout``, ends a stalled upload before it reaches Muster.)
    """
    try:
        return requestsize.read_body(request, limit)
    except requestsize.BodyTooLarge:
        raise BadBody(413, f"the document is larger than {limit} bytes") from None
    except requestsize.BodyRefused as exc:
        raise BadBody(exc.status, exc.message) from exc
