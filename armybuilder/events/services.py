"""Every change to an event, its entrants and their submissions goes through here.

Each organiser's action on an entrant is recorded as a ``Note`` naming who did it, and
the player's entry page shows it.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.utils import timezone

from armybuilder.armies.models import Army
from armybuilder.catalog.models import ArmyList, ArmyListRevision
from armybuilder.catalog.selectors import readable_lists
from armybuilder.events.checking import check_for_event, content_hash, event_rules
from armybuilder.events.models import AllowedList, Entrant, Event, Note, Roll, Submission
from armybuilder.events.presenters import local
from armybuilder.events.rechecks import rules_state, what_changed
from armybuilder.events.selectors import final, held, past_deadline, revealed
from armybuilder.events.tasks import recheck_submissions
from armybuilder.events.timing import closed_reason, late_for, may_submit
from rules.registry import get_ruleset


class Refused(Exception):
    """A change that cannot be made; the message says why, for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# -- the event -----------------------------------------------------------------------------


def save_event(
    user: Any,
    *,
    fields: dict[str, Any],
    lists: list[tuple[ArmyList, int]],
    co_organisers: list[Any],
    event: Event | None = None,
) -> Event:
    """Create (``event`` None) or change an event, its allowed lists and co-organisers.
    When the change alters how armies are checked, every submission is checked again in
    the background (``events.rechecks``)."""
    before = rules_state(event) if event is not None else None
    with transaction.atomic():
        if event is None:
            event = Event(organiser=user)
        for name, value in fields.items():
            setattr(event, name, value)
        event.save()
        wanted = {army_list.pk: number for army_list, number in lists}
        # A list its author has since made private or deleted is not on the organiser's
        # form, yet the submissions made on it keep it (``checking.event_rules``).
        dropped = event.allowed_lists.exclude(army_list_id__in=list(wanted))
        readable = ArmyList.objects.filter(readable_lists(event.organiser_id, granted=False))
        dropped.filter(army_list__in=readable).delete()
        for pk, number in wanted.items():
            AllowedList.objects.update_or_create(
                event=event, army_list_id=pk, defaults={"revision": number}
            )
        event.co_organisers.set([u for u in co_organisers if u.pk != event.organiser_id])
    change = what_changed(before, event) if before is not None else ""
    if change:
        asked = Event.objects.filter(pk=event.pk)
        asked.update(rechecks_asked=F("rechecks_asked") + 1)
        try:
            recheck_submissions.enqueue(event.pk, getattr(user, "pk", None), change)
        except Exception:  # never queued: the pages must not say "re-checking…" for ever
            asked.update(rechecks_asked=F("rechecks_asked") - 1)
            raise
        event.refresh_from_db(fields=["rechecks_asked", "rechecks_done"])
    return event


# -- entrants ------------------------------------------------------------------------------


def join(event: Event, *, user: Any) -> Entrant:
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
    entrant: Entrant, *, by: Any, action: str, text: str = "", submission: Submission | None = None
) -> Note:
    return Note.objects.create(
        entrant=entrant, submission=submission, author=by, action=action, text=text
    )


def submit(entrant: Entrant, *, army: Army, by: Any, on_behalf: bool = False) -> Submission:
    """Lock a snapshot of ``army`` as the entrant's newest submission, checked on the
    server. The time is read once, under the entrant's lock, and decides on time or late:
    a submission racing the deadline is one or the other, never lost."""
    event = entrant.event
    built_by_organiser = on_behalf and army.owner_id == getattr(by, "pk", None)
    if army.deleted_at is not None or not (army.owner_id == entrant.user_id or built_by_organiser):
        raise Refused("Only an army of the entrant's own can be submitted.")
    if event.forces_rolled:
        raise Refused("This event rolls each force: use “Roll my force” instead.")
    if (army.document or {}).get("ruleset") != event.ruleset:
        raise Refused("Only an army of the event's rule set can be submitted.")
    slug = (army.document or {}).get("army_list")
    if (
        slug
        and slug not in event_rules(event).lists
        and event.allowed_lists.filter(army_list__slug=slug).exists()
    ):
        raise Refused(
            "Its author has made that army list private or deleted it: "
            "the event takes no new army on it."
        )
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
        if final(entrant.event, now=now) or (not allowed and not on_behalf):
            raise Refused(closed_reason(entrant, now))
        if on_behalf:
            late = late_for(entrant, past_deadline(entrant.event, now=now))
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
            record(
                entrant,
                by=by,
                action="submitted on your behalf",
                text=f"Submission {number}",
                submission=submission,
            )
    return submission


def refuse_if_final(event: Event, *, what: str) -> None:
    if final(event):
        raise Refused(
            f"The armies were revealed on {local(event.reveal_at, event)}: {what} only after "
            "you reopen the event (on its page)."
        )


# -- the organiser's desk ------------------------------------------------------------------

STATE_WORDS = {
    Submission.NEEDS_CHANGES: "asked for changes",
    Submission.APPROVED: "approved",
}

# What an organiser saw: the submission's id and version, posted with every action on it.
Seen = tuple[int, int]


def seen_of(submission_pk: Any, *, version: Any) -> Seen | None:
    try:
        return int(submission_pk), int(version)
    except (TypeError, ValueError):
        return None


def _the_one_seen(entrant: Entrant, seen: Seen | None) -> Submission:
    """The entrant's held submission, locked for this change, when it is the one the
    organiser was looking at (and at the version they saw); else refused, saying what
    changed. Never applied to another submission."""
    current = held(entrant)
    if seen is None:
        raise Refused("Open the submission you are deciding on, then decide there.")
    pk, version = seen
    event = entrant.event
    name = entrant.user.get_username()
    if current is None or current.pk != pk:
        newer = entrant.submissions.order_by("-number").first()
        if newer is not None and newer.pk != pk:
            at = local(newer.submitted_at, event)
            raise Refused(
                f"{name} submitted again at {at} (submission {newer.number}) — look at the "
                "new one. Nothing was changed."
            )
        raise Refused(
            f"{name}'s submission was returned to draft meanwhile — look again. Nothing was "
            "changed."
        )
    current = Submission.objects.select_for_update().get(pk=current.pk)
    if current.version != version:
        at = local(current.changed_at, event) if current.changed_at else "a moment ago"
        raise Refused(
            f"Submission {current.number} changed at {at} (now {current.get_state_display()}, "
            f"{'legal' if current.valid else 'not legal'}) — look at it again. Nothing was "
            "changed."
        )
    return current


def _set_state(submission: Submission, state: str) -> None:
    Submission.objects.filter(pk=submission.pk).update(
        state=state, version=F("version") + 1, changed_at=timezone.now()
    )


def _about(entrant: Entrant, seen: Seen | None) -> Submission | None:
    """The submission a message is about: the one its writer was looking at (one of the
    entrant's), else the one held now."""
    if seen is not None:
        found = entrant.submissions.filter(pk=seen[0]).first()
        if found is not None:
            return found
    return held(entrant)


class NotLegal(Refused):
    """Approving a submission that is not legal: the organiser is warned and asked to
    confirm (a second, explicit step); nothing was changed."""


def post_note(
    entrant: Entrant,
    *,
    by: Any,
    text: str,
    state: str = "",
    runs_event: bool,
    seen: Seen | None = None,
    approve_not_legal: bool = False,
) -> Note:
    """A message in the entrant's one thread, marked against the submission it is about; a
    checker may set that submission to "needs changes" or "approved", only when it is still
    the one (and the version) they were looking at. Approving one that is not legal is
    refused (``NotLegal``) unless ``approve_not_legal`` confirms it; setting the state it
    has already sends only the message, and nothing without one."""
    text = text.strip()
    if state and not runs_event:
        raise Refused("Only the organisers set a submission's state.")
    if state and state not in STATE_WORDS:
        raise Refused("The state must be “needs changes” or “approved”.")
    if not text and not state:
        raise Refused("Write a message.")
    if len(text) > 5000:
        raise Refused("A message is at most 5000 characters.")
    with transaction.atomic():
        entrant = (
            Entrant.objects.select_for_update().select_related("event", "user").get(pk=entrant.pk)
        )
        if state:
            refuse_if_final(entrant.event, what="a submission's state changes")
            submission = _the_one_seen(entrant, seen)
            if submission.state == state:
                if not text:
                    raise Refused(
                        f"Submission {submission.number} is already "
                        f"{submission.get_state_display()}: nothing was sent."
                    )
                return record(entrant, by=by, action="", text=text, submission=submission)
            if state == Submission.APPROVED and not submission.valid and not approve_not_legal:
                raise NotLegal(_not_legal_words(submission))
            _set_state(submission, state)
        else:
            submission = _about(entrant, seen)
        return record(
            entrant, by=by, action=STATE_WORDS.get(state, ""), text=text, submission=submission
        )


def _not_legal_words(submission: Submission) -> str:
    errors = [p["message"] for p in submission.problems if p.get("severity") == "error"]
    shown = "; ".join(errors[:3]) + ("; …" if len(errors) > 3 else "")
    return (
        f"Submission {submission.number} is not legal ({shown or 'see its check'}). "
        "Nothing was changed: to approve it all the same, confirm on its page."
    )


def remind(entrant: Entrant, *, by: Any) -> Note:
    """Remind an entrant who has not submitted (in their thread, with the deadline)."""
    if held(entrant) is not None:
        raise Refused("This entrant has submitted already.")
    event = entrant.event
    return record(
        entrant,
        by=by,
        action="reminded you to submit",
        text=f"Submissions close {local(event.deadline, event)}.",
    )


def set_lock(entrant: Entrant, *, by: Any, lock: str) -> None:
    words = {
        Entrant.OPEN: "unlocked your submission",
        Entrant.LOCKED: "locked your submission",
        Entrant.FOLLOWS: "set your submission to follow the deadline",
    }
    if lock not in words:
        raise Refused("Unknown lock.")
    Entrant.objects.filter(pk=entrant.pk).update(lock=lock)
    record(entrant, by=by, action=words[lock])


def return_to_draft(entrant: Entrant, *, by: Any, seen: Seen | None = None) -> None:
    with transaction.atomic():
        entrant = (
            Entrant.objects.select_for_update().select_related("event", "user").get(pk=entrant.pk)
        )
        refuse_if_final(entrant.event, what="a submission is returned to draft")
        current = held(entrant)
        if current is None:
            raise Refused("There is no submission to return.")
        if current.roll_seed is not None:
            raise Refused(
                "A rolled force is never rolled again, so it cannot be returned to draft."
            )
        submission = _the_one_seen(entrant, seen)
        _set_state(submission, Submission.RETURNED)
        record(
            entrant,
            by=by,
            action="returned your submission to draft",
            text=f"Submission {submission.number}",
            submission=submission,
        )


def withdraw(entrant: Entrant, *, by: Any) -> None:
    """The entrant leaves the event; their record and submissions are kept. The first on
    the waiting list takes the place (of an entered entrant)."""
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=entrant.event_id).first()
        entrant = Entrant.objects.select_related("event").get(pk=entrant.pk)
        if entrant.state == Entrant.WITHDRAWN:
            raise Refused("This entry is withdrawn already.")
        refuse_if_final(entrant.event, what="an entry is withdrawn")
        had_place = entrant.state == Entrant.ENTERED
        Entrant.objects.filter(pk=entrant.pk).update(state=Entrant.WITHDRAWN)
        record(entrant, by=by, action="withdrew the entry")
        waiting = entrant.event.entrants.filter(state=Entrant.WAITING).first()
        if had_place and waiting is not None:
            Entrant.objects.filter(pk=waiting.pk).update(state=Entrant.ENTERED)
            record(waiting, by=by, action="moved you from the waiting list into the event")


def reinstate(entrant: Entrant, *, by: Any) -> None:
    """Undo a withdrawal: back into the event, or onto its waiting list when it is full."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=entrant.event_id)
        entrant = Entrant.objects.get(pk=entrant.pk)
        if entrant.state != Entrant.WITHDRAWN:
            raise Refused("This entry is not withdrawn.")
        refuse_if_final(event, what="an entry is reinstated")
        full = (
            event.cap is not None
            and event.entrants.filter(state=Entrant.ENTERED).count() >= event.cap
        )
        Entrant.objects.filter(pk=entrant.pk).update(
            state=Entrant.WAITING if full else Entrant.ENTERED
        )
        record(
            entrant,
            by=by,
            action="undid the withdrawal: you are on the waiting list"
            if full
            else "undid the withdrawal: you are entered again",
        )


def reopen(event: Event, *, by: Any, open_: bool) -> None:
    """After the reveal: let submissions change again (``open_``), or make them final
    again. Recorded on the event and in every entrant's thread."""
    if not revealed(event):
        raise Refused("Submissions follow the deadline until the reveal; nothing to reopen.")
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if open_ == (event.reopened_at is not None):
            raise Refused("The event is reopened already." if open_ else "It is not reopened.")
        event.reopened_at = timezone.now() if open_ else None
        event.reopened_by = by if open_ else None
        event.save(update_fields=["reopened_at", "reopened_by"])
        words = (
            "reopened submissions after the reveal" if open_ else "made the submissions final again"
        )
        for entrant in event.entrants.all():
            record(entrant, by=by, action=words)


def check_in(entrant: Entrant, *, by: Any, present: bool) -> None:
    Entrant.objects.filter(pk=entrant.pk).update(checked_in=present)
    record(entrant, by=by, action="checked you in" if present else "marked you absent")


# -- mystery armies ------------------------------------------------------------------------


def roll_force(entrant: Entrant, *, army_list: ArmyList, by: Any) -> Submission:
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
