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
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_POST

import rules
from armybuilder.armies import builder_page, changes, editing, presenters, selectors
from armybuilder.armies.builder_page import army_url, context, parts
from armybuilder.armies.changes import FieldConflict, NothingToUndo
from armybuilder.armies.controls import control_id
from armybuilder.armies.documents import (
    Checked,
    ItemNotFound,
    StaleVersion,
    check_army,
    friendly_message,
)
from armybuilder.armies.models import Army
from armybuilder.armies.revisions import HistoryMissing, ItemGone, get_value, index_of
from armybuilder.catalog.selectors import lists_for

SETTING_IDS = {
    "name": "army-name",
    "army_list": "army-list",
    "points_limit": "army-limit",
    "notes": "army-notes",
}


def _message(
    request: HttpRequest, msg_id: str, message: str, status: int, **extra: Any
) -> HttpResponse:
    response = parts(request, {"field_message": message, **extra}, ["field-message"], status)
    response["HX-Retarget"] = f"#{msg_id}"
    response["HX-Reswap"] = "innerHTML"
    response["X-Muster-Refused"] = "1"
    return response


def _conflict(request: HttpRequest, msg_id: str, exc: FieldConflict) -> HttpResponse:
    if not request.htmx:
        notice = builder_page.conflict_notice(exc)
        return builder_page.page(request, check_army(exc.army), status=409, notice=notice)
    response = _message(request, msg_id, "", 409, conflict=exc)
    response["X-Muster-Conflict"] = exc.theirs_json
    return response


def _field_name(request: HttpRequest) -> str:
    """The posted ``_field``: a field path of letters, digits, ``_`` and ``.`` (it names
    the message element in a response header), else 404."""
    field = request.POST.get("_field", "")
    if not re.fullmatch(r"[A-Za-z0-9_.]{1,80}", field):
        raise Http404("no such field")
    return field


def _attempt(
    request: HttpRequest, army: Army, msg_id: str, change: Callable[[Any], Checked]
) -> tuple[Checked | None, HttpResponse | None]:
    """Run one field change made from the posted ``_from``: (its result, None), or
    (None, the answer to a refusal: conflict 409, unit gone, stale page, malformed 400)."""
    try:
        return change(changes.made_from_post(request.POST)), None
    except FieldConflict as exc:
        return None, _conflict(request, msg_id, exc)
    except ItemGone:
        return None, builder_page.gone(request, army)
    except ItemNotFound:
        raise Http404("no such item, field or setting") from None
    except StaleVersion as exc:
        return None, builder_page.stale(request, exc.army)
    except rules.MalformedDocument as exc:
        message = friendly_message(exc, army.document)
        if not request.htmx:
            return None, builder_page.page(request, check_army(army), 400, error=message)
        return None, _message(request, msg_id, message, 400)


def _typing(request: HttpRequest) -> bool:
    """The page says this change follows others typed in the same field (``_typing``)."""
    return request.POST.get("_typing") == "1"


def item_field(request: HttpRequest, army: Army, kind: str, item_id: str) -> HttpResponse:
    """POST ``_field`` (and ``_from``) to a unit's or general's URL: one field changes."""
    field = _field_name(request)
    msg_id = control_id(presenters.control_prefix(kind, item_id, 0), field) + "-msg"
    before = army.document
    checked, refused = _attempt(
        request,
        army,
        msg_id,
        lambda made_from: editing.change_item_field(
            army, kind, item_id, field, request.POST, made_from, typing=_typing(request)
        ),
    )
    if checked is None:
        assert refused is not None
        return refused
    now = presenters.index_in(checked, kind, item_id)
    if not request.htmx:
        anchor = presenters.item_anchor(kind, item_id, now)
        return HttpResponseRedirect(army_url(checked.army, anchor))
    ctx = context(request, checked, full=False, rows=False)
    redraw = bool(checked.adjusted)
    ruleset = ctx["ruleset"]
    allies = presenters.ally_choices(ruleset, lists_for(ruleset.slug)) if redraw else ()
    row = presenters.item_row(checked, ruleset, kind, now, with_controls=redraw, ally_lists=allies)
    ctx["row"] = replace(row, open=True)
    names = ["item-row" if redraw else "item-summary", "oob-edit"]
    moved = _restrictions_moved(checked, ruleset, before, item_id, now)
    if not redraw and kind == "units" and moved:
        full_row = presenters.item_row(
            checked, ruleset, kind, now, ally_lists=presenters.ally_choices(ruleset, [])
        )
        ctx["restricted_rows"] = [full_row]
        ctx["keep_field"] = field
        names.append("restricted-oob")
    response = parts(request, ctx, names)
    if redraw:
        response["HX-Retarget"] = f"#{ctx['row'].anchor}"
        response["HX-Reswap"] = "outerHTML"
    response["X-Muster-Value"] = json.dumps(get_value(checked.army.document, kind, now, field))
    return response


def _restrictions_moved(
    checked: Checked, ruleset: Any, before: Any, item_id: str, now: int
) -> bool:
    """Whether the change altered what the unit's list entry (or a rule) allows."""
    parsed = checked.parsed
    if parsed is None:
        return False
    try:
        old = before["units"][index_of(before, "units", item_id)]
    except (KeyError, TypeError, ItemGone):
        return True
    list_data = parsed.list_data
    return ruleset.allowed_values(list_data, old) != ruleset.allowed_values(
        list_data, parsed.units[now]
    )


def setting_field(request: HttpRequest, army: Army) -> HttpResponse:
    """POST ``_field`` (and ``_from``) to the settings URL: one army setting changes."""
    field = _field_name(request)
    msg_id = SETTING_IDS.get(field) or control_id("opt", field.removeprefix("options."))
    msg_id += "-msg"
    checked, refused = _attempt(
        request,
        army,
        msg_id,
        lambda made_from: editing.change_setting(
            army, field, request.POST, made_from, typing=_typing(request)
        ),
    )
    if checked is None:
        assert refused is not None
        return refused
    if not request.htmx:
        return HttpResponseRedirect(army_url(checked.army, "settings"))
    costs = field not in ("name", "notes")
    ctx = context(request, checked, full=False, rows=costs, oob=True)
    ctx.update(builder_page.toast(checked, always=field == "army_list"))
    names = ["field-ok", "title", "oob-edit"]
    if costs:
        names.append("unit-summaries")
    response = parts(request, ctx, names)
    response["X-Muster-Value"] = json.dumps(get_value(checked.army.document, "army", None, field))
    return response


UNNAMED_UNDO = (
    "This page is older than the army's history: it did not say which change to undo, so "
    "nothing was undone (the newest change may be another tab's). Here is the army as it "
    "is now; Undo takes back its newest change."
)


class UnnamedUndo(LookupError):
    """An undo that names no change (a page from before undo named its change): it is
    refused, never applied to the newest change, which may be another tab's."""


def _posted_revision(request: HttpRequest) -> int:
    """The change the page asks to undo (ValueError: not a pk)."""
    wanted = request.POST.get("revision")
    if wanted is None:
        raise UnnamedUndo("no revision")
    if not wanted.strip():
        raise NothingToUndo("this page has made no change")
    return int(wanted)


@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back the change the page names (``revision``), exactly that one: its value is
    set back on the army as it is now, other changes untouched. When that value moved on
    since, both values are shown with a choice (undo anyway posts ``_from``, the value the
    player was shown)."""
    army = selectors.owned_army_or_404(request, pk)
    try:
        wanted = _posted_revision(request)
        checked = editing.undo(army, wanted, changes.parse_from(request.POST.get("_from")))
    except ValueError:
        return HttpResponse("revision: not a number", status=400)
    except UnnamedUndo:
        return _whole(request, check_army(army), notice=UNNAMED_UNDO, status=409)
    except NothingToUndo:
        message = (
            "Nothing to undo."
            if "revision" not in request.POST or not request.POST["revision"].strip()
            else "Other changes were made since: open History to restore an earlier version."
        )
        return _whole(request, check_army(army), notice=message, status=409)
    except FieldConflict as exc:
        return _whole(
            request,
            check_army(exc.army),
            notice=_undo_conflict_notice(exc),
            status=409,
            undo_conflict=exc,
            undo_wanted=request.POST.get("revision", ""),
            conflict_header=exc.theirs_json,
        )
    except StaleVersion as exc:
        return builder_page.stale(request, exc.army)
    except rules.MalformedDocument as exc:  # an army list removed since, for example
        return _whole(request, check_army(army), notice=exc.message, status=409)
    undone = checked.revision.undo_of if checked.revision is not None else None
    if undone is None:  # taking it back left the army as it is
        return _whole(request, checked, notice="Nothing to undo: the army is already so.")
    return _whole(request, checked, notice=f"Undone: {undone.summary}")


def _undo_conflict_notice(exc: FieldConflict) -> str:
    return (
        f"{exc.label} was changed somewhere else to {exc.theirs_text} since; undoing would "
        f"set it back to {exc.yours_text}. Nothing was undone."
    )


def _whole(
    request: HttpRequest,
    checked: Checked,
    *,
    notice: str,
    status: int = 200,
    conflict_header: str | None = None,
    **extra: Any,
) -> HttpResponse:
    if not request.htmx and status == 200:
        messages.success(request, notice)
        return HttpResponseRedirect(army_url(checked.army))
    key = "status_notice" if status == 200 else "notice"
    response = builder_page.whole(request, checked, status, **{key: notice}, **extra)
    if conflict_header is not None:
        response["X-Muster-Conflict"] = conflict_header
    return response


@require_POST
def restore(request: HttpRequest, pk: int, version: int) -> HttpResponse:
    army = selectors.owned_army_or_404(request, pk)
    if version == army.version:
        messages.info(request, "That is the army as it is now.")
        return HttpResponseRedirect(army_url(army))
    try:
        checked = editing.restore(army, version)
    except HistoryMissing as exc:
        messages.error(request, f"Version {version} cannot be restored: {exc}.")
        return HttpResponseRedirect(reverse("armies:history", args=[pk]))
    except rules.MalformedDocument as exc:
        messages.error(request, f"Version {version} no longer reads: {exc.message}")
        return HttpResponseRedirect(reverse("armies:history", args=[pk]))
    messages.success(request, f"Restored version {version}. Undo takes it back.")
    return HttpResponseRedirect(army_url(checked.army))
