"""The read-only shared view of an army: no login needed, nothing editable.

``/s/<token>/`` shows the roster with totals and issues; the token is the only key (a
made-up, revoked or regenerated token is a 404). Copying into an account needs a login.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from armybuilder.armies import presenters, selectors, services
from armybuilder.armies.views import document_download
from armybuilder.ops.pages import shared_army_version, versioned_page


def _description(checked: services.Checked, title: str) -> str:
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
    parts.append("legal" if report.valid else f"{len(report.errors)} problem(s)")
    return " · ".join(parts)


@require_GET
@versioned_page(shared_army_version)  # ETag, 304, cached HTML (issue 11)
def shared(request: HttpRequest, token: str) -> HttpResponse:
    army = selectors.shared_army_or_404(token)
    checked = services.check_army(army)
    ruleset = services.ruleset_of(army)
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
            "print_links": presenters.print_links(f"/s/{token}/"),
            "og_description": _description(checked, ruleset.title),
            "is_owner": selectors.can_edit(request, army),
            "notes": army.document.get("notes", ""),
        },
    )


@require_GET
def shared_json(request: HttpRequest, token: str) -> HttpResponse:
    return document_download(selectors.shared_army_or_404(token))


@require_http_methods(["GET", "POST"])
def copy_shared(request: HttpRequest, token: str) -> HttpResponse:
    """Copy to my armies: log in first, then confirm; the copy is the viewer's own."""
    army = selectors.shared_army_or_404(token)
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("armies:copy", args=[token]))
    if request.method == "POST":
        copy = services.fork(army, request.user)
        messages.success(request, f"Copied {copy.name} to your armies.")
        return redirect("armies:builder", pk=copy.pk)
    return render(request, "armies/copy.html", {"army": army, "token": token})
