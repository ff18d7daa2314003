"""Finding armies with their access rules in one place: others get 404, never 403."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.http import Http404, HttpRequest

import rules
from armybuilder.armies.models import Army
from armybuilder.catalog.selectors import list_lookup

DRAFT_SESSION_KEY = "muster_draft_key"


def owned_army_or_404(request: HttpRequest, pk: int) -> Army:
    """The army with ``pk`` if the request's user owns it (or it is this visitor's draft)."""
    army = Army.objects.filter(pk=pk).first()
    if army is None or not can_edit(request, army):
        raise Http404("no such army")
    return army


def visitor_draft_key(request: HttpRequest) -> str:
    """The key this visitor's drafts carry ('' when the visitor has none)."""
    session = getattr(request, "session", None)
    if session is None:
        return ""
    return str(session.get(DRAFT_SESSION_KEY) or "")


def can_edit(request: HttpRequest, army: Army) -> bool:
    user = request.user
    if army.owner_id is not None:
        return user.is_authenticated and army.owner_id == user.pk
    key = visitor_draft_key(request)
    return bool(key) and army.session_key == key


def shared_army_or_404(token: str) -> Army:
    """The army shared under ``token``; 404 for a made-up, revoked or regenerated token."""
    army = Army.objects.filter(share_token=token).first() if token else None
    if army is None:
        raise Http404("no such shared army")
    return army


def armies_for(request: HttpRequest) -> QuerySet[Army]:
    """The user's armies, or this visitor's drafts, newest first."""
    if request.user.is_authenticated:
        return Army.objects.filter(owner=request.user).order_by("-updated", "-pk")
    key = visitor_draft_key(request)
    if not key:
        return Army.objects.none()
    return Army.objects.filter(owner__isnull=True, session_key=key).order_by("-updated", "-pk")


def draft_count(request: HttpRequest) -> int:
    if request.user.is_authenticated:
        return 0
    key = visitor_draft_key(request)
    return Army.objects.filter(owner__isnull=True, session_key=key).count() if key else 0


@dataclass(frozen=True)
class ArmySummary:
    """One line of "My armies": what a player needs to pick an army."""

    army: Army
    ruleset_title: str
    valid: bool | None
    total_points: int | None
    points_limit: int | None
    matrix_rows: tuple[int, ...] | None
    units: int
    errors: int
    warnings: int
    problem: str = ""


def army_summaries(armies: Iterable[Army]) -> list[ArmySummary]:
    """Check every army; army lists are read once per rule set, not once per army."""
    cache: dict[str, Mapping[str, Mapping[str, Any]]] = {}

    def lookup(ruleset: str) -> Mapping[str, Mapping[str, Any]]:
        if ruleset not in cache:
            cache[ruleset] = list_lookup(ruleset)
        return cache[ruleset]

    summaries = []
    for army in armies:
        try:
            title = rules.get_ruleset(army.ruleset).title
        except KeyError:
            title = army.ruleset
        try:
            _, report = rules.check_document(army.document, lookup)
        except rules.MalformedDocument as exc:
            summaries.append(
                ArmySummary(army, title, None, None, None, None, 0, 0, 0, problem=exc.message)
            )
            continue
        composition = report.composition or {}
        rows = composition.get("matrix_rows") if isinstance(composition, Mapping) else None
        summaries.append(
            ArmySummary(
                army=army,
                ruleset_title=title,
                valid=report.valid,
                total_points=report.total_points,
                points_limit=report.points_limit,
                matrix_rows=tuple(rows) if isinstance(rows, list | tuple) else None,
                units=len(report.units),
                errors=len(report.errors),
                warnings=len(report.warnings),
            )
        )
    return summaries
