"""When an entrant may submit, and whether a submission is late.

Lateness is the player's own: a submission they make past the deadline is late (unless the
organiser unlocked them); one an organiser makes on their behalf is as late as the player's
own last submission was (or, when they never submitted, as the clock says), so an
organiser's action (returning an army to draft, submitting it again for them) never makes
a player late.
"""

from __future__ import annotations

from datetime import datetime

from armybuilder.events.models import Entrant
from armybuilder.events.presenters import local
from armybuilder.events.selectors import final, past_deadline


def may_submit(entrant: Entrant, now: datetime) -> tuple[bool, bool]:
    """(may submit now, would be late). An entrant the organiser unlocked past the
    deadline submits on time: the organiser let them."""
    event = entrant.event
    if entrant.state != Entrant.ENTERED or entrant.lock == Entrant.LOCKED:
        return False, False
    if final(event, now=now):
        return False, False
    late = past_deadline(event, now=now)
    if not late or entrant.lock == Entrant.OPEN:
        return True, False
    return event.accept_late, late


def late_for(entrant: Entrant, late_now: bool) -> bool:
    """Whether a submission made for the entrant by an organiser is late: as the player's
    own last submission was; when they never submitted themselves, as the clock says
    (``late_now``: they missed the deadline, the organiser did not make them late)."""
    own = entrant.submissions.filter(submitted_by_id=entrant.user_id).order_by("-number").first()
    return own.late if own is not None else late_now


def closed_reason(entrant: Entrant, now: datetime | None = None) -> str:
    event = entrant.event
    if entrant.state == Entrant.WAITING:
        return "You are on the waiting list: you can submit once a place is yours."
    if entrant.state == Entrant.WITHDRAWN:
        return "You have withdrawn from this event."
    if final(event, now=now):
        return (
            f"The armies were revealed on {local(event.reveal_at, event)}: submissions are "
            "final unless the organiser reopens the event."
        )
    if entrant.lock == Entrant.LOCKED:
        return "The organiser has locked your submission."
    return "The submission deadline has passed and this event does not accept late armies."
