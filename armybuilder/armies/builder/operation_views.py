"""``POST /armies/<pk>/operations/``: a batch of operations (``armies.operations``) in
JSON, applied in order, each once. Every change the page's script makes comes here; the
body may name, in ``own``, the keys of the page's earlier operations (a change of theirs
saved since is the player's own, not a conflict). The answer says what became of each
operation and the army's version after them:

    {"version": <the army's version after the batch>,
     "follows": <the version the batch was applied onto, null if another save came between>,
     "results": [{"key", "status", "message"?, "value"?, "theirs"?, "version"?,
                  "target"?, "field"?, "html"?}],
     "html": "<out-of-band fragments>"}

``html`` (only when the request says ``HX-Request: true``) holds what the batch changed
and nothing else (``armies.answers``); a refused or conflicting result's ``html`` is the
message its field shows (with the conflict's choice)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_POST

from armybuilder.armies import selectors
from armybuilder.armies.builder import answers
from armybuilder.armies.changes import operations
from rules.document import load_json
from rules.errors import MalformedDocument


def _refused(message: str) -> JsonResponse:
    return JsonResponse({"error": message}, status=400)


@require_POST
# every answer is one player's army at one moment: no cache, shared or the browser's, keeps it
@cache_control(private=True, no_store=True)
def apply(request: HttpRequest, pk: int) -> JsonResponse:
    try:
        raw = load_json(request.body.decode("utf-8"))
        batch = operations.parse_operations(raw, pk)
        own = operations.parse_own(raw)
    except (UnicodeDecodeError, MalformedDocument, operations.BadOperation) as exc:
        selectors.army_to_change(request, pk)  # someone else's army: 404, whatever the body
        if isinstance(exc, UnicodeDecodeError):
            return _refused("the body is not UTF-8 text")
        return _refused(exc.message)
    army = selectors.army_to_change(request, pk)
    done = operations.apply_operations(army, batch, own=own)
    # the version the answer's drawing follows: the page applies it only onto that one
    answer: dict[str, object] = {"version": done.army.version, "follows": done.follows}
    if request.htmx:
        answer["results"] = [o.to_json() for o in answers.with_messages(request, done)]
        if done.follows is not None and not any(o.status == "duplicate" for o in done.outcomes):
            answer["html"] = answers.fragments(request, done)
        # else: sent again after a lost answer (a reload mid-send), or another writer's
        # save came in between: the page fetches the builder and morphs it in, so the
        # cards the player opened stay open.
    else:
        answer["results"] = [o.to_json() for o in done.outcomes]
    return JsonResponse(answer)
