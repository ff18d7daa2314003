"""Reading a posted army document strictly: size, encoding, JSON, then the parser."""

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
    body = request.body
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
