"""Undo (the button, the toast, Ctrl+Z without JavaScript) and the History page's
restores: each a command (``armies.rewind``) run as an operation through the one
pipeline, its refusal mapped once (``operations.outcome_of``). Both redraw the builder:
an undo or a restore may change any part of the army."""

from __future__ import annotations

import json

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.views.decorators.http import require_POST

from armybuilder.armies import selectors
from armybuilder.armies.builder import form_views
from armybuilder.armies.builder.builder_page import army_url
from armybuilder.armies.changes.conflicts import UNSET
from armybuilder.armies.changes.operations import Operation, apply_operations
from armybuilder.armies.history.rewind import NOTHING, RestoreSnapshot, RestoreVersion
from armybuilder.armies.models import Army, ArmySnapshot

UNNAMED_UNDO = (
    "This page is older than the army's history: it did not say which change to undo, so "
    "nothing was undone (the newest change may be another tab's). Here is the army as it "
    "is now; Undo takes back its newest change."
)


def _made_from(request: HttpRequest) -> object:
    """The posted ``_from`` (JSON): the value the player was shown when choosing to undo
    anyway (ValueError: not JSON)."""
    text = request.POST.get("_from")
    return UNSET if text is None else json.loads(text)


@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back the change the page names (``revision``), exactly that one: its value is
    set back on the army as it is now, other changes untouched. When that value moved on
    since, both values are shown with a choice (undo anyway posts ``_from``, the value the
    player was shown)."""
    army = selectors.owned_army_or_404(request, pk)
    wanted = request.POST.get("revision")
    if wanted is None:  # never applied to the newest change, which may be another tab's
        return form_views.whole(request, army, 409, notice=UNNAMED_UNDO)
    if not wanted.strip():
        return form_views.whole(request, army, 409, notice=NOTHING)
    try:
        value = {"revision": int(wanted)}
        made_from = _made_from(request)
    except ValueError:
        return HttpResponse("revision: a number; _from: a JSON value", status=400)
    operation = Operation("", "undo", value=value, made_from=made_from)
    try:
        operations = form_views.keyed(request, [operation])
    except form_views.BadPost as exc:
        return HttpResponse(str(exc), status=400)
    done = apply_operations(army, operations)
    outcome = done.outcomes[0]
    if outcome.refusal is not None:
        return form_views.whole(
            request, done.army, outcome.http_status, notice=outcome.notice,
            undo_conflict=outcome.refusal, undo_wanted=wanted,
        )  # fmt: skip
    if not outcome.ok:
        return form_views.whole(request, done.army, outcome.http_status, notice=outcome.notice)
    checked = done.checked
    undone = checked.revision.undo_of if checked and checked.revision else None
    if checked is None:  # the same undo arriving again
        notice = "Undone."
    elif undone is None:  # taking it back left the army as it is
        notice = "Nothing to undo: the army is already so."
    else:
        notice = f"Undone: {undone.summary}"
    if not request.htmx:
        messages.success(request, notice)
        return HttpResponseRedirect(army_url(done.army))
    return form_views.whole(request, done.army, status_notice=notice)


def _history_url(pk: int) -> str:
    return reverse("armies:history", args=[pk])


def _restore(
    request: HttpRequest,
    army: Army,
    command: RestoreVersion | RestoreSnapshot,
    refused: str,
    restored: str,
) -> HttpResponse:
    """Runs a restore; the builder with ``restored`` said, or History with why not."""
    done = apply_operations(army, [Operation("", "restore", command=command)])
    outcome = done.outcomes[0]
    if not outcome.ok:
        messages.error(request, f"{refused}: {outcome.message}")
        return HttpResponseRedirect(_history_url(army.pk))
    messages.success(request, f"{restored} Undo takes it back.")
    return HttpResponseRedirect(army_url(done.army))


@require_POST
def restore(request: HttpRequest, pk: int, version: int) -> HttpResponse:
    """The History page's "Restore": the army as it was at ``version``, a change of its
    own (Undo takes it back)."""
    army = selectors.owned_army_or_404(request, pk)
    if version == army.version:
        messages.info(request, "That is the army as it is now.")
        return HttpResponseRedirect(army_url(army))
    return _restore(
        request,
        army,
        RestoreVersion(version),
        f"Version {version} cannot be restored",
        f"Restored version {version}.",
    )


@require_POST
def restore_snapshot(request: HttpRequest, pk: int, snapshot: int) -> HttpResponse:
    """A named snapshot made the army again (Undo takes it back)."""
    army = selectors.owned_army_or_404(request, pk)
    found = get_object_or_404(ArmySnapshot, pk=snapshot, army=army)
    return _restore(
        request,
        army,
        RestoreSnapshot(found.name, found.document),
        f"“{found.name}” no longer reads",
        f"Restored “{found.name}”.",
    )
