"""JSON API for army lists: read one as a ``muster.list/1`` document, import one, copy one.

Reading needs nothing for a public list, the share token (``?token=``) for a list shared
by link, and the author's (or staff's) signed-in session for a private one: anyone else
gets 404, as for a private army. Import and copy change the database for the signed-in
player, so they are session requests and keep Django's CSRF check (no ``csrf_exempt``).
"""

import hashlib
import json

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import path, reverse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.views.decorators.http import require_POST, require_safe

import rules
from armybuilder.catalog import selectors, services
from armybuilder.catalog.models import ArmyList
from armybuilder.jsonbody import BadBody, read_json_body


def _not_found() -> JsonResponse:
    return JsonResponse({"error": "no such army list", "path": ""}, status=404)


def _readable(request: HttpRequest, ruleset: str, slug: str) -> tuple[ArmyList | None, str]:
    token = request.GET.get("token", "")
    army_list = selectors.get_list(ruleset, slug=slug)
    if army_list is None or not services.can(
        request.user, action="view", army_list=army_list, token=token
    ):
        return None, token
    return army_list, token


@require_safe
def list_document(request: HttpRequest, ruleset: str, slug: str) -> HttpResponse:
    """The list (``?revision=N``: that revision) as a ``muster.list/1`` document."""
    army_list, _ = _readable(request, ruleset, slug)
    if army_list is None:
        return _not_found()
    revision = None
    wanted = request.GET.get("revision")
    if wanted is not None:
        if not wanted.isdigit() or len(wanted) > 9:
            return JsonResponse(
                {"error": "revision: must be a whole number, e.g. ?revision=1", "path": ""},
                status=400,
            )
        revision = selectors.get_revision(army_list, number=int(wanted))
        if revision is None:
            return JsonResponse(
                {
                    "error": f"revision: this list has revisions 1 to {army_list.latest_revision}",
                    "path": "",
                },
                status=404,
            )
    document = services.export_document(army_list, revision=revision)
    body = json.dumps(document, ensure_ascii=False, sort_keys=False)
    etag = '"' + hashlib.sha256(body.encode("utf-8")).hexdigest()[:32] + '"'
    response = get_conditional_response(request, etag=etag) or HttpResponse(
        body, content_type="application/json"
    )
    response["ETag"] = etag
    if army_list.is_public:
        # kept, but asked again each time (a 304 while unchanged): a list made private
        # must be gone at once, not a minute later from a cache
        patch_cache_control(response, public=True, no_cache=True)
    else:
        patch_cache_control(response, private=True, no_cache=True)
    return response


def _saved(saved: services.Saved) -> JsonResponse:
    army_list = saved.army_list
    url = reverse("api:list", kwargs={"ruleset": army_list.ruleset, "slug": army_list.slug})
    response = JsonResponse(
        {"url": url, "document": services.export_document(army_list, revision=saved.revision)},
        status=201,
    )
    response["Location"] = url
    return response


def _signed_in(request: HttpRequest) -> JsonResponse | None:
    if not request.user.is_authenticated:
        return JsonResponse(
            {"error": "sign in to keep army lists of your own", "path": ""}, status=403
        )
    return None


@require_POST
def import_list(request: HttpRequest) -> JsonResponse:
    """A ``muster.list/1`` document posted as JSON becomes a new private list of the
    signed-in player; a refusal names the path at fault and saves nothing."""
    refused = _signed_in(request)
    if refused is not None:
        return refused
    try:
        return _saved(services.import_list(request.user, raw=read_json_body(request)))
    except BadBody as exc:
        return exc.response()
    except rules.MalformedDocument as exc:
        return JsonResponse(exc.to_json(), status=400)
    except ValidationError as exc:  # the model's own checks, after the parser's
        return JsonResponse({"error": " ".join(exc.messages), "path": ""}, status=400)


@require_POST
def copy_list(request: HttpRequest, ruleset: str, slug: str) -> JsonResponse:
    """A private copy, for the signed-in player, of a list they may read."""
    refused = _signed_in(request)
    if refused is not None:
        return refused
    army_list, token = _readable(request, ruleset, slug)
    if army_list is None:
        return _not_found()
    try:
        return _saved(services.copy_list(request.user, army_list=army_list, token=token))
    except services.ListRefused as exc:
        return JsonResponse({"error": str(exc), "path": ""}, status=403)
    except rules.MalformedDocument as exc:  # a stored list its rule set no longer accepts
        return JsonResponse(exc.to_json(), status=400)


urlpatterns = [
    path("", import_list, name="list_import"),
    path("<slug:ruleset>/<slug:slug>", list_document, name="list"),
    path("<slug:ruleset>/<slug:slug>/copy", copy_list, name="list_copy"),
]
