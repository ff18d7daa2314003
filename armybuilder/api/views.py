"""JSON API: thin shells over the same core function as the CLI and the pages."""

import hashlib

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import condition, require_POST, require_safe

import rules
from armybuilder.api import openapi
from armybuilder.catalog import selectors, services
from armybuilder.catalog.views import ruleset_or_404
from armybuilder.jsonbody import BadBody, read_json_body
from rules.combat_request import answer, work_out


@csrf_exempt  # stateless: reads no cookies, changes nothing
@require_POST
def check(request: HttpRequest) -> JsonResponse:
    try:
        _, report = services.check_document(read_json_body(request))
    except BadBody as exc:
        return exc.response()
    except rules.MalformedDocument as exc:
        return JsonResponse(exc.to_json(), status=400)
    return JsonResponse(report.to_json())


@csrf_exempt  # stateless, as the check: one combat in, its hits out
@require_POST
def hits(request: HttpRequest) -> JsonResponse:
    """One combat worked out by the same engine as ``muster hits``."""
    try:
        ruleset, result = work_out(read_json_body(request))
    except BadBody as exc:
        return exc.response()
    except rules.MalformedDocument as exc:
        return JsonResponse(exc.to_json(), status=400)
    return JsonResponse(answer(ruleset, result))


@csrf_exempt  # as above: so another method is 405, not a CSRF refusal
@require_safe
def rulesets(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"rulesets": [r.summary_json() for r in rules.all_rulesets()]})


@csrf_exempt
@require_safe
def ruleset(request: HttpRequest, slug: str) -> JsonResponse:
    data = ruleset_or_404(slug).vocabulary()
    data["army_lists"] = [selectors.list_json(al) for al in selectors.lists_for(slug)]
    return JsonResponse(data)


def _openapi_etag(request: HttpRequest) -> str:
    return hashlib.sha256(openapi.document_bytes()).hexdigest()[:32]


@csrf_exempt
@require_safe
@condition(etag_func=_openapi_etag)
def openapi_json(request: HttpRequest) -> HttpResponse:
    """The OpenAPI 3.1 description of this API (armybuilder/api/openapi.py builds it)."""
    response = HttpResponse(openapi.document_bytes(), content_type="application/json")
    response["Cache-Control"] = "public, max-age=3600"
    return response
