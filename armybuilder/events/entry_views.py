"""A player's entry: choose an army, see every problem the event's checker finds, submit,
read the organiser's thread and the record of what was done to the entry."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from armybuilder.armies import pinning
from armybuilder.armies.models import Army
from armybuilder.armies.selectors import live_armies
from armybuilder.catalog.models import ArmyList, ArmyListRevision
from armybuilder.events import selectors, services
from armybuilder.events.checking import check_for_event, readable_allowed
from armybuilder.events.list_access import lists_shown
from armybuilder.events.models import Entrant, Event, Roll
from armybuilder.events.presenters import event_words, local, revision_offers
from armybuilder.nostore import no_store


def _entrant_or_404(request: HttpRequest, code: str) -> tuple[Event, Entrant]:
    event = selectors.event_or_404(code)
    entrant = selectors.entrant_of(event, user=request.user)
    if entrant is None:
        raise Http404("not entered")
    return event, entrant


def _entry_url(event: Event) -> str:
    return reverse("events:entry", args=[event.code])


def _own_army(request: HttpRequest, event: Event, pk: str) -> Army | None:
    try:
        number = int(pk)
    except (TypeError, ValueError):
        return None
    return (
        live_armies().filter(pk=number, owner=request.user, document__ruleset=event.ruleset).first()
    )


def entry(request: HttpRequest, code: str) -> HttpResponse:
    event, entrant = _entrant_or_404(request, code)
    armies = list(live_armies().filter(owner=request.user, document__ruleset=event.ruleset))
    chosen = (
        _own_army(request, event, request.GET.get("army", "")) if "army" in request.GET else None
    )
    preview = offers = None
    if chosen is not None:
        preview = check_for_event(
            event, chosen.document, owner_id=chosen.owner_id, own_pins=chosen.list_pins or {}
        )
        offers = revision_offers(event, chosen)
    submissions = list(entrant.submissions.select_related("submitted_by").order_by("-number"))
    held = selectors.held(entrant)
    allowed, late = services.may_submit(entrant, timezone.now())
    roll = Roll.objects.filter(entrant=entrant).first()
    words = event_words(event)
    response = render(
        request,
        "events/entry.html",
        {
            **lists_shown(request.user, [item["allowed"] for item in words.lists]),
            "event": event,
            "words": words,
            "entrant": entrant,
            "armies": armies,
            "chosen": chosen,
            "preview": preview,
            "offers": offers,
            "submissions": submissions,
            "held": held,
            "notes": list(entrant.notes.select_related("author", "submission")),
            "may_submit": allowed,
            "would_be_late": late,
            "closed_reason": "" if allowed else services.closed_reason(entrant),
            "roll": roll,
            "revealed": selectors.revealed(event),
            "deadline": local(event.deadline, event),
            "allowed_lists": readable_allowed(event),
        },
    )
    return no_store(response)


@require_POST
def submit(request: HttpRequest, code: str) -> HttpResponse:
    event, entrant = _entrant_or_404(request, code)
    army = _own_army(request, event, request.POST.get("army", ""))
    if army is None:
        messages.error(request, f"Choose one of your {event_words(event).ruleset} armies.")
        return redirect(_entry_url(event))
    try:
        made = services.submit(entrant, army=army, by=request.user)
    except services.Refused as exc:
        messages.error(request, exc.message)
        return redirect(f"{_entry_url(event)}?army={army.pk}")
    late = " It is marked late." if made.late else ""
    verdict = "legal" if made.valid else "not legal: see the problems below"
    messages.success(request, f"Submission {made.number} is locked in ({verdict}).{late}")
    return redirect(_entry_url(event))


@require_POST
def pin_to_event(request: HttpRequest, code: str) -> HttpResponse:
    """Check the player's army against the event's revision of a list from now on (the
    armies' own pin, undoable from the army's list page like any pin change)."""
    event, entrant = _entrant_or_404(request, code)
    army = _own_army(request, event, request.POST.get("army", ""))
    slug = request.POST.get("list", "")
    allowed = readable_allowed(event).filter(army_list__slug=slug).first()
    if army is None or allowed is None:
        messages.error(request, "Choose one of your armies and one of the event's lists.")
        return redirect(_entry_url(event))
    revision = ArmyListRevision.objects.get(army_list=allowed.army_list, number=allowed.revision)
    pinning.restore_pins(army, revision)
    messages.success(request, f"Your army is now checked against revision {allowed.revision}.")
    return redirect(f"{_entry_url(event)}?army={army.pk}")


@require_POST
def roll(request: HttpRequest, code: str) -> HttpResponse:
    event, entrant = _entrant_or_404(request, code)
    army_list = ArmyList.objects.filter(
        ruleset=event.ruleset, slug=request.POST.get("list", "")
    ).first()
    if army_list is None:
        messages.error(request, "Choose one of the event's army lists.")
        return redirect(_entry_url(event))
    try:
        services.roll_force(entrant, army_list=army_list, by=request.user)
    except services.Refused as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "Your force is rolled and submitted. It cannot be rolled again.")
    return redirect(_entry_url(event))


@require_POST
def reply(request: HttpRequest, code: str) -> HttpResponse:
    event, entrant = _entrant_or_404(request, code)
    try:
        services.post_note(
            entrant, by=request.user, text=request.POST.get("text", ""), runs_event=False
        )
    except services.Refused as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "Sent to the organisers: it is in your thread below.")
    return redirect(_entry_url(event) + "#thread-h")
