"""Armies pages: my armies, create/import/export, the builder page, sharing.

Views are thin: read the request, call the armies services, draw the answer with
``armies.builder.builder_page``. The builder's changes are elsewhere, in the builder's
room: the operations endpoint (``armies.builder.operation_views``), the forms posted
without JavaScript (``armies.builder.form_views``) and undo and restores
(``armies.builder.rewind_views``), all through the one pipeline.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import get_conditional_response
from django.views.decorators.http import require_GET, require_http_methods, require_POST

import rules
from armybuilder.armies import selectors
from armybuilder.armies.builder import presenters
from armybuilder.armies.builder.builder_page import TEMPLATE, army_url, page
from armybuilder.armies.documents import (
    DraftLimitReached,
    ImportRefused,
    check_army,
    friendly_message,
)
from armybuilder.armies.making import drafts, files, lifecycle, start
from armybuilder.armies.making.forms import ImportForm, NewArmyForm
from armybuilder.armies.models import RESTORE_DAYS, Army
from armybuilder.catalog.selectors import lists_for
from armybuilder.nostore import no_store

JUST_DELETED = "muster_just_deleted"  # session: the army My armies offers to undo deleting


# -- my armies, create, import ------------------------------------------------------------------


@require_GET
def my_armies(request: HttpRequest) -> HttpResponse:
    armies, deleted = selectors.armies_and_deleted_for(request)
    summaries = selectors.army_summaries(armies)
    rulesets = rules.all_rulesets()
    just_deleted = request.session.pop(JUST_DELETED, None) if hasattr(request, "session") else None
    return render(
        request,
        "armies/my_armies.html",
        {
            "summaries": summaries,
            "deleted": selectors.deleted_rows(deleted),
            "undo": next((a for a in deleted if a.pk == just_deleted), None),
            "restore_days": RESTORE_DAYS,
            "form": NewArmyForm(),
            "import_form": ImportForm(),
            "army_lists": lists_for(rulesets[0].slug) if rulesets else [],
        },
    )


@require_http_methods(["GET", "POST"])
def new_army(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        chosen = request.POST.get("ruleset", "")
        if request.POST.get("first") == "list" and start.has_lists(request.user, chosen):
            # "Start an army" (home, rule-set page) names only the rule set: the list first
            return redirect("armies:start", slug=chosen)
        form = NewArmyForm(request.POST, user=request.user)
        if form.is_valid():
            data = form.cleaned_data
            document = lifecycle.blank_document(
                data["ruleset"], data["name"], data["army_list"], data["points_limit"]
            )
            try:
                army = lifecycle.create_army(document, **drafts.owner_kwargs(request))
            except rules.MalformedDocument as exc:
                form.add_error(None, friendly_message(exc, document))
            except DraftLimitReached as exc:
                form.add_error(None, exc.message)
            else:
                return redirect(army_url(army))
        status = 400
    else:
        initial = {k: request.GET[k] for k in ("ruleset", "army_list") if k in request.GET}
        form = NewArmyForm(initial=initial, user=request.user)
        status = 200
    choices = form.fields["ruleset"].choices
    ruleset_slug = form["ruleset"].value() or (choices[0][0] if choices else "")
    return render(
        request,
        "armies/new.html",
        {"form": form, "army_lists": _lists_or_empty(ruleset_slug)},
        status=status,
    )


def _lists_or_empty(slug: str) -> list[Any]:
    try:
        rules.get_ruleset(slug)
    except KeyError:
        return []
    return lists_for(slug)


@require_GET
def list_options(request: HttpRequest) -> HttpResponse:
    """The army-list select for the chosen rule set (htmx swaps it in on the new-army form)."""
    slug = request.GET.get("ruleset", "")
    return render(
        request,
        "armies/new.html#list-select",
        {"army_lists": _lists_or_empty(slug), "selected_list": ""},
    )


@require_http_methods(["GET", "POST"])
def import_army(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST, request.FILES) if request.method == "POST" else ImportForm()
    if request.method == "POST":
        if form.is_valid():
            upload = form.cleaned_data["document"]
            content = upload.read(files.import_limit() + 1)
            try:
                army = files.import_document(content, **drafts.owner_kwargs(request))
            except ImportRefused as exc:
                form.add_error("document", exc.message)
            else:
                messages.success(request, f"Imported {army.name}.")
                for note in army.import_notes:
                    messages.warning(request, note)
                return redirect(army_url(army))
        return render(request, "armies/import.html", {"form": form}, status=400)
    return render(request, "armies/import.html", {"form": form})


# -- one army: page, export, duplicate, delete -------------------------------------------------


@require_GET
def builder(request: HttpRequest, pk: int) -> HttpResponse:
    army = selectors.owned_army_or_404(request, pk)
    return page(request, check_army(army))


@require_GET
def export_json(request: HttpRequest, pk: int) -> HttpResponse:
    army = selectors.owned_army_or_404(request, pk)
    return files.document_download(army)


@require_GET
def army_version(request: HttpRequest, pk: int) -> JsonResponse:
    """The army's version: every open builder asks it about once a second while visible
    (and a page shown again at once), to follow changes saved elsewhere. One small query;
    its ETag names the version, so a page that sends it back in ``If-None-Match`` is
    answered 304 with no body while nothing changed."""
    version = selectors.owned_army_version_or_404(request, pk)
    etag = f'"army-{pk}-v{version}"'
    response = get_conditional_response(request, etag=etag) or JsonResponse({"version": version})
    response["ETag"] = etag
    return no_store(response)


@require_POST
def duplicate_army(request: HttpRequest, pk: int) -> HttpResponse:
    army = selectors.owned_army_or_404(request, pk)
    try:
        copy = lifecycle.duplicate_army(army, **drafts.owner_kwargs(request))
    except DraftLimitReached as exc:
        messages.error(request, exc.message)
        return redirect(army_url(army))
    messages.success(request, f"Made {copy.name}.")
    return redirect(army_url(copy))


@require_http_methods(["GET", "POST"])
def delete_army(request: HttpRequest, pk: int) -> HttpResponse:
    """POST deletes at once (no confirm) and My armies offers "Undo"; GET is the
    confirmation page for links without JavaScript. htmx posts get an HX-Redirect."""
    army = selectors.owned_army_or_404(request, pk)
    if request.method == "POST":
        lifecycle.delete_army(army)
        request.session[JUST_DELETED] = army.pk
        target = reverse("armies:list")
        if request.htmx:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = target
            return response
        return redirect(target)
    return render(request, "armies/delete.html", {"army": army, "restore_days": RESTORE_DAYS})


@require_POST
def restore_army(request: HttpRequest, pk: int) -> HttpResponse:
    """Undo a delete (within ``RESTORE_DAYS`` days); back to My armies."""
    army = selectors.deleted_army_or_404(request, pk)
    try:
        lifecycle.restore_army(army)
    except DraftLimitReached as exc:
        messages.error(request, f"{army.name} was not restored. {exc.message}")
        return redirect(reverse("armies:list") + f"#deleted-{army.pk}")
    messages.success(request, f"Restored {army.name}.")
    return redirect(reverse("armies:list") + f"#army-{army.pk}")


# -- sharing (owner side) ------------------------------------------------------------------------


def _share_response(request: HttpRequest, army: Army, message: str) -> HttpResponse:
    if request.htmx:
        context = {
            "army": army,
            "share_url": presenters.share_url(request, army.share_token),
            "base": reverse("armies:builder", args=[army.pk]),
            "share_message": message,
        }
        return render(request, f"{TEMPLATE}#share", context)
    messages.success(request, message)
    return redirect(army_url(army, "share"))


@require_POST
def regenerate_share(request: HttpRequest, pk: int) -> HttpResponse:
    army = selectors.owned_army_or_404(request, pk)
    was_shared = bool(army.share_token)
    lifecycle.regenerate_share_token(army)
    if not was_shared:
        return _share_response(request, army, "Sharing is on: anyone with the link can see it.")
    return _share_response(request, army, "New share link made: the old link no longer works.")


@require_POST
def stop_sharing(request: HttpRequest, pk: int) -> HttpResponse:
    army = selectors.owned_army_or_404(request, pk)
    lifecycle.stop_sharing(army)
    return _share_response(request, army, "The link no longer works.")
