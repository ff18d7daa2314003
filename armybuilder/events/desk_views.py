"""The organiser's desk: every entrant in one table, the actions on one entrant, the CSV,
and the pages of one submission (the organiser's, its player's, everyone's after reveal)."""

from __future__ import annotations

import csv
import json
from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

import rules
from armybuilder.armies.models import Army
from armybuilder.catalog.models import ArmyListRevision
from armybuilder.catalog.pins import list_title
from armybuilder.catalog.selectors import pinned_lookup
from armybuilder.catalog.services import check_document
from armybuilder.events import selectors, services
from armybuilder.events.checking import event_rules, readable_allowed
from armybuilder.events.list_access import lists_shown
from armybuilder.events.models import Entrant, Event, Submission
from armybuilder.events.presenters import desk_rows, event_words, local
from armybuilder.nostore import no_store
from rules.restrictions import event_rules_document


def desk(request: HttpRequest, code: str) -> HttpResponse:
    event = selectors.organised_event_or_404(code, user=request.user)
    rows = [
        replace(r, behalf=tuple(selectors.behalf_armies(r.entrant, by=request.user)))
        if r.submission is None and r.entrant.state == Entrant.ENTERED
        else r
        for r in desk_rows(event)
    ]
    entered = [r for r in rows if r.entrant.state == Entrant.ENTERED]
    context = {
        "event": event,
        "words": event_words(event),
        "rows": rows,
        "missing": [r for r in entered if r.submission is None],
        "totals": {
            "entered": len(entered),
            "submitted": sum(1 for r in entered if r.submission is not None),
            "late": sum(1 for r in entered if r.submission is not None and r.submission.late),
            "illegal": sum(
                1 for r in entered if r.submission is not None and not r.submission.valid
            ),
            "approved": sum(
                1 for r in entered if r.submission and r.submission.state == Submission.APPROVED
            ),
            "approved_not_legal": sum(1 for r in entered if r.approved_not_legal),
            "checked_in": sum(1 for r in entered if r.entrant.checked_in),
            "waiting": sum(1 for r in rows if r.entrant.state == Entrant.WAITING),
        },
        "local": lambda moment: local(moment, event),
        "revealed": selectors.revealed(event),
        "past_deadline": selectors.past_deadline(event),
        "final": selectors.final(event),
        "reopened_at": local(event.reopened_at, event) if event.reopened_at else "",
    }
    return no_store(render(request, "events/desk.html", context))


def desk_csv(request: HttpRequest, code: str) -> HttpResponse:
    event = selectors.organised_event_or_404(code, user=request.user)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-{event.code}-entrants.csv"'
    writer = csv.writer(response)
    writer.writerow(
        [
            "player",
            "entry",
            "checked in",
            "army",
            "list",
            "revision",
            "submission",
            "submitted by",
            "submitted",
            "late",
            "legal",
            "points",
            "state",
            "problems",
        ]
    )
    for row in desk_rows(event):
        sub = row.submission
        writer.writerow(
            [
                _cell(row.entrant.user.get_username()),
                row.entrant.get_state_display(),
                "yes" if row.entrant.checked_in else "no",
                _cell(sub.army_name) if sub else "",
                _cell(_list_name(event, sub)) if sub else "",
                sub.list_revisions.get(sub.document.get("army_list"), "") if sub else "",
                sub.number if sub else "",
                _cell(sub.submitted_by.get_username()) if sub and sub.submitted_by else "",
                local(sub.submitted_at, event) if sub else "missing",
                ("yes" if sub.late else "no") if sub else "",
                ("yes" if sub.valid else "no") if sub else "",
                sub.total_points if sub and sub.total_points is not None else "",
                row.status,
                _cell("; ".join(f"{p['message']} ({p['rule']})" for p in row.errors)),
            ]
        )
    return no_store(response)


def _list_name(event: Event, submission: Submission) -> str:
    slug = submission.document.get("army_list")
    return list_title(event.ruleset, slug, submission.list_revisions.get(slug)) if slug else ""


def _cell(text: str) -> str:
    """A spreadsheet never runs a cell a player wrote as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


ACTIONS = (
    "lock",
    "unlock",
    "follow",
    "return",
    "withdraw",
    "reinstate",
    "checkin",
    "absent",
    "note",
    "remind",
    "submit",
)
DRAFT = "event-note-draft-{}"  # a refused decision's message, kept for the page it returns to


@require_POST
def entrant_action(request: HttpRequest, code: str, entrant: int, action: str) -> HttpResponse:
    event = selectors.organised_event_or_404(code, user=request.user)
    found = Entrant.objects.filter(event=event, pk=entrant).select_related("event").first()
    if found is None or action not in ACTIONS:
        raise Http404("no such entrant")
    by = request.user
    seen = services.seen_of(request.POST.get("submission"), version=request.POST.get("version"))
    back = _back(request, event, found)
    try:
        if action in ("lock", "unlock", "follow"):
            lock = {"lock": Entrant.LOCKED, "unlock": Entrant.OPEN, "follow": Entrant.FOLLOWS}
            services.set_lock(found, by=by, lock=lock[action])
        elif action == "return":
            services.return_to_draft(found, by=by, seen=seen)
        elif action == "withdraw":
            services.withdraw(found, by=by)
        elif action == "reinstate":
            services.reinstate(found, by=by)
        elif action in ("checkin", "absent"):
            services.check_in(found, by=by, present=action == "checkin")
        elif action == "note":
            services.post_note(
                found,
                by=by,
                text=request.POST.get("text", ""),
                state=request.POST.get("state", ""),
                runs_event=True,
                seen=seen,
                approve_not_legal=request.POST.get("approve_not_legal") == "1",
            )
        elif action == "remind":
            services.remind(found, by=by)
        else:
            army = _behalf_army(found, by, request.POST.get("army", ""))
            if army is None:
                raise services.Refused(
                    "Choose an army the player submitted to this event, or one you built."
                )
            services.submit(found, army=army, by=by, on_behalf=True)
    except services.Refused as exc:
        if action == "note" and request.POST.get("text", "").strip():
            request.session[DRAFT.format(found.pk)] = request.POST.get("text", "")[:5000]
        if isinstance(exc, services.NotLegal) and seen is not None:
            messages.warning(request, exc.message)
            page = reverse("events:submission", args=[event.code, seen[0]])
            return redirect(f"{page}?confirm=approve#decide")
        messages.error(request, exc.message)
    else:
        messages.success(request, _done(action, found))
    return redirect(back)


def _done(action: str, entrant: Entrant) -> str:
    name = entrant.user.get_username()
    if action == "withdraw":
        return f"{name} is withdrawn. “Undo the withdrawal” on their row puts them back."
    if action == "note":
        return f"Sent to {name}: it is in their thread."
    return f"Done: {name} sees it on their entry."


def _back(request: HttpRequest, event: Event, entrant: Entrant) -> str:
    """Where the action was taken from: a submission page of this entrant, else the desk."""
    try:
        page = int(request.POST.get("back_to", ""))
    except ValueError:
        page = None
    if page is not None and entrant.submissions.filter(pk=page).exists():
        return reverse("events:submission", args=[event.code, page]) + "#thread-h"
    return reverse("events:desk", args=[event.code]) + f"#entrant-{entrant.pk}"


def _behalf_army(entrant: Entrant, by: Any, pk: str) -> Army | None:
    try:
        number = int(pk)
    except (TypeError, ValueError):
        return None
    return selectors.behalf_armies(entrant, by=by).filter(pk=number).first()


@require_POST
def reopen(request: HttpRequest, code: str) -> HttpResponse:
    """After the reveal the organiser may reopen submissions, and make them final again."""
    event = selectors.organised_event_or_404(code, user=request.user)
    opening = request.POST.get("open") == "1"
    try:
        services.reopen(event, by=request.user, open_=opening)
    except services.Refused as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            "Submissions are reopened; every entrant was told."
            if opening
            else "Submissions are final again; every entrant was told.",
        )
    return redirect(reverse("events:desk", args=[event.code]))


def submission_page(request: HttpRequest, code: str, submission: int) -> HttpResponse:
    event = selectors.event_or_404(code)
    found = selectors.visible_submission_or_404(event, pk=submission, user=request.user)
    runs = selectors.runs(event, user=request.user)
    context = {
        "event": event,
        "submission": found,
        "report": submitted_report(found),
        "checked_against": [
            list_title(event.ruleset, slug, number)
            for slug, number in sorted(found.list_revisions.items())
        ],
        "runs": runs,
        "roll_revision": found.list_revisions.get(found.document.get("army_list"), ""),
        # the seed is shown to no one before the reveal, organisers included
        "seed_shown": found.roll_seed is not None and selectors.revealed(event),
        "submitted_at": local(found.submitted_at, event),
        # the entrant's one thread, every message marked against its submission
        "notes": list(found.entrant.notes.select_related("author", "submission"))
        if runs or found.entrant.user_id == request.user.pk
        else [],
        "player_armies": list(selectors.behalf_armies(found.entrant, by=request.user))
        if runs
        else [],
        "newest": found.entrant.submissions.order_by("-number").first() if runs else None,
        "final": selectors.final(event),
        "draft": request.session.pop(DRAFT.format(found.entrant_id), "") if runs else "",
        # approving a submission that is not legal: the second, explicit step
        "confirm_approve": runs
        and request.GET.get("confirm") == "approve"
        and not found.valid
        and found.state != Submission.APPROVED,
    }
    return no_store(render(request, "events/submission.html", context))


def submitted_report(submission: Submission) -> Any:
    """The submitted army's check report, unit by unit, against the revisions it was
    submitted with (None if it no longer reads: the stored verdict still stands)."""
    lookup = pinned_lookup(submission.entrant.user_id, list_pins=submission.list_revisions)
    try:
        return check_document(submission.document, lookup=lookup)[1]
    except rules.MalformedDocument:
        return None


def submission_file(request: HttpRequest, code: str, submission: int) -> HttpResponse:
    """The submitted army as its ``muster.army/1`` file (with the revisions it was checked
    against), for whoever may read the submission."""
    event = selectors.event_or_404(code)
    found = selectors.visible_submission_or_404(event, pk=submission, user=request.user)
    document = selectors.army_file(found)
    response = HttpResponse(
        json.dumps(document, indent=2, ensure_ascii=False), content_type="application/json"
    )
    response["Content-Disposition"] = (
        f'attachment; filename="event-{event.code}-submission-{found.pk}.json"'
    )
    return no_store(response)


def rules_document(event: Event) -> dict:
    rules_ = event_rules(event)
    data = {}
    for item in readable_allowed(event):  # only what entrants may see
        revision = ArmyListRevision.objects.get(army_list=item.army_list, number=item.revision)
        data[item.army_list.slug] = revision.data
    return event_rules_document(event.name, rules_, data)


def rules_file(request: HttpRequest, code: str) -> HttpResponse:
    """The event's rules as a ``muster.event/1`` file: `muster check --event` reads it.
    It carries each allowed list's data, so it is served only to who may read every one of
    them: anyone when they are all public; else the event's organisers, and its entrants
    while the event lasts (a list shared by link reaches no one else through the event)."""
    event = selectors.event_or_404(code)
    # the organisers read every list the event still shows (``readable_allowed``), after
    # the event too; anyone else only what the event's grant or the public catalogue opens
    runs = selectors.runs(event, user=request.user)
    if not runs and not lists_shown(request.user, readable_allowed(event))["readable_all"]:
        raise Http404("no such event")
    response = HttpResponse(
        json.dumps(rules_document(event), indent=2, ensure_ascii=False),
        content_type="application/json",
    )
    response["Content-Disposition"] = f'attachment; filename="event-{event.code}-rules.json"'
    return no_store(response)
