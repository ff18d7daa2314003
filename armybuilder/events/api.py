"""The JSON API of an event (``/api/v1/events/``): the event, its entrant table and its
approved armies as ``muster.army/1`` documents.

The same rules as the pages: the event is read by anyone holding its code; the entrant
table and the armies by its organisers, and from the reveal by its entrants (by anyone
when the event is public after the reveal). Anyone else gets the same 404 as for a code
nobody issued. Read-only (GET), never cached.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import Http404, HttpRequest, JsonResponse
from django.urls import path, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from armybuilder.events import selectors
from armybuilder.events.checking import event_rules
from armybuilder.events.models import Event
from armybuilder.events.presenters import desk_rows
from rules.registry import get_ruleset
from rules.restrictions import describe_restriction


def _event_api(view: Callable[..., JsonResponse]) -> Callable[..., JsonResponse]:
    """A read-only, never-cached API view whose every "not found" (a code nobody issued,
    or an event this reader may not see) is the same JSON 404."""

    @never_cache
    @require_safe
    @wraps(view)
    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
        try:
            return view(request, *args, **kwargs)
        except Http404:
            return JsonResponse({"error": "no such event", "path": ""}, status=404)

    return answer


def _event_json(request: HttpRequest, event: Event) -> dict[str, Any]:
    rules_ = event_rules(event)
    ruleset = get_ruleset(event.ruleset)
    return {
        "code": event.code,
        "name": event.name,
        "date": event.date.isoformat(),
        "place": event.place,
        "time_zone": event.time_zone,
        "ruleset": event.ruleset,
        "points_limit": rules_.points_limit,
        "lists": [
            {"slug": slug, "name": rules_.list_words(slug), "revision": number}
            for slug, number in sorted(rules_.lists.items())
        ],
        "restrictions": [
            {**r.to_json(), "text": describe_restriction(r, ruleset)} for r in rules_.restrictions
        ],
        "deadline": event.deadline.isoformat(),
        "reveal_at": event.reveal_at.isoformat(),
        "accept_late": event.accept_late,
        "cap": event.cap,
        "forces_rolled": event.forces_rolled,
        "entrants": selectors.entrant_count(event),
        "revealed": selectors.revealed(event),
        "rules_file": request.build_absolute_uri(reverse("events:rules_file", args=[event.code])),
    }


@_event_api
def event(request: HttpRequest, code: str) -> JsonResponse:
    found = selectors.event_or_404(code)
    return JsonResponse(_event_json(request, found))


def _table_row(row: Any, *, full: bool) -> dict[str, Any]:
    sub = row.submission
    data: dict[str, Any] = {
        "player": row.entrant.user.get_username(),
        "army": sub.army_name if sub else None,
        "total_points": sub.total_points if sub else None,
        "submission": sub.pk if sub else None,
    }
    if full:
        data.update(
            entry=row.entrant.state,
            checked_in=row.entrant.checked_in,
            status=row.status,
            submitted_at=sub.submitted_at.isoformat() if sub else None,
            late=sub.late if sub else None,
            valid=sub.valid if sub else None,
            problems=row.errors,
        )
    return data


@_event_api
def entrants(request: HttpRequest, code: str) -> JsonResponse:
    """Organisers: every entrant with state and problems. After the reveal, to whoever may
    see the armies: the entrants whose approved army is shown."""
    found = selectors.event_or_404(code)
    if not selectors.sees_revealed(found, user=request.user):
        raise Http404
    full = selectors.runs(found, user=request.user)
    rows = desk_rows(found)
    if not full:
        approved = {s.pk for s in selectors.approved_submissions(found)}
        rows = [r for r in rows if r.submission is not None and r.submission.pk in approved]
    return JsonResponse({"entrants": [_table_row(r, full=full) for r in rows]})


@_event_api
def submissions(request: HttpRequest, code: str) -> JsonResponse:
    """The approved armies, in entrant order, each a ``muster.army/1`` document."""
    found = selectors.event_or_404(code)
    if not selectors.sees_revealed(found, user=request.user):
        raise Http404
    return JsonResponse(
        {
            "armies": [
                {
                    "submission": s.pk,
                    "player": s.entrant.user.get_username(),
                    "document": selectors.army_file(s),
                }
                for s in selectors.approved_submissions(found)
            ]
        }
    )


@_event_api
def submission(request: HttpRequest, code: str, submission: int) -> JsonResponse:
    found = selectors.event_or_404(code)
    shown = selectors.visible_submission_or_404(found, pk=submission, user=request.user)
    return JsonResponse(selectors.army_file(shown))


urlpatterns = [
    path("<str:code>", event, name="event"),
    path("<str:code>/entrants", entrants, name="event_entrants"),
    path("<str:code>/armies", submissions, name="event_armies"),
    path("<str:code>/armies/<int:submission>", submission, name="event_army"),
]
