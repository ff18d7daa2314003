"""POST <list>/operations/: the list editor's operations, as JSON, in order.

Answers ``{version, results: [{key, status, message, target, field, theirs}], html}``:
each operation's outcome (``list_operations``: applied, duplicate, conflict, gone,
refused) and the editor drawn after the batch (the last refusal at its field), which the
page puts in place once none of its changes are waiting."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST

from armybuilder.catalog import list_operations
from armybuilder.catalog.list_editor import RESENT, TEMPLATE, shape_or_404
from armybuilder.catalog.list_page_controls import editor_context
from armybuilder.catalog.list_views import authored_list_or_404
from armybuilder.jsonbody import BadBody, read_json_body

MOST_AT_ONCE = 200


@require_POST
def operations(request: HttpRequest, slug: str, list_slug: str) -> HttpResponse:
    army_list = authored_list_or_404(request, slug, list_slug)
    ruleset, shape = shape_or_404(slug)
    try:
        body = read_json_body(request)
    except BadBody as exc:
        return exc.response()
    raw = body.get("operations") if isinstance(body, dict) else None
    if not isinstance(raw, list) or not 1 <= len(raw) <= MOST_AT_ONCE:
        return JsonResponse(
            {"error": f"operations: a list of 1 to {MOST_AT_ONCE} operations"}, status=400
        )
    try:
        changes = [list_operations.change_of(one) for one in raw]
    except list_operations.BadOperation as exc:
        return JsonResponse({"error": str(exc)}, status=400)
    results, refusal, done, refused = [], None, "", None
    for change in changes:
        outcome = list_operations.run(request.user, army_list, ruleset, shape, change)
        results.append(
            {"key": change.key, "status": outcome.status, "message": outcome.message,
             "target": change.target, "field": change.field, "section": change.section,
             "theirs": outcome.theirs}
        )  # fmt: skip
        if outcome.refusal is not None:
            refusal, refused = outcome.refusal, change
        done = outcome.done or done
    army_list.refresh_from_db()
    context = editor_context(ruleset, shape, army_list, refusal, done)
    if refused is not None:
        # the refusal's buttons ("Use 4", a "Then ..." step) post the change again with it
        context["resend"] = [(k, v) for k, v in refused.form_fields() if k not in RESENT]
    html = render_to_string(f"{TEMPLATE}#editor", context, request=request)
    response = JsonResponse(
        {"version": army_list.latest_revision, "results": results, "html": html}
    )
    return response
