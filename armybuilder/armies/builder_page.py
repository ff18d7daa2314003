"""The builder page: its context and its answers, for the page views (``armies.views``)
and the field views (``armies.field_views``) alike.

A full answer draws the page (or the whole ``#builder`` for htmx); a partial answer draws
named partials of ``armies/builder.html``. Every answer that draws the Undo button names
the change it takes back (``undo_revision``): the change this page made last, or, drawn
whole, the newest one it shows. The server then undoes exactly that change.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse

from armybuilder.armies import cards, picker, presenters
from armybuilder.armies.conflicts import FieldConflict
from armybuilder.armies.documents import Checked, ItemNotFound, check_army, ruleset_of
from armybuilder.armies.models import Army, Revision
from armybuilder.armies.revisions import undoable
from armybuilder.catalog.services import lists_for

TEMPLATE = "armies/builder.html"
TOASTED_OPS = ("delete", "replace")  # a change the toast offers to undo at once
STALE = (
    "This army was changed somewhere else (another tab or device) since this page "
    "was loaded. Your last change was not saved; here is the army as it is now."
)
GONE = (
    "That unit was deleted or moved away in another tab or device since this page was "
    "loaded; nothing was changed. Here is the army as it is now."
)


def posted_version(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return None


ONCE_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")


class BadOnceKey(ValueError):
    """The action's one-time key is not one the builder makes."""


def posted_once(request: HttpRequest) -> str:
    """The action's one-time key (``_once``; builder.js makes one per action), or ""."""
    key = request.POST.get("_once", "")
    if key and not ONCE_KEY.fullmatch(key):
        raise BadOnceKey(
            "The action's one-time key (_once) must be 1 to 64 letters, digits, '-' or '_'."
        )
    return key


def army_url(army: Army, anchor: str = "") -> str:
    return reverse("armies:builder", args=[army.pk]) + (f"#{anchor}" if anchor else "")


def _undo_target(checked: Checked) -> Any:
    """The revision the Undo button names: the one this answer's change recorded (no
    query), else the newest the page shows, looked up only if the button is drawn."""
    made = checked.revision
    if made is not None and made.undo_of_id is None:
        return made.pk

    @functools.cache
    def newest() -> int | str:
        found = undoable(checked.army)
        return found.pk if found is not None else ""

    return newest


def _edited_item(request: HttpRequest) -> tuple[str, str] | None:
    """The unit (or general) a refused or stale change was made on, by its address: its
    card is drawn open again, with its editor, where the player was."""
    match = request.resolver_match
    kwargs = match.kwargs if match is not None and request.method == "POST" else {}
    if "kind" in kwargs and "item_id" in kwargs:
        return str(kwargs["kind"]), str(kwargs["item_id"])
    return None


def context(
    request: HttpRequest,
    checked: Checked,
    *,
    full: bool = True,
    rows: bool = True,
    **extra: Any,
) -> dict[str, Any]:
    """The builder's context; ``full`` adds what only whole sections need (one query)."""
    army = checked.army
    try:
        ruleset = ruleset_of(army)
    except ItemNotFound:
        raise Http404("this army's rule set is no longer offered") from None
    # the public lists, the owner's own and those the army is pinned to (one query)
    lists = lists_for(army) if full else []
    focus = extra.pop("focus", None)
    opened = extra.pop("opened", None) or _edited_item(request)
    view = presenters.builder(
        checked,
        ruleset,
        rows=rows,
        focus=focus,
        errors=extra.pop("errors", None),
        ally_lists=presenters.ally_choices(ruleset, lists),
        lazy=True,
        # one card open at a time: the one to focus (just added), else the one changed
        opened=None if focus else opened,
    )
    result: dict[str, Any] = {
        "b": view,
        "army": army,
        "ruleset": ruleset,
        "base": reverse("armies:builder", args=[army.pk]),
        "settings_url": reverse("armies:settings", args=[army.pk]),
        "editing": True,
        "undo_revision": _undo_target(checked),
        "undo_moved": checked.revision is not None,  # the partials redraw the button's target
    }
    if rows:
        # the cards as HTML, each drawn once per content (armies.cards)
        result["unit_cards"] = cards.cards(view.unit_rows, request, army)
        result["general_cards"] = cards.cards(view.general_rows, request, army)
    if full:
        list_data = checked.parsed.list_data if checked.parsed is not None else None
        result.update(
            option_controls=presenters.option_controls(checked, ruleset),
            army_lists=lists,
            presets=[
                p
                for p in presenters.add_presets(ruleset, list_data)
                if not p.key.startswith("entry:")  # those are the picker's buttons
            ],
            picker_entries=(entries := picker.picker_entries(checked, ruleset)),
            picker_groups=picker.picker_groups(entries),
            setting_from=presenters.setting_from(army.document),
            share_url=presenters.share_url(request, army.share_token),
            print_links=presenters.print_links(reverse("armies:builder", args=[army.pk])),
        )
    result.update(extra)
    return result


def parts(
    request: HttpRequest, ctx: dict[str, Any], names: list[str], status: int = 200
) -> HttpResponse:
    html = "".join(render_to_string(f"{TEMPLATE}#{name}", ctx, request) for name in names)
    return HttpResponse(html, status=status)


def page(request: HttpRequest, checked: Checked, status: int = 200, **extra: Any) -> HttpResponse:
    return render(request, TEMPLATE, context(request, checked, **extra), status=status)


def whole(request: HttpRequest, checked: Checked, status: int = 200, **extra: Any) -> HttpResponse:
    """The whole builder: the page, or for htmx the ``#builder`` element swapped in place."""
    if not request.htmx:
        return page(request, checked, status=status, **extra)
    response = parts(request, context(request, checked, **extra), ["builder"], status)
    response["HX-Retarget"] = "#builder"
    response["HX-Reswap"] = "outerHTML"
    return response


def stale(request: HttpRequest, army: Army) -> HttpResponse:
    """409 with the army as it is now: nothing was overwritten."""
    return whole(request, check_army(army), 409, notice=STALE)


def gone(request: HttpRequest, army: Army) -> HttpResponse:
    """409: the unit a change was made for is no longer there; the army as it is now."""
    return whole(request, check_army(army), 409, notice=GONE)


def conflict_notice(exc: FieldConflict) -> str:
    return (
        f"{exc.label} was changed somewhere else to {exc.theirs_text} since this page was "
        f"loaded; yours ({exc.yours_text}) was not saved. Enter it again to keep it."
    )


def toast(checked: Checked, *, always: bool = False) -> dict[str, Any]:
    """The "Undo" toast for a change that acts at once: a delete or a replacement of the
    army (``always``: any change, e.g. a new army list), naming the revision it recorded."""
    made: Revision | None = checked.revision
    if made is None or not (always or made.op in TOASTED_OPS):
        return {}
    return {"toast": made, "undo_url": reverse("armies:undo", args=[checked.army.pk])}
