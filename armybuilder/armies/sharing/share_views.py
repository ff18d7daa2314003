"""The read-only shared view of an army: no login needed, nothing editable.

``/s/<token>/`` shows the roster with totals and issues; the token is the only key (a
made-up, revoked or regenerated token is a 404). Anyone may copy it: a signed-in player
gets an army in their account, a visitor a draft (claimed at sign-up like any draft).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import OuterRef, Subquery
from django.db.models.fields.json import KT
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe

from armybuilder.armies import selectors
from armybuilder.armies.builder import presenters
from armybuilder.armies.documents import Checked, DraftLimitReached, check_army, ruleset_of
from armybuilder.armies.making import drafts, lifecycle
from armybuilder.armies.making.files import document_download
from armybuilder.armies.models import Army
from armybuilder.catalog.models import ArmyList
from armybuilder.catalog.pins import pinned_list
from armybuilder.pages import Version, versioned_page


def _description(checked: Checked, title: str) -> str:
    """The Open Graph description: rule set, size, cost and legality in one line."""
    report = checked.report
    if report is None:
        return f"A {title} army on Muster."
    units = len(report.units)
    parts = [title, f"{units} unit{'s' if units != 1 else ''}"]
    if report.total_points is not None:
        limit = f" of {report.points_limit}" if report.points_limit else ""
        parts.append(f"{report.total_points}{limit} points")
    composition = report.composition or {}
    rows = composition.get("matrix_rows") if isinstance(composition, dict) else None
    if rows:
        parts.append("force-matrix row " + ", ".join(str(r) for r in rows))
    errors = len(report.errors)
    if not units and report.valid:
        parts.append("no units yet")
    else:
        parts.append("legal" if report.valid else f"{errors} problem{'s' if errors != 1 else ''}")
    return " · ".join(parts)


def shared_army_version(token: str, **_: Any) -> Version | None:
    """The cache version of a share page: the army's version, and the state of the list it
    is built on (the page names it, and links it while it is public), so an edit, the list
    renamed or made private all change it. None for a deleted or unshared army: the view
    answers its 404, never a 304."""
    row = selectors.shared_army_version_row(token)
    if row is None:
        return None
    pk, version, updated = row
    its_list = ArmyList.objects.filter(ruleset=OuterRef("list_ruleset"), slug=OuterRef("list_slug"))
    listed = (
        Army.objects.filter(pk=pk)
        .annotate(list_ruleset=KT("document__ruleset"), list_slug=KT("document__army_list"))
        .values_list(
            Subquery(its_list.values("updated")[:1]), Subquery(its_list.values("status")[:1])
        )
        .first()
    )
    list_updated, list_status = listed or (None, None)
    parts = ("army", pk, version, updated.isoformat(), str(list_updated), list_status)
    modified = max(updated, list_updated) if list_updated else updated
    return (parts, modified)


@require_safe
@versioned_page(shared_army_version)  # ETag, 304, cached HTML
def shared(request: HttpRequest, token: str) -> HttpResponse:
    army = selectors.shared_army_or_404(token)
    checked = check_army(army)
    ruleset = ruleset_of(army)
    view = presenters.builder(checked, ruleset, controls=False)
    return render(
        request,
        "armies/share.html",
        {
            "b": view,
            "army": army,
            "ruleset": ruleset,
            "token": token,
            "share_url": presenters.share_url(request, token),
            "print_links": presenters.print_links(reverse("armies:shared", args=[token])),
            "og_description": _description(checked, ruleset.title),
            "is_owner": selectors.can_edit(request, army),
            "notes": army.document.get("notes", ""),
            "army_list": pinned_list(army),
        },
    )


@require_safe
def shared_json(request: HttpRequest, token: str) -> HttpResponse:
    return document_download(selectors.shared_army_or_404(token))


@require_http_methods(["GET", "HEAD", "POST"])
def copy_shared(request: HttpRequest, token: str) -> HttpResponse:
    """Make my own copy: into the account, or a visitor's draft (GET asks first)."""
    army = selectors.shared_army_or_404(token)
    if request.method == "POST":
        try:
            copy = lifecycle.fork(army, **drafts.owner_kwargs(request))
        except DraftLimitReached as exc:
            messages.error(request, exc.message)
            return redirect("armies:shared", token=token)
        if request.user.is_authenticated:
            messages.success(request, f"Copied {copy.name} to your armies.")
        else:
            messages.success(
                request,
                f"Copied {copy.name}: it is your draft in this browser. Sign up or log in "
                "to keep it in an account.",
            )
        return redirect("armies:builder", pk=copy.pk)
    return render(request, "armies/copy.html", {"army": army, "token": token})
