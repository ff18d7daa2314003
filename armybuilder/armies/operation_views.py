"""``POST /armies/<pk>/operations/``: a batch of operations (``armies.operations``) in
JSON, applied in order, each once; the answer says what became of each one and the
army's version after them. What a page's queue of unsent changes replays."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_POST

from armybuilder.armies import operations, selectors
from rules.document import load_json
from rules.errors import MalformedDocument


@require_POST
def apply(request: HttpRequest, pk: int) -> JsonResponse:
    army = selectors.owned_army_or_404(request, pk)
    try:
        batch = operations.parse_operations(load_json(request.body.decode("utf-8")), army.pk)
    except UnicodeDecodeError:
        return JsonResponse({"error": "the body is not UTF-8 text"}, status=400)
    except MalformedDocument as exc:
        return JsonResponse({"error": exc.message}, status=400)
    except operations.BadOperation as exc:
        return JsonResponse({"error": exc.message}, status=400)
    army, outcomes = operations.apply_operations(army, batch)
    response = JsonResponse({"version": army.version, "results": [o.to_json() for o in outcomes]})
    response["Cache-Control"] = "private, no-store"
    return response
