"""The list editor: one generic page for every rule set that describes its list shape
(``RuleSet.list_shape``), its controls generated from that description.

Each control's change is one operation (``static/js/list-editor.js`` sends them through
the change queue, durable and offline-proof; a Save button posts the form without
JavaScript), run by ``list_operations``: a new revision after the rule set's list
validator accepts it. A
refusal saves nothing and is shown at the field it concerns, with what the player typed,
the values allowed there and the nearest one (``list_refusals``). Undo and redo save an
earlier revision's content again, as a new revision (``list_history``).
"""

from __future__ import annotations

import copy

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.cache import get_conditional_response
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods

import rules
from armybuilder.catalog import list_operations, services
from armybuilder.catalog.list_page_controls import editor_context
from armybuilder.catalog.list_views import authored_list_or_404, editor_url
from armybuilder.nostore import no_store
from rules.list_changes import Place, Refusal
from rules.list_document import ListDocument
from rules.list_shape import ListShape

TEMPLATE = "catalog/list_editor.html"
RESENT = ("csrfmiddlewaretoken", "then", "then_text")


def shape_or_404(slug: str) -> tuple[rules.RuleSet, ListShape]:
    try:
        ruleset = rules.get_ruleset(slug)
    except KeyError:
        raise Http404("no such rule set") from None
    shape = ruleset.list_shape()
    if shape is None:
        raise Http404("this rule set has no list editor yet")
    return ruleset, shape


@login_required
@require_http_methods(["GET", "POST"])
def new_list(request: HttpRequest, slug: str) -> HttpResponse:
    ruleset, shape = shape_or_404(slug)
    error = ""
    if request.method == "POST":
        name = request.POST.get("name", "").strip()
        listed = ListDocument(
            ruleset=slug,
            slug=slugify(name)[:60] or "list",
            name=name,
            period=request.POST.get("period", "").strip(),
            source_note=request.POST.get("source_note", "").strip(),
            data=copy.deepcopy(shape.empty),
        )
        try:
            saved = services.create_list(request.user, listed=listed)
        except ValidationError as exc:
            error = list_operations.said(exc)
        else:
            return redirect(editor_url(saved.army_list))
    return render(
        request,
        "catalog/list_new.html",
        {"ruleset": ruleset, "error": error},
        status=400 if error else 200,
    )


@require_http_methods(["GET", "POST"])
def edit_list(request: HttpRequest, slug: str, list_slug: str) -> HttpResponse:
    """The editor's page; a no-JS form's post runs the same pipeline as the script's
    operations (``list_operations``), then Post/Redirect/Get, or the page with the
    refusal at its field (400)."""
    army_list = authored_list_or_404(request, slug, list_slug)
    ruleset, shape = shape_or_404(slug)
    refusal, status, done = None, 200, ""
    if request.method == "POST":
        try:
            change = list_operations.change_of_form(request.POST)
        except list_operations.BadOperation as exc:  # a post no form of the editor makes
            said = f"Unknown change: reload the page ({exc.message})."
            outcome = list_operations.Outcome("", list_operations.REFUSED, said)
            change = list_operations.Change(op="")
        else:
            outcome = list_operations.run(request.user, army_list, ruleset, shape, change)
        if outcome.status != list_operations.APPLIED:
            refusal, status = outcome.refusal or Refusal(outcome.message, Place(change.op)), 400
        done = outcome.done
        army_list.refresh_from_db()
        if status == 200 and not request.htmx:
            return redirect(editor_url(army_list))
    context = editor_context(ruleset, shape, army_list, refusal, done)
    if refusal is not None:
        context["resend"] = [
            (k, v) for k in request.POST for v in request.POST.getlist(k) if k not in RESENT
        ]
    if request.htmx:
        return render(request, f"{TEMPLATE}#editor", context, status=status)
    return render(request, TEMPLATE, context, status=status)


@require_GET
def version(request: HttpRequest, slug: str, list_slug: str) -> JsonResponse:
    """The list's revision number, the version the editor's operations name: an open
    editor asks it about once a second while visible, to follow changes saved in another
    tab or on another device. Whoever may not open the editor gets 404, as there; its
    ETag names the revision, so a page that sends it back in ``If-None-Match`` is answered
    304 with no body while nothing changed. A support use was logged when the editor was
    opened, not once more a second."""
    army_list = authored_list_or_404(request, slug, list_slug, record=False)
    shape_or_404(slug)
    number = army_list.latest_revision
    etag = f'"list-{army_list.pk}-v{number}"'
    response = get_conditional_response(request, etag=etag) or JsonResponse({"version": number})
    response["ETag"] = etag
    return no_store(response)
