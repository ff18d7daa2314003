"""Every change to an event, its entrants and their submissions goes through here.

Each organiser's action on an entrant is recorded as a ``Note`` naming who did it, and
the player's entry page shows it.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from armybuilder.armies.models import Army
from armybuilder.catalog.models import ArmyList, ArmyListRevision
from armybuilder.events.checking import check_for_event, content_hash, event_rules
from armybuilder.events.models import AllowedList, Entrant, Event, Note, Roll, Submission
from armybuilder.events.selectors import held, past_deadline, revealed
from rules.registry import get_ruleset


class Refused(Exception):
    """A change that cannot be made; the message says why, for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# -- the event -----------------------------------------------------------------------------


def save_event(
    user: Any,
    fields: dict[str, Any],
    lists: list[tuple[ArmyList, int]],
    co_organisers: list[Any],
    event: Event | None = None,
) -> Event:
    """Create (``event`` None) or change an event, its allowed lists and co-organisers."""
    with transaction.atomic():
        if event is None:
            event = Event(organiser=user)
        for name, value in fields.items():
            setattr(event, name, value)
        event.save()
        wanted = {army_list.pk: number for army_list, number in lists}
        event.allowed_lists.exclude(army_list_id__in=list(wanted)).delete()
        for pk, number in wanted.items():
            AllowedList.objects.update_or_create(
                event=event, army_list_id=pk, defaults={"revision": number}
            )
        event.co_organisers.set([u for u in co_organisers if u.pk != event.organiser_id])
    return event


# -- entrants ------------------------------------------------------------------------------


def join(event: Event, user: Any) -> Entrant:
    """Enter the event, or its waiting list when it is full. Joining again changes nothing
    (a withdrawn entrant stays withdrawn: their record is kept). Entries close at the
    reveal: whoever joins later would see every army without having shown their own."""
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=event.pk).first()  # one joiner at a time
        found = Entrant.objects.filter(event=event, user=user).first()
        if found is not None:
            return found
        if revealed(event):
            raise Refused("Entries closed when the armies were revealed.")
        full = (
            event.cap is not None
            and event.entrants.filter(state=Entrant.ENTERED).count() >= event.cap
        )
        return Entrant.objects.create(
            event=event, user=user, state=Entrant.WAITING if full else Entrant.ENTERED
        )


def record(
    entrant: Entrant, by: Any, action: str, text: str = "", submission: Submission | None = None
) -> Note:
    return Note.objects.create(
        entrant=entrant, submission=submission, author=by, action=action, text=text
    )


def may_submit(entrant: Entrant, now: datetime) -> tuple[bool, bool]:
    """(may submit now, would be late)."""
    event = entrant.event
    if entrant.state != Entrant.ENTERED or entrant.lock == Entrant.LOCKED:
        return False, False
    late = past_deadline(event, now)
    if not late or entrant.lock == Entrant.OPEN:
        return True, late
    return event.accept_late, late


def submit(entrant: Entrant, army: Army, by: Any, *, on_behalf: bool = False) -> Submission:
    """Lock a snapshot of ``army`` as the entrant's newest submission, checked on the
    server. The time is read once, under the entrant's lock, and decides on time or late:
    a submission racing the deadline is one or the other, never lost."""
    event = entrant.event
    if army.deleted_at is not None or army.owner_id != entrant.user_id:
        raise Refused("Only an army of the entrant's own can be submitted.")
    if event.forces_rolled:
        raise Refused("This event rolls each force: use “Roll my force” instead.")
    checked = check_for_event(
        event, army.document, owner_id=army.owner_id, own_pins=army.list_pins or {}
    )
    if checked.document is None:
        raise Refused(f"The army cannot be read: {checked.malformed}")
    return _store(entrant, army, checked, by, on_behalf=on_behalf)


MAX_SUBMISSIONS = 100  # per entrant: every one is kept, so there is an end to them


def _store(
    entrant: Entrant,
    army: Army | None,
    checked: Any,
    by: Any,
    *,
    on_behalf: bool = False,
    seed: int | None = None,
) -> Submission:
    with transaction.atomic():
        entrant = Entrant.objects.select_for_update().select_related("event").get(pk=entrant.pk)
        now = timezone.now()
        allowed, late = may_submit(entrant, now)
        if not allowed and not on_behalf:
            raise Refused(closed_reason(entrant))
        number = (entrant.submissions.aggregate(n=Max("number"))["n"] or 0) + 1
        if number > MAX_SUBMISSIONS and not on_behalf:
            raise Refused(
                f"You have submitted {MAX_SUBMISSIONS} times; ask the organiser to submit "
                "for you if you need another."
            )
        submission = Submission.objects.create(
            entrant=entrant,
            number=number,
            army=army,
            document=checked.document,
            list_revisions=dict(checked.list_revisions),
            content_hash=content_hash(checked.document, checked.list_revisions),
            submitted_at=now,
            late=late,
            valid=checked.valid,
            total_points=checked.total_points,
            problems=list(checked.problems),
            submitted_by=by,
            roll_seed=seed,
        )
        if on_behalf:
            record(entrant, by, "submitted on your behalf", f"Submission {number}", submission)
    return submission


def closed_reason(entrant: Entrant) -> str:
    if entrant.state == Entrant.WAITING:
        return "You are on the waiting list: you can submit once a place is yours."
    if entrant.state == Entrant.WITHDRAWN:
        return "You have withdrawn from this event."
    if entrant.lock == Entrant.LOCKED:
        return "The organiser has locked your submission."
    return "The submission deadline has passed and this event does not accept late armies."


# -- the organiser's desk ------------------------------------------------------------------

STATE_WORDS = {
    Submission.NEEDS_CHANGES: "asked for changes",
    Submission.APPROVED: "approved",
}


def post_note(entrant: Entrant, by: Any, text: str, state: str = "", *, runs_event: bool) -> Note:
    """A message in the entrant's thread about their held submission; a checker may set it
    to "needs changes" or "approved"."""
    text = text.strip()
    submission = held(entrant)
    if state and not runs_event:
        raise Refused("Only the organisers set a submission's state.")
    if state and state not in STATE_WORDS:
        raise Refused("The state must be “needs changes” or “approved”.")
    if state and submission is None:
        raise Refused("There is no submission to set a state on.")
    if not text and not state:
        raise Refused("Write a message.")
    if len(text) > 5000:
        raise Refused("A message is at most 5000 characters.")
    with transaction.atomic():
        if state:
            Submission.objects.filter(pk=submission.pk).update(state=state)
        return record(entrant, by, STATE_WORDS.get(state, ""), text, submission)


def set_lock(entrant: Entrant, by: Any, lock: str) -> None:
    words = {
        Entrant.OPEN: "unlocked your submission",
        Entrant.LOCKED: "locked your submission",
        Entrant.FOLLOWS: "set your submission to follow the deadline",
    }
    if lock not in words:
        raise Refused("Unknown lock.")
    Entrant.objects.filter(pk=entrant.pk).update(lock=lock)
    record(entrant, by, words[lock])


def return_to_draft(entrant: Entrant, by: Any) -> None:
    submission = held(entrant)
    if submission is None:
        raise Refused("There is no submission to return.")
    if submission.roll_seed is not None:
        raise Refused("A rolled force is never rolled again, so it cannot be returned to draft.")
    Submission.objects.filter(pk=submission.pk).update(state=Submission.RETURNED)
    record(
        entrant,
        by,
        "returned your submission to draft",
        f"Submission {submission.number}",
        submission,
    )


def withdraw(entrant: Entrant, by: Any) -> None:
    """The entrant leaves the event; their record and submissions are kept. The first on
    the waiting list takes the place."""
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=entrant.event_id).first()
        Entrant.objects.filter(pk=entrant.pk).update(state=Entrant.WITHDRAWN)
        record(entrant, by, "withdrew the entry")
        waiting = entrant.event.entrants.filter(state=Entrant.WAITING).first()
        if waiting is not None:
            Entrant.objects.filter(pk=waiting.pk).update(state=Entrant.ENTERED)
            record(waiting, by, "moved you from the waiting list into the event")


def check_in(entrant: Entrant, by: Any, present: bool) -> None:
    Entrant.objects.filter(pk=entrant.pk).update(checked_in=present)
    record(entrant, by, "checked you in" if present else "marked you absent")


# -- mystery armies ------------------------------------------------------------------------


def roll_force(entrant: Entrant, army_list: ArmyList, by: Any) -> Submission:
    """Roll the entrant's force once, with a seed the server chooses and keeps, on the
    event's revision of the list; the roll is the entrant's submission. A second roll is
    refused (and the database's unique constraint refuses it too)."""
    event = entrant.event
    if not event.forces_rolled:
        raise Refused("This event does not roll forces.")
    rules_ = event_rules(event)
    if army_list.slug not in rules_.lists:
        raise Refused("Choose one of the event's army lists.")
    revision = ArmyListRevision.objects.get(
        army_list=army_list, number=rules_.lists[army_list.slug]
    )
    seed = secrets.randbelow(1_000_000)  # the CLI's range, so `muster roll --seed` takes it
    document = get_ruleset(event.ruleset).roll_force(
        army_list.slug, revision.data, seed, list_name=army_list.name
    )
    checked = check_for_event(event, document, owner_id=entrant.user_id)
    if checked.document is None:
        raise Refused(f"The rolled force cannot be read: {checked.malformed}")
    try:
        with transaction.atomic():
            Roll.objects.create(
                entrant=entrant, seed=seed, army_list=army_list.slug, document=checked.document
            )
            return _store(entrant, None, checked, by, seed=seed)
    except IntegrityError:
        raise Refused("Your force has been rolled already; it cannot be rolled again.") from None


def users_named(names: list[str]) -> tuple[list[Any], list[str]]:
    """The accounts with these usernames, and the names no account has."""
    model = get_user_model()
    found = list(model.objects.filter(username__in=names))
    known = {u.username for u in found}
    return found, [n for n in names if n not in known]
