"""Events: my events, a new event, its edit page, joining by code, the event's page.

Every event URL names the event by its code. A page a visitor may not use is a 404, the
same whether or not the event (or the thing in it) exists.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from armybuilder.events import event_games, selectors, services
from armybuilder.events.forms import EventForm
from armybuilder.events.list_access import lists_shown
from armybuilder.events.models import CODE_LENGTH, Entrant, Event
from armybuilder.events.presenters import event_words, local
from armybuilder.games.models import Game
from armybuilder.nostore import no_store


def event_url(event: Event) -> str:
    return reverse("events:event", args=[event.code])


@login_required
def my_events(request: HttpRequest) -> HttpResponse:
    return render(request, "events/my_events.html", selectors.my_events(request.user))


def _save(request: HttpRequest, form: EventForm, event: Event | None) -> Event | None:
    if not form.is_valid():
        return None
    data = form.cleaned_data
    co, unknown = services.users_named(data["co_names"])
    if unknown:
        form.add_error("co_organisers", f"No account is named {', '.join(unknown)}.")
        return None
    return services.save_event(
        request.user,
        fields=form.event_fields(),
        lists=data["allowed"],
        co_organisers=co,
        event=event,
    )


@login_required
def new_event(request: HttpRequest) -> HttpResponse:
    form = EventForm(request.POST or None, user=request.user)
    if request.method == "POST":
        saved = _save(request, form, None)
        if saved is not None:
            messages.success(request, f"Event created. Its code is {saved.code}.")
            return redirect(event_url(saved))
    return render(request, "events/edit.html", {"form": form, "event": None})


def edit_event(request: HttpRequest, code: str) -> HttpResponse:
    event = selectors.organised_event_or_404(code, user=request.user)
    if event.organiser_id != request.user.pk:  # a co-organiser: told before any form
        return render(request, "events/edit.html", {"form": None, "event": event}, status=403)
    form = EventForm(request.POST or None, user=request.user, initial=EventForm.initial_for(event))
    if request.method == "POST" and _save(request, form, event) is not None:
        messages.success(request, "Event saved.")
        return redirect(event_url(event))
    return render(request, "events/edit.html", {"form": form, "event": event})


def join_by_code(request: HttpRequest) -> HttpResponse:
    """A form for the event's short code (spaces and case forgiven)."""
    code = "".join(request.GET.get("code", "").split()).upper()
    error = ""
    if code:
        if len(code) == CODE_LENGTH and Event.objects.filter(code=code).exists():
            return redirect(reverse("events:event", args=[code]))
        error = f"No event has the code {code[:20]}. Codes are {CODE_LENGTH} letters and digits."
    return render(request, "events/join.html", {"error": error, "code": code[:20]})


def event_page(request: HttpRequest, code: str) -> HttpResponse:
    event = selectors.event_or_404(code)
    user = request.user
    entrant = selectors.entrant_of(event, user=user)
    runs = selectors.runs(event, user=user)
    approved = (
        selectors.approved_submissions(event) if selectors.sees_revealed(event, user=user) else []
    )
    words = event_words(event)
    response = render(
        request,
        "events/event.html",
        {
            **lists_shown(user, [item["allowed"] for item in words.lists]),
            "event": event,
            "words": words,
            "entrant": entrant,
            "runs": runs,
            "count": selectors.entrant_count(event),
            "revealed": selectors.revealed(event),
            "approved": approved,
            "join_url": request.build_absolute_uri(event_url(event)),
            "reopened_at": local(event.reopened_at, event) if event.reopened_at else "",
            "games": event_games.attached_games(event, user),
            "attachable": event_games.attachable_games(event, user),
        },
    )
    # the page differs by viewer and by the clock: never kept by a shared cache
    return no_store(response)


@require_POST
def enter(request: HttpRequest, code: str) -> HttpResponse:
    event = selectors.event_or_404(code)
    if not request.user.is_authenticated:
        return redirect_to_login(event_url(event))
    try:
        entrant = services.join(event, user=request.user)
    except services.Refused as exc:
        messages.error(request, exc.message)
        return redirect(event_url(event))
    if entrant.state == Entrant.WAITING:
        messages.info(request, "The event is full: you are on its waiting list.")
    else:
        messages.success(request, "You are entered. Choose the army to submit.")
    return redirect(reverse("events:entry", args=[event.code]))


@require_POST
def games(request: HttpRequest, code: str) -> HttpResponse:
    """Attach one of my games to the event (``do=attach``: an entrant's) or detach it. A
    game that is not the player's, or not attached here, is a 404, as for one that does not
    exist."""
    event = selectors.event_or_404(code)
    user = request.user
    try:
        pk = int(request.POST.get("game", "")[:20])
    except ValueError:
        raise Http404("no such game") from None
    mine = user.is_authenticated and 0 < pk < 2**63  # past a database integer: none such
    game = Game.objects.filter(pk=pk, owner_id=user.pk).first() if mine else None
    if game is None:
        raise Http404("no such game")
    do = request.POST.get("do", "")
    if do == "detach":
        if not event_games.detach(event, game):
            raise Http404("no such game")
        messages.success(request, f"{game.name} is no longer attached to the event.")
    elif do == "attach" and event_games.may_attach(event, user):
        try:
            event_games.attach(event, game, user)
        except event_games.Refused as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, f"{game.name} is attached to the event.")
    else:
        raise Http404("no such action")
    return redirect(event_url(event) + "#games-h")
