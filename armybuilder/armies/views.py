"""Armies pages: my armies, create/import/export, the builder and its htmx edits.

Views are thin: read the request, hand the change to ``armies.editing``, draw the answer
with ``armies.builder_page``. Every builder change is a POST that works without
JavaScript (redirect back to the builder) and, sent by htmx, answers with the changed
part of the page plus out-of-band swaps of the totals bar, the issues panel and the
version the next change must carry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

import rules
from armybuilder.armies import (
    builder_page,
    drafts,
    editing,
    field_views,
    files,
    lifecycle,
    presenters,
    saving,
    selectors,
    start,
)
from armybuilder.armies.builder_page import TEMPLATE, army_url, page, parts
from armybuilder.armies.documents import (
    Checked,
    DraftLimitReached,
    ImportRefused,
    ItemNotFound,
    StaleVersion,
    check_army,
    friendly_message,
    ruleset_of,
)
from armybuilder.armies.forms import ImportForm, NewArmyForm
from armybuilder.armies.models import RESTORE_DAYS, Army
from armybuilder.catalog.selectors import lists_for

JUST_DELETED = "muster_just_deleted"  # session: the army My armies offers to undo deleting


# -- helpers --------------------------------------------------------------------------------


Change = Callable[[int | None], Checked]


def _apply(
    request: HttpRequest,
    army: Army,
    change: Change,
    *,
    on_success: Callable[[Checked], HttpResponse],
    on_refused: Callable[[Checked, str], HttpResponse],
    anchor: str = "",
) -> HttpResponse:
    """Run one change with the posted version; 409 when stale, 400 when malformed.

    An action whose one-time key was applied already (the same request arriving again)
    changes nothing and answers with the army as it is."""
    document_before = army.document
    try:
        key = builder_page.posted_once(request)
    except builder_page.BadOnceKey as exc:
        return HttpResponse(str(exc), status=400, content_type="text/plain; charset=utf-8")
    try:
        with saving.once(army, key) as fresh:
            if fresh:
                checked = change(builder_page.posted_version(request))
    except StaleVersion as exc:
        return builder_page.stale(request, exc.army)
    except ItemNotFound:
        raise Http404("no such item") from None
    except rules.MalformedDocument as exc:
        message = friendly_message(exc, document_before)
        response = on_refused(check_army(army), message)
        response["X-Muster-Refused"] = "1"  # builder.js: show it in place (see there)
        return response
    if not fresh:
        army.refresh_from_db()  # the first arrival may have saved after this one read it
        checked = check_army(army)
    if request.htmx:
        return on_success(checked)
    return HttpResponseRedirect(army_url(checked.army, anchor))


def _kind_or_404(army: Army, kind: str) -> None:
    ruleset = ruleset_of(army)
    if kind == "generals" and not ruleset.has_generals:
        raise Http404("this rule set has no generals")


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
    """The army's version, for a page shown again (Back, a tab come back) to tell cheaply
    whether it changed elsewhere meanwhile."""
    army = selectors.owned_army_or_404(request, pk)
    response = JsonResponse({"version": army.version})
    response["Cache-Control"] = "private, no-store"
    return response


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


# -- builder changes ---------------------------------------------------------------------------


@require_POST
def edit_item(request: HttpRequest, pk: int, kind: str, item_id: str) -> HttpResponse:
    """One unit's (or general's) controls changed: swap its summary, totals and issues."""
    army = selectors.army_to_change(request, pk)
    _kind_or_404(army, kind)
    if "_field" in request.POST:  # one field, made from a value (armies.changes)
        return field_views.item_field(request, army, kind, item_id)

    def success(checked: Checked) -> HttpResponse:
        ctx = builder_page.context(request, checked, full=False, rows=False)
        redraw = bool(checked.adjusted)  # the builder set other fields: redraw the controls
        index = presenters.index_in(checked, kind, item_id)
        ctx["row"] = replace(
            presenters.item_row(checked, ctx["ruleset"], kind, index, with_controls=redraw),
            open=True,
        )
        if not redraw:
            return parts(request, ctx, ["item-summary", "oob"])
        response = parts(request, ctx, ["item-row", "oob"])
        response["HX-Retarget"] = f"#{ctx['row'].anchor}"
        response["HX-Reswap"] = "outerHTML"
        return response

    def refused(checked: Checked, message: str) -> HttpResponse:
        if not request.htmx or checked.parsed is None:
            errors = {(kind, item_id): message}
            return page(request, checked, 400, error=message, errors=errors)
        ctx = builder_page.context(request, checked, full=False, rows=False)
        index = presenters.index_in(checked, kind, item_id)
        ctx["row"] = presenters.item_row(
            checked, ctx["ruleset"], kind, index, with_controls=False, error=message
        )
        return parts(request, ctx, ["item-summary"], 400)

    item = "unit" if kind == "units" else "general"
    return _apply(
        request,
        army,
        lambda version: editing.edit_item(army, kind, item_id, request.POST, version),
        on_success=success,
        on_refused=refused,
        anchor=f"{item}-{item_id}",
    )


def _structural(
    request: HttpRequest,
    army: Army,
    kind: str,
    change: Change,
    focus_on: Callable[[Checked], str | None],
    **extra: Any,
) -> HttpResponse:
    """Add, duplicate, move, delete: the section's order changes, so it is swapped whole;
    ``focus_on`` names the id of the item to focus (None: none)."""
    section = kind  # the partial named after the section: "units" or "generals"

    def success(checked: Checked) -> HttpResponse:
        item_id = focus_on(checked)
        focus = (kind, item_id) if item_id else None
        # a stand-in from the list replaced a unit (an edit, not an add): offer to undo it
        replaced = checked.revision is not None and checked.revision.op == "edit"
        toast = builder_page.toast(checked, always=replaced)
        ctx = builder_page.context(request, checked, focus=focus, **extra, **toast)
        return parts(request, ctx, [section, "oob"])

    def refused(checked: Checked, message: str) -> HttpResponse:
        if not request.htmx or checked.parsed is None:
            return page(request, checked, 400, error=message, **{f"{kind}_error": message})
        ctx = builder_page.context(request, checked, **{f"{kind}_error": message})
        return parts(request, ctx, [section], 400)

    return _apply(request, army, change, on_success=success, on_refused=refused, anchor=kind)


@require_POST
def add_item(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    army = selectors.owned_army_or_404(request, pk)
    _kind_or_404(army, kind)
    preset = request.POST.get("preset", "blank")
    # one click on a list entry keeps the player in the picker: no focus on the new unit
    from_picker = preset.startswith("entry:")
    return _structural(
        request,
        army,
        kind,
        lambda version: editing.add_item(army, kind, version, preset),
        lambda checked: None if from_picker else _made(checked),
        last_preset=preset,
    )


def _made(checked: Checked) -> str | None:
    """The id of the unit or general the change added (None: it added none)."""
    made = checked.revision
    return made.item_id if made is not None and made.op == "add" else None


@require_POST
def duplicate_item(request: HttpRequest, pk: int, kind: str, item_id: str) -> HttpResponse:
    army = selectors.owned_army_or_404(request, pk)
    _kind_or_404(army, kind)
    return _structural(
        request,
        army,
        kind,
        lambda version: editing.duplicate_item(army, kind, item_id, version),
        _made,
    )


@require_POST
def move_item(request: HttpRequest, pk: int, kind: str, item_id: str) -> HttpResponse:
    army = selectors.owned_army_or_404(request, pk)
    _kind_or_404(army, kind)
    direction = request.POST.get("direction", "")
    if direction not in ("up", "down"):
        return HttpResponse("Say which way to move: up or down.", status=400)
    delta = -1 if direction == "up" else 1
    return _structural(
        request,
        army,
        kind,
        lambda version: editing.move_item(army, kind, item_id, delta, version),
        lambda checked: None,
    )


@require_POST
def delete_item(request: HttpRequest, pk: int, kind: str, item_id: str) -> HttpResponse:
    army = selectors.owned_army_or_404(request, pk)
    _kind_or_404(army, kind)
    return _structural(
        request,
        army,
        kind,
        lambda version: editing.delete_item(army, kind, item_id, version),
        lambda checked: None,
    )


@require_POST
def update_settings(request: HttpRequest, pk: int) -> HttpResponse:
    """Name, list, limit, options, notes: every unit may cost differently, so all is redrawn."""
    army = selectors.army_to_change(request, pk)
    if "_field" in request.POST:  # one setting, made from a value (armies.changes)
        return field_views.setting_field(request, army)

    def success(checked: Checked) -> HttpResponse:
        ctx = builder_page.context(request, checked, oob=True)
        return parts(request, ctx, ["settings-error", "title", "units", "generals", "oob"])

    def refused(checked: Checked, message: str) -> HttpResponse:
        if not request.htmx:
            return page(request, checked, 400, error=message, settings_error=message)
        return HttpResponse(
            render_to_string(f"{TEMPLATE}#settings-error", {"settings_error": message}),
            status=400,
        )

    return _apply(
        request,
        army,
        lambda version: editing.update_settings(army, request.POST, version),
        on_success=success,
        on_refused=refused,
        anchor="settings",
    )


@require_POST
def roll_force(request: HttpRequest, pk: int) -> HttpResponse:
    army = selectors.owned_army_or_404(request, pk)

    def success(checked: Checked) -> HttpResponse:
        ctx = builder_page.context(request, checked, **builder_page.toast(checked))
        response = parts(request, ctx, ["builder"])
        response["HX-Retarget"] = "#builder"
        response["HX-Reswap"] = "outerHTML show:#units:top"  # the rolled units in view
        return response

    def refused(checked: Checked, message: str) -> HttpResponse:
        return page(request, checked, 400, error=message)

    return _apply(
        request,
        army,
        lambda version: editing.roll_force(army, version),
        on_success=success,
        on_refused=refused,
        anchor="units",
    )


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
