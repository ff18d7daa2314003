"""A list's history: undo and redo over its revisions, and the history page (who, when,
what changed) with restore and compare.

Revisions never change, so undo, redo and restore each save an older revision's content
again as a new revision, marked with its ``kind`` and the revision it ``restores``.
Walking the revisions in order rebuilds the editor's undo stack: a change or a restore
is a new state (and clears what redo could bring back), an undo steps back one state, a
redo steps forward again. Undo therefore reaches every state back to revision 1.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

import rules
from armybuilder.catalog import selectors, services
from armybuilder.catalog.list_diff import Vocabulary, diff_lists, readable
from armybuilder.catalog.list_views import authored_list_or_404
from armybuilder.catalog.models import ArmyList, ArmyListRevision

META_WORDS = {"name": "Name", "period": "Period", "source_note": "Source note"}


@dataclass(frozen=True)
class Steps:
    """Where undo and redo lead from the latest revision (None: nowhere)."""

    undo: int | None  # the revision whose content undo saves again
    redo: int | None


def steps(revisions: Iterable[Any]) -> Steps:
    """Undo and redo targets from the revisions, oldest first (``kind``, ``number``)."""
    done: list[int] = []  # the states undo walks back through, the current one last
    undone: list[int] = []  # the states redo brings back, the next one last
    for revision in revisions:
        if revision.kind == "undo" and len(done) > 1:
            undone.append(done.pop())
        elif revision.kind == "redo" and undone:
            done.append(undone.pop())
        else:
            done.append(revision.number)
            undone.clear()
    return Steps(done[-2] if len(done) > 1 else None, undone[-1] if undone else None)


def steps_of(army_list: ArmyList) -> Steps:
    return steps(army_list.revisions.only("number", "kind").order_by("number"))


def content_of(revision: ArmyListRevision) -> dict[str, Any]:
    return {
        "name": revision.name,
        "period": revision.period,
        "source_note": revision.source_note,
        "data": revision.data,
    }


# -- what changed, in words ---------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    title: str
    change: str  # added | removed | changed
    lines: tuple[str, ...]


def changes_between(ruleset: rules.RuleSet, before: Any, after: Any) -> list[Change]:
    """What changed from one revision (or content) to another, in a player's words."""
    found = []
    for name, label in META_WORDS.items():
        old, new = getattr(before, name, ""), getattr(after, name, "")
        if old != new:
            found.append(Change(label, "changed", (f"{old or '(empty)'} → {new or '(empty)'}",)))
    words = Vocabulary.of(ruleset.unit_fields)
    for change in diff_lists(getattr(before, "data", {}), getattr(after, "data", {})):
        said = readable(change, words)
        found.append(Change(said.title, said.change, said.lines))
    return found


def _what(revision: ArmyListRevision) -> str:
    if revision.kind == "undo":
        return f"Undo: back to revision {revision.restores}"
    if revision.kind == "redo":
        return f"Redo: revision {revision.restores} again"
    if revision.kind == "restore":
        return f"Restored revision {revision.restores}"
    return "Written" if revision.number == 1 else "Changed"


def _who(revision: ArmyListRevision) -> str:
    return revision.author.get_username() if revision.author else "Muster"


def history_url(army_list: ArmyList) -> str:
    return reverse("catalog:list_history", args=[army_list.ruleset, army_list.slug])


@require_GET
def history(request: HttpRequest, slug: str, list_slug: str) -> HttpResponse:
    army_list = authored_list_or_404(request, slug, list_slug)
    ruleset = rules.get_ruleset(slug)
    revisions = list(army_list.revisions.select_related("author").order_by("number"))
    rows = []
    for n, revision in enumerate(revisions):
        previous = revisions[n - 1] if n else None
        rows.append(
            {
                "revision": revision,
                "what": _what(revision),
                "who": _who(revision),
                "changes": changes_between(ruleset, previous, revision) if previous else [],
                "latest": revision.number == army_list.latest_revision,
            }
        )
    return render(
        request,
        "catalog/list_history.html",
        {
            "ruleset": ruleset,
            "army_list": army_list,
            "rows": list(reversed(rows)),
            "numbers": [r.number for r in reversed(revisions)],
        },
    )


def _side(army_list: ArmyList, choice: str) -> tuple[str, Any] | None:
    if choice in ("", "now"):
        return "Now", army_list
    if choice.isdigit():
        found = selectors.get_revision(army_list, number=int(choice))
        return (f"Revision {choice}", found) if found else None
    return None


@require_GET
def compare(request: HttpRequest, slug: str, list_slug: str) -> HttpResponse:
    army_list = authored_list_or_404(request, slug, list_slug)
    ruleset = rules.get_ruleset(slug)
    left = _side(army_list, request.GET.get("a", "").strip())
    right = _side(army_list, request.GET.get("b", "now").strip())
    context: dict[str, Any] = {"ruleset": ruleset, "army_list": army_list}
    if left is None or right is None:
        context["error"] = "Choose two revisions of the list to compare."
        return render(request, "catalog/list_compare.html", context, status=400)
    context.update(
        left=left[0], right=right[0], changes=changes_between(ruleset, left[1], right[1])
    )
    return render(request, "catalog/list_compare.html", context)


@require_POST
def restore(request: HttpRequest, slug: str, list_slug: str, number: int) -> HttpResponse:
    army_list = authored_list_or_404(request, slug, list_slug)
    found = selectors.get_revision(army_list, number=number)
    if found is None:
        messages.error(request, f"The list has no revision {number}.")
        return redirect(history_url(army_list))
    try:
        with transaction.atomic():
            locked = ArmyList.objects.select_for_update().get(pk=army_list.pk)
            saved = services.edit_list(
                request.user, army_list=locked, kind="restore", restores=number, **content_of(found)
            )
    except (ValidationError, services.ListRefused) as exc:
        messages.error(request, f"Revision {number} cannot be restored: {exc}")
        return redirect(history_url(army_list))
    messages.success(
        request,
        f"Restored revision {number} as revision {saved.revision.number}. "
        "Undo in the editor takes it back.",
    )
    return redirect(history_url(army_list))
