"""The builder's army-list upgrade panel: a newer revision of a list the army is pinned to.

The builder loads the panel after the page (htmx ``load``; a link without JavaScript), so
opening the builder costs no query for it. The placeholder takes no room and stays empty
when there is nothing to say, so the page does not move under a tap while it loads. Until
the owner accepts, the army stays checked against its pinned revisions; accepting is
undoable: the pins it had are kept in the session, so the undo never takes pins from the
request (an army could otherwise be pinned to a list its owner may not read).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from armybuilder.armies import pinning
from armybuilder.armies.builder.builder_page import army_url
from armybuilder.armies.selectors import owned_army_or_404
from armybuilder.catalog import pins, services

TEMPLATE = "armies/list_upgrade.html"


def _undo_key(pk: int) -> str:
    return f"muster_list_pins_before:{pk}"


@require_GET
def list_upgrade(request: HttpRequest, pk: int) -> HttpResponse:
    army = owned_army_or_404(request, pk)
    context = {
        "army": army,
        "diff": services.upgrade_diff(army),
        "can_undo": _undo_key(pk) in request.session,
    }
    if request.htmx:
        if context["diff"] is None and not context["can_undo"]:
            # nothing to say: the builder's empty placeholder stays empty, so nothing on
            # the page moves under a player's tap as it loads
            return HttpResponse('<div id="list-upgrade"></div>')
        return render(request, f"{TEMPLATE}#panel", context)
    return render(request, TEMPLATE, context)


@require_POST
def accept_list_upgrade(request: HttpRequest, pk: int) -> HttpResponse:
    army = owned_army_or_404(request, pk)
    if pins.newer_revisions(army):
        request.session[_undo_key(pk)] = pinning.accept_upgrade(army)
        messages.success(request, "The army is now checked against the latest army lists.")
    return redirect(army_url(army))


@require_POST
def undo_list_upgrade(request: HttpRequest, pk: int) -> HttpResponse:
    army = owned_army_or_404(request, pk)
    previous = request.session.pop(_undo_key(pk), None)
    if isinstance(previous, dict):
        kept = set(army.list_pins or {})
        # only lists the army still reads: a list dropped since then stays dropped
        pinning.restore_pins(army, {s: n for s, n in previous.items() if s in kept})
        messages.success(request, "The army is checked against the list revisions it had.")
    return redirect(army_url(army))
