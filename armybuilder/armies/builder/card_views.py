"""One unit's (or general's) editor, fetched when its card is opened.

The builder page draws every card closed with its summary only (a big army's page stays
small and quick to draw); opening a card asks ``GET /armies/<pk>/unit/<id>/editor/`` for
its form. For htmx that is the card's editor alone, swapped into the card; without
JavaScript the card's link opens a page with that editor, whose form posts as a normal
form to the unit's own URL and comes back to the builder. The service worker keeps every
card's editor with each army page it keeps (static/js/sw.js), so a card opens offline too.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from armybuilder.armies import selectors
from armybuilder.armies.builder import presenters
from armybuilder.armies.builder.builder_page import TEMPLATE
from armybuilder.armies.documents import ItemNotFound, check_army, ruleset_of
from armybuilder.catalog.selectors import army_lists_for
from armybuilder.nostore import no_store


@require_GET
def editor(request: HttpRequest, pk: int, kind: str, item_id: str) -> HttpResponse:
    army = selectors.owned_army_or_404(request, pk)
    try:
        ruleset = ruleset_of(army)
    except ItemNotFound:
        raise Http404("this army's rule set is no longer offered") from None
    if kind == "generals" and not ruleset.has_generals:
        raise Http404("this rule set has no generals")
    checked = check_army(army)
    if checked.parsed is None:
        raise Http404("this army no longer reads: its builder page says why")
    try:
        index = presenters.index_in(checked, kind, item_id)
    except ItemNotFound:
        raise Http404("no such item") from None
    allies = presenters.ally_choices(ruleset, army_lists_for(army))
    row = presenters.item_row(checked, ruleset, kind, index, ally_lists=allies)
    context = {
        "row": row,
        "army": army,
        "ruleset": ruleset,
        "base": reverse("armies:builder", args=[army.pk]),
    }
    if request.htmx:
        response = render(request, f"{TEMPLATE}#item-editor", context)
    else:
        response = render(request, "armies/card_editor.html", context)
    no_store(response)
    response["Vary"] = "HX-Request"  # the same address answers a card's part or a page
    response["X-Muster-Editor-Key"] = row.editor_key  # sw.js: the copy it keeps is current
    return response
