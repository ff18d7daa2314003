"""A game's opponent from an event: an opponent's army as the event revealed it, offered on
My games' start form (``games.opponents``: games never imports events).

The side is the submission's document (the one the event's page and files show, checked
against the list revisions it was submitted on), never the live army, which its owner may
have changed or deleted since.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from armybuilder.armies.models import Army
from armybuilder.events import selectors as events
from armybuilder.events.models import Entrant, Event, EventGame, Submission
from armybuilder.games import services
from armybuilder.games.models import Game
from armybuilder.games.opponents import OpponentSource


@dataclass(frozen=True)
class SubmittedArmy:
    """A submission read as the army ``services.start_game`` freezes (its name, document,
    pins and whose lists they are), so a side from an event is checked and frozen exactly
    as a side from an army is."""

    name: str
    document: dict[str, Any]
    list_pins: dict[str, Any]
    owner_id: int
    ruleset: str
    origin: str  # the game says where its side came from: "Revealed at <event>"


def submitted_army(submission: Submission) -> SubmittedArmy:
    shown = events.army_file(submission)  # the document the event shows, with its revisions
    pins = shown.pop("list_revisions", {})
    return SubmittedArmy(
        name=submission.army_name or "Unnamed army",
        document=shown,
        list_pins=dict(pins) if isinstance(pins, dict) else {},
        owner_id=submission.entrant.user_id,
        ruleset=str(shown.get("ruleset", "")),
        origin=f"Revealed at {submission.entrant.event.name}",
    )


@dataclass(frozen=True)
class EventArmies:
    """One event's revealed armies a player may play against (their own left out)."""

    event: Event
    submissions: tuple[Submission, ...]


def revealed_opponents(user: Any) -> list[EventArmies]:
    """The revealed armies of every event ``user`` is entered in, as its page shows them to
    them (``events.selectors`` decides who sees what): what the start form offers, and all
    it accepts."""
    if not getattr(user, "is_authenticated", False):
        return []
    entered = Event.objects.filter(
        entrants__user=user, entrants__state=Entrant.ENTERED, reveal_at__lte=timezone.now()
    ).distinct()
    found = []
    for event in entered.order_by("-date", "name"):
        if not events.sees_revealed(event, user=user):
            continue
        theirs = [s for s in events.approved_submissions(event) if s.entrant.user_id != user.pk]
        if theirs:
            found.append(EventArmies(event, tuple(theirs)))
    return found


def offered_submission(user: Any, value: Any) -> Submission | None:
    """The revealed army ``value`` names, if the start form offers it to ``user``; else None
    (made up, not revealed, not approved, of an event they are not in, or their own)."""
    try:
        pk = int(value)
    except (TypeError, ValueError):
        return None
    for group in revealed_opponents(user):
        for submission in group.submissions:
            if submission.pk == pk:
                return submission
    return None


def start_from_submission(owner: AbstractBaseUser, army_a: Army, submission: Submission) -> Game:
    """A game of ``owner``'s army against an event's revealed army, attached to that event
    (both or neither: a refused start attaches nothing)."""
    with transaction.atomic():
        submitted = submitted_army(submission)
        game = services.start_game(owner, army_a=army_a, army_b=submitted)  # type: ignore[arg-type]
        EventGame.objects.create(event=submission.entrant.event, game=game, attached_by=owner)
    return game


def _offered(user: Any) -> list[tuple[str, list[tuple[str, str]]]]:
    # grouped by event, each by player and army
    return [
        (group.event.name, [(str(s.pk), f"{s.entrant.user.get_username()}: {s.army_name}")
                            for s in group.submissions])
        for group in revealed_opponents(user)
    ]  # fmt: skip


def _start(user: Any, army_a: Army, value: str) -> Game | None:
    revealed = offered_submission(user, value[:20])  # only what the form offers this player
    return start_from_submission(user, army_a, revealed) if revealed is not None else None


REVEALED = OpponentSource(
    field="event_army",
    label="Or an opponent's army revealed at one of your events",
    missing="That army is not among the revealed armies of your events.",
    offered=_offered,
    start=_start,
)
