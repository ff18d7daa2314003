"""The builder's per-field saves, undo and history (see ``armies.changes``).

A field save answers with what the change affects and nothing the player may be typing
in: the unit's summary row (or, for a setting, the title and every unit's summary out of
band, since costs may change), the totals and the problems. The control itself is never
redrawn; the saved value comes back in ``X-Muster-Value`` for the page to make the next
change from. A refused value (400) or a conflict (409, both values and a choice) is
drawn beside the field.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

import rules
from armybuilder.armies import changes, presenters, selectors, services
from armybuilder.armies.changes import FieldConflict, NothingToUndo
from armybuilder.armies.controls import control_id
from armybuilder.armies.models import Army, Revision
from armybuilder.armies.revisions import HistoryMissing, ItemGone, get_value
from armybuilder.armies.services import Checked, ItemNotFound, StaleVersion
from armybuilder.catalog.selectors import lists_for

TEMPLATE = "armies/builder.html"
SETTING_IDS = {
    "name": "army-name",
    "army_list": "army-list",
    "points_limit": "army-limit",
    "notes": "army-notes",
}
# a change the toast offers to undo at once
TOASTED_OPS = ("delete", "replace")


def _views() -> Any:
    from armybuilder.armies import views  # the builder's context and partial helpers

    return views


def _version(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return None


def _render(request: HttpRequest, context: dict[str, Any], names: list[str], status: int = 200):
    html = "".join(render_to_string(f"{TEMPLATE}#{n}", context, request) for n in names)
    return HttpResponse(html, status=status)


def _message(
    request: HttpRequest, msg_id: str, message: str, status: int, **extra: Any
) -> HttpResponse:
    context = {"field_message": message, **extra}
    response = _render(request, context, ["field-message"], status)
    response["HX-Retarget"] = f"#{msg_id}"
    response["HX-Reswap"] = "innerHTML"
    response["X-Muster-Refused"] = "1"
    return response


def _conflict(request: HttpRequest, msg_id: str, exc: FieldConflict) -> HttpResponse:
    if not request.htmx:
        views = _views()
        notice = (
            f"{exc.label} was changed somewhere else to {exc.theirs_text} since this page was "
            f"loaded; yours ({exc.yours_text}) was not saved. Enter it again to keep it."
        )
        return views._page(request, services.check_army(exc.army), status=409, notice=notice)
    response = _message(request, msg_id, "", 409, conflict=exc)
    response["X-Muster-Conflict"] = exc.theirs_json
    return response


def _gone(request: HttpRequest, army: Army) -> HttpResponse:
    notice = (
        "That unit was deleted or moved away in another tab or device since this page was "
        "loaded; nothing was changed. Here is the army as it is now."
    )
    views = _views()
    checked = services.check_army(army)
    if request.htmx:
        context = views._context(request, checked, notice=notice)
        response = views._parts(request, context, ["builder"], 409)
        response["HX-Retarget"] = "#builder"
        response["HX-Reswap"] = "outerHTML"
        return response
    return views._page(request, checked, status=409, notice=notice)


def _field_name(request: HttpRequest) -> str:
    """The posted ``_field``: a field path of letters, digits, ``_`` and ``.`` (it names
    the message element in a response header), else 404."""
    field = request.POST.get("_field", "")
    if not re.fullmatch(r"[A-Za-z0-9_.]{1,80}", field):
        raise Http404("no such field")
    return field


def _attempt(
    request: HttpRequest, army: Army, msg_id: str, change: Any
) -> tuple[Any, HttpResponse | None]:
    """Run one field change made from the posted ``_from``: (its result, None), or
    (None, the answer to a refusal: conflict 409, unit gone, stale page, malformed 400)."""
    views = _views()
    try:
        return change(changes.parse_from(request.POST.get("_from"))), None
    except FieldConflict as exc:
        return None, _conflict(request, msg_id, exc)
    except ItemGone:
        return None, _gone(request, army)
    except ItemNotFound:
        raise Http404("no such item, field or setting") from None
    except StaleVersion as exc:
        return None, views._stale(request, exc.army)
    except rules.MalformedDocument as exc:
        message = services.friendly_message(exc, army.document)
        if not request.htmx:
            return None, views._page(request, services.check_army(army), 400, error=message)
        return None, _message(request, msg_id, message, 400)


def item_field(request: HttpRequest, army: Army, kind: str, index: int) -> HttpResponse:
    """POST ``_field`` (and ``_from``) to a unit's or general's URL: one field changes."""
    field = _field_name(request)
    prefix = f"{'u' if kind == 'units' else 'g'}{index}"
    msg_id = control_id(prefix, field) + "-msg"
    views = _views()
    before = army.document
    result, refused = _attempt(
        request,
        army,
        msg_id,
        lambda made_from: changes.change_item_field(
            army, kind, index, field, request.POST, made_from, _version(request)
        ),
    )
    if refused is not None:
        return refused
    checked, now = result
    if not request.htmx:
        item = "unit" if kind == "units" else "general"
        return HttpResponseRedirect(views._army_url(checked.army, f"{item}-{index}"))
    context = views._context(request, checked, full=False, rows=False)
    redraw = bool(checked.adjusted)
    ruleset = context["ruleset"]
    allies = presenters.ally_choices(ruleset, lists_for(ruleset.slug)) if redraw else ()
    row = presenters.item_row(checked, ruleset, kind, now, with_controls=redraw, ally_lists=allies)
    context["row"] = replace(row, index=index, url=f"{context['base']}{kind}/{index}/", open=True)
    names = ["item-row" if redraw else "item-summary", "oob-edit"]
    if not redraw and kind == "units" and _restrictions_moved(checked, ruleset, before, now):
        full_row = presenters.item_row(
            checked, ruleset, kind, now, ally_lists=presenters.ally_choices(ruleset, [])
        )
        context["restricted_rows"] = [
            replace(full_row, controls=_renumbered(full_row.controls, now, index))
        ]
        context["keep_field"] = field
        names.append("restricted-oob")
    context.update(_toast(checked.army, request))
    response = _render(request, context, names)
    if redraw:
        response["HX-Retarget"] = f"#{context['row'].anchor}"
        response["HX-Reswap"] = "outerHTML"
    response["X-Muster-Value"] = json.dumps(get_value(checked.army.document, kind, now, field))
    return response


def _restrictions_moved(checked: Checked, ruleset: Any, before: Any, now: int) -> bool:
    """Whether the change altered what the unit's list entry (or a rule) allows."""
    parsed = checked.parsed
    if parsed is None:
        return False
    try:
        old = before["units"][now]
    except (KeyError, IndexError, TypeError):
        return True
    list_data = parsed.list_data
    return ruleset.allowed_values(list_data, old) != ruleset.allowed_values(
        list_data, parsed.units[now]
    )


def _renumbered(controls: Any, now: int, index: int) -> Any:
    """Controls drawn for unit ``now`` with the ids of unit ``index`` on the page."""
    if now == index:
        return controls
    old, new = f"u{now}-", f"u{index}-"
    return tuple(replace(c, id=new + c.id.removeprefix(old)) for c in controls)


def setting_field(request: HttpRequest, army: Army) -> HttpResponse:
    """POST ``_field`` (and ``_from``) to the settings URL: one army setting changes."""
    field = _field_name(request)
    msg_id = SETTING_IDS.get(field) or control_id("opt", field.removeprefix("options."))
    msg_id += "-msg"
    views = _views()
    checked, refused = _attempt(
        request,
        army,
        msg_id,
        lambda made_from: changes.change_setting(army, field, request.POST, made_from),
    )
    if refused is not None:
        return refused
    if not request.htmx:
        return HttpResponseRedirect(views._army_url(checked.army, "settings"))
    costs = field not in ("name", "notes")
    context = views._context(request, checked, full=False, rows=costs, oob=True)
    context.update(_toast(checked.army, request, always=field == "army_list"))
    names = ["field-ok", "title", "oob-edit"]
    if costs:
        names.append("unit-summaries")
    response = _render(request, context, names)
    response["X-Muster-Value"] = json.dumps(get_value(checked.army.document, "army", None, field))
    return response


def _toast(army: Army, request: HttpRequest, *, always: bool = False) -> dict[str, Any]:
    """The "Undo" toast for a change that acts at once (delete, roll, list change)."""
    latest = Revision.objects.filter(army=army, version=army.version).first() if always else None
    if latest is None:
        return {}
    return {"toast": latest, "undo_url": reverse("armies:undo", args=[army.pk])}


def toast_for(army: Army) -> dict[str, Any]:
    """The toast context after a structural change (the revision it just recorded)."""
    latest = Revision.objects.filter(army=army, version=army.version).first()
    if latest is None or latest.op not in TOASTED_OPS:
        return {}
    return {"toast": latest, "undo_url": reverse("armies:undo", args=[army.pk])}


@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back the latest change (``revision``: only if that one is still the latest)."""
    army = selectors.owned_army_or_404(request, pk)
    wanted = request.POST.get("revision")
    try:
        checked, revision = changes.undo(army, int(wanted) if wanted else None)
    except ValueError:
        return HttpResponse("revision: not a number", status=400)
    except NothingToUndo:
        message = (
            "Nothing to undo."
            if not wanted
            else "Other changes were made since: open History to restore an earlier version."
        )
        return _whole(request, services.check_army(army), notice=message, status=409)
    except StaleVersion as exc:
        return _views()._stale(request, exc.army)
    except rules.MalformedDocument as exc:  # an army list removed since, for example
        return _whole(request, services.check_army(army), notice=exc.message, status=409)
    return _whole(request, checked, notice=f"Undone: {revision.summary}")


def _whole(request: HttpRequest, checked: Checked, *, notice: str, status: int = 200):
    views = _views()
    if not request.htmx:
        if status == 200:
            messages.success(request, notice)
            return HttpResponseRedirect(views._army_url(checked.army))
        return views._page(request, checked, status=status, notice=notice)
    context = views._context(request, checked, status_notice=notice)
    response = views._parts(request, context, ["builder"], status)
    response["HX-Retarget"] = "#builder"
    response["HX-Reswap"] = "outerHTML"
    return response


@require_GET
def history(request: HttpRequest, pk: int) -> HttpResponse:
    army = selectors.owned_army_or_404(request, pk)
    revisions = list(
        Revision.objects.filter(army=army)
        .order_by("-version")
        .only("version", "created", "summary", "undone", "op", "undo_of_id")
    )
    return render(
        request,
        "armies/history.html",
        {"army": army, "revisions": revisions, "base": reverse("armies:builder", args=[pk])},
    )


@require_POST
def restore(request: HttpRequest, pk: int, version: int) -> HttpResponse:
    army = selectors.owned_army_or_404(request, pk)
    if version == army.version:
        messages.info(request, "That is the army as it is now.")
        return HttpResponseRedirect(_views()._army_url(army))
    try:
        checked = changes.restore(army, version)
    except HistoryMissing as exc:
        messages.error(request, f"Version {version} cannot be restored: {exc}.")
        return HttpResponseRedirect(reverse("armies:history", args=[pk]))
    except rules.MalformedDocument as exc:
        messages.error(request, f"Version {version} no longer reads: {exc.message}")
        return HttpResponseRedirect(reverse("armies:history", args=[pk]))
    messages.success(request, f"Restored version {version}. Undo takes it back.")
    return HttpResponseRedirect(_views()._army_url(checked.army))
