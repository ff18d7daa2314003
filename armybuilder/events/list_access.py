"""Who reads the lists an event pins: its organisers and its entrants, while it lasts.

An organiser may pin a list shared with them by link, or one of their own that is not
public; the event then passes it on to everyone in the event (not to those who withdrew),
to read and build on, until the end of the event's day: the catalog asks this through its
``LIST_GRANTS`` (registered in ``EventsConfig.ready``). A grant follows the organiser's own
access, never another grant: when the author turns the link off, makes the list private or
deletes it, the event's grant ends with the organiser's. Armies already built on it go on
reading the revision they are pinned to, as after any lost link.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from armybuilder.catalog.models import LINK, SharedList
from armybuilder.events.models import AllowedList, Entrant, Event


def lasts_from(today: date | None = None) -> date:
    """Events dated on or after this day still last: a day's margin, so that the event's
    own day is over in every time zone before its grant ends."""
    return (today or timezone.now().date()) - timedelta(days=1)


def events_of(user_pk: Any) -> Any:
    """The events ``user_pk`` is in (organiser, co-organiser, entered or waiting) that still
    last, as a subquery of their pks."""
    entered = Entrant.objects.filter(user_id=user_pk).exclude(state=Entrant.WITHDRAWN)
    helping = Event.co_organisers.through.objects.filter(user_id=user_pk)
    return Event.objects.filter(
        Q(organiser_id=user_pk)
        | Q(pk__in=entered.values("event_id"))
        | Q(pk__in=helping.values("event_id")),
        date__gte=lasts_from(),
    ).values("pk")


def passed_on() -> Q:
    """Of an ``AllowedList``: its organiser may pass the list on (theirs, or shared with them
    by a link they opened that still works)."""
    opened = SharedList.objects.filter(
        army_list=OuterRef("army_list"),
        user_id=OuterRef("event__organiser_id"),
        token=OuterRef("army_list__share_token"),
    )
    return Q(army_list__author_id=F("event__organiser_id")) | Q(
        Exists(opened), army_list__status=LINK, army_list__share_token__isnull=False
    )


def lists_granted(user_pk: Any) -> Q:
    """Of an ``ArmyList``: pinned by an event ``user_pk`` is in, while it lasts (one
    subquery: OR-ed with the user's other lists it adds no rows)."""
    pinned = AllowedList.objects.filter(
        passed_on(), army_list=OuterRef("pk"), event__in=events_of(user_pk)
    )
    return Q(Exists(pinned))


def lists_shown(user: Any, items: Any) -> dict[str, Any]:
    """What the event's pages say of its lists to ``user``: which they may open
    (``readable``), whether any is not public (``shared_lists``), and whether they may read
    them all (``readable_all``: its rules file, which carries every list's data, is theirs)."""
    items = list(items)
    readable = readable_slugs(user, items)
    return {
        "readable": readable,
        "shared_lists": any(not item.army_list.is_public for item in items),
        "readable_all": all(item.army_list.slug in readable for item in items),
    }


def readable_slugs(user: Any, items: Any) -> set[str]:
    """Of an event's allowed lists (``AllowedList`` rows), the slugs of those ``user`` may
    open: the public ones for anyone, the rest for those the event grants them to."""
    from armybuilder.catalog.services import can

    return {
        item.army_list.slug
        for item in items
        if item.army_list.is_public
        or can(user, action="view", army_list=item.army_list, record=False)
    }
