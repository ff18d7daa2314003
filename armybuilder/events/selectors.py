"""Reads of events: who the viewer is to an event, and what they may see, in one place.

Before the reveal a player sees their own submissions and the number of entrants; the
organiser and co-organisers see everything. From the reveal every approved submission is
shown to the event's entrants (and to anyone, when the organiser allows it). Everything
else is a 404, the same whether or not the thing exists.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404
from django.utils import timezone

from armybuilder.armies.selectors import live_armies
from armybuilder.catalog.models import ArmyList
from armybuilder.events.models import Entrant, Event, Submission

ORGANISER, CO_ORGANISER, ENTRANT = "organiser", "co-organiser", "entrant"


def event_or_404(code: str) -> Event:
    event = Event.objects.filter(code=str(code).upper()).first() if code else None
    if event is None:
        raise Http404("no such event")
    return event


def role(event: Event, *, user: Any) -> str:
    """organiser, co-organiser, entrant (entered, waiting or withdrawn) or ""."""
    if user is None or not getattr(user, "is_authenticated", False):
        return ""
    if event.organiser_id == user.pk:
        return ORGANISER
    if event.co_organisers.filter(pk=user.pk).exists():
        return CO_ORGANISER
    if Entrant.objects.filter(event=event, user=user).exists():
        return ENTRANT
    return ""


def runs(event: Event, *, user: Any) -> bool:
    """The organiser or a co-organiser: they see and act on every entrant."""
    return role(event, user=user) in (ORGANISER, CO_ORGANISER)


def organised_event_or_404(code: str, *, user: Any) -> Event:
    event = event_or_404(code)
    if not runs(event, user=user):
        raise Http404("no such event")
    return event


def revealed(event: Event, *, now: datetime | None = None) -> bool:
    return (now or timezone.now()) >= event.reveal_at


def past_deadline(event: Event, *, now: datetime | None = None) -> bool:
    return (now or timezone.now()) > event.deadline


def final(event: Event, *, now: datetime | None = None) -> bool:
    """From the reveal every submission is final: none made, replaced, returned or
    withdrawn, unless the organiser has explicitly reopened the event. The server's clock
    decides (the times are stored as instants; the event's time zone only words them)."""
    return revealed(event, now=now) and event.reopened_at is None


def entrant_of(event: Event, *, user: Any) -> Entrant | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Entrant.objects.filter(event=event, user=user).first()


def held(entrant: Entrant) -> Submission | None:
    """The submission the organiser holds for an entrant: the newest, unless it was
    returned to draft (then none until the player submits again)."""
    latest = entrant.submissions.order_by("-number").first()
    if latest is None or latest.state == Submission.RETURNED:
        return None
    return latest


def entrant_count(event: Event) -> int:
    return event.entrants.filter(state=Entrant.ENTERED).count()


def approved_submissions(event: Event) -> list[Submission]:
    """Each entered entrant's held submission, when approved, in entrant order."""
    found = []
    for entrant in event.entrants.filter(state=Entrant.ENTERED).select_related("user"):
        submission = held(entrant)
        if submission is not None and submission.state == Submission.APPROVED:
            found.append(submission)
    return found


def sees_revealed(event: Event, *, user: Any, now: datetime | None = None) -> bool:
    """May ``user`` see the event's approved armies? Organisers always; after the reveal
    its entrants, and anyone when the event is public after the reveal."""
    if runs(event, user=user):
        return True
    if not revealed(event, now=now):
        return False
    if event.public_after_reveal:
        return True
    found = entrant_of(event, user=user)
    return found is not None and found.state == Entrant.ENTERED


def visible_submission_or_404(event: Event, *, pk: Any, user: Any) -> Submission:
    """A submission of the event the user may read, else 404 (the same 404 whether it
    does not exist, is someone else's, or is not revealed yet).

    One code path and one cost for every id: who the viewer is to the event is settled
    first (queries that never read the id), then one query asks for the submission with
    what the viewer may read as its filter. A hidden id and a made-up one run the same
    queries and answer the same 404; neither is told apart by time."""
    try:
        number = int(pk)
    except (TypeError, ValueError):
        raise Http404("no such submission") from None
    organiser = runs(event, user=user)
    sees = sees_revealed(event, user=user)
    me = user.pk if getattr(user, "is_authenticated", False) else None
    rows = Submission.objects.select_related("entrant__user", "entrant__event").filter(
        pk=number, entrant__event=event
    )
    if not organiser:
        newer = Submission.objects.filter(
            entrant=OuterRef("entrant"), number__gt=OuterRef("number")
        )
        mine = Q(entrant__user_id=me) if me is not None else Q(pk__in=[])
        shown = Q(entrant__state=Entrant.ENTERED, state=Submission.APPROVED) & ~Exists(newer)
        rows = rows.filter(mine | shown if sees else mine)
    found = rows.first()
    if found is None:
        raise Http404("no such submission")
    return found


def army_under_embargo(army_pk: int) -> bool:
    """An army submitted to an event whose reveal has not come: its own share link must not
    show it (armies.selectors asks this through its share guards)."""
    return Submission.objects.filter(
        army_id=army_pk, entrant__event__reveal_at__gt=timezone.now()
    ).exists()


def my_events(user: Any) -> dict[str, list[Event]]:
    organised = Event.objects.filter(organiser=user) | Event.objects.filter(co_organisers=user)
    entered = Event.objects.filter(entrants__user=user)
    return {"organised": list(organised.distinct()), "entered": list(entered.distinct())}


def list_checks_entries(army_list: ArmyList) -> str:
    """The submissions already checked against a revision of the list: they keep that
    revision (an event's own snapshot) when its author deletes it. An event that only
    allowed the list, with nothing submitted on it, lets it go."""
    made = Submission.objects.filter(
        entrant__event__ruleset=army_list.ruleset, list_revisions__has_key=army_list.slug
    ).count()
    if not made:
        return ""
    return f"{made} event submission{'' if made == 1 else 's'} checked against it"


def behalf_armies(entrant: Entrant, *, by: Any) -> QuerySet:
    """The armies an organiser may submit for an entrant: of the event's rule set, either
    offered by the entrant (one they submitted to this event themselves) or built by the
    organiser who submits it. Never any other army of the entrant's, whatever its id."""
    offered = entrant.submissions.filter(submitted_by_id=entrant.user_id).exclude(army=None)
    mine = Q(owner_id=by.pk) if getattr(by, "is_authenticated", False) else Q(pk__in=[])
    return (
        live_armies()
        .filter(document__ruleset=entrant.event.ruleset)
        .filter(Q(pk__in=offered.values("army_id"), owner_id=entrant.user_id) | mine)
        .order_by("-updated", "pk")
    )


SEED_HIDDEN = "seed shown after the reveal"


def _without_seed(value: Any, words: str) -> Any:
    if isinstance(value, str):
        return value.replace(words, SEED_HIDDEN)
    if isinstance(value, list):
        return [_without_seed(v, words) for v in value]
    if isinstance(value, dict):
        return {k: _without_seed(v, words) for k, v in value.items()}
    return value


def army_file(submission: Submission, *, now: datetime | None = None) -> dict[str, Any]:
    """The submitted army as a ``muster.army/1`` document naming the revisions it was
    checked against: what every page, export, API answer and PDF of it shows. A rolled
    force's seed appears nowhere before the reveal, to anyone (its notes name it)."""
    document = {**submission.document, "list_revisions": dict(submission.list_revisions)}
    if submission.roll_seed is not None and not revealed(submission.entrant.event, now=now):
        document = _without_seed(document, f"seed {submission.roll_seed}")
    return document
