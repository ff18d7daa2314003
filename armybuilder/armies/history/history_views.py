"""The history page: every revision of an army, a page at a time; named snapshots; and
two versions (or two armies) compared side by side."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from armybuilder.armies import selectors
from armybuilder.armies.history.history import compare as compare_documents
from armybuilder.armies.history.revisions import HistoryMissing, document_at
from armybuilder.armies.models import Army, ArmySnapshot, Revision

PER_PAGE = 50


def _history_url(army: Army) -> str:
    return reverse("armies:history", args=[army.pk])


@require_GET
def history(request: HttpRequest, pk: int) -> HttpResponse:
    army = selectors.owned_army_or_404(request, pk)
    revisions = (
        Revision.objects.filter(army=army)
        .order_by("-version")
        .only("version", "created", "summary", "undone", "op", "undo_of_id")
    )
    page = Paginator(revisions, PER_PAGE).get_page(request.GET.get("page"))
    others = selectors.live_armies().filter(owner=army.owner).exclude(pk=army.pk)
    return render(
        request,
        "armies/history.html",
        {
            "army": army,
            "page": page,
            "revisions": page.object_list,
            "oldest_shown": page.object_list[len(page.object_list) - 1]
            if page.object_list
            else None,
            "snapshots": army.snapshots.all(),
            "other_armies": list(others.only("pk", "document")[:50]) if army.owner else [],
            "base": reverse("armies:builder", args=[pk]),
        },
    )


@require_POST
def name_snapshot(request: HttpRequest, pk: int) -> HttpResponse:
    army = selectors.owned_army_or_404(request, pk)
    name = " ".join(request.POST.get("name", "").split())[:120]
    if not name:
        messages.error(request, "Give the snapshot a name.")
    else:
        ArmySnapshot.objects.create(
            army=army, name=name, version=army.version, document=army.document
        )
        messages.success(request, f"Named version {army.version} “{name}”.")
    return HttpResponseRedirect(_history_url(army))


def _side(request: HttpRequest, army: Army, choice: str) -> tuple[str, dict[str, Any]] | None:
    """A side of the comparison: ``now``, a version number, ``s<id>`` (a named snapshot)
    or ``a<id>`` (another army of the same player, as it is now)."""
    if choice in ("", "now"):
        return "Now", army.document
    if choice.isdigit():
        try:
            return f"Version {choice}", document_at(army, int(choice))
        except HistoryMissing:
            return None
    if choice.startswith("s") and choice[1:].isdigit():
        found = army.snapshots.filter(pk=int(choice[1:])).first()
        return (f"“{found.name}”", found.document) if found else None
    if choice.startswith("a") and choice[1:].isdigit():
        other = selectors.live_armies().filter(pk=int(choice[1:])).first()
        if other is None or not selectors.can_edit(request, other):
            return None
        return other.name, other.document
    return None


@require_GET
def compare(request: HttpRequest, pk: int) -> HttpResponse:
    army = selectors.owned_army_or_404(request, pk)
    left = _side(request, army, request.GET.get("a", "").strip())
    right = _side(request, army, request.GET.get("b", "now").strip())
    comparison = None
    if left is None or right is None:
        messages.error(request, "Choose two versions, snapshots or armies to compare.")
    else:
        comparison = compare_documents(left[0], left[1], right[0], right[1])
    return render(
        request,
        "armies/compare.html",
        {"army": army, "comparison": comparison, "history": _history_url(army)},
        status=200 if comparison else 400,
    )
