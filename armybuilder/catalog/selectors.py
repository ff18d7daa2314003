"""Reads of army lists that pages, the API and the CLI need, in one place.

Who may read which list: Muster's compiled lists and published lists are public; any
other list only its author (and staff), or anyone holding its share token. An army reads
the lists it is pinned to as pinned (``army_lookup``), whoever may read them now.
"""

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from django.db.models import (
    BooleanField,
    Case,
    Count,
    Exists,
    ExpressionWrapper,
    IntegerField,
    OuterRef,
    Q,
    Subquery,
    TextField,
    Value,
    When,
)
from django.db.models.functions import Cast

from armybuilder.catalog.models import (
    DELETED,
    LINK,
    LIST_RESTORE_DAYS,
    PUBLISHED,
    ArmyList,
    ArmyListRevision,
    SharedList,
    list_restore_cutoff,
)
from rules import NamedLists

# -- who may read which list: the conditions every read of lists filters by --------------


def public_lists() -> Q:
    """Lists everyone may read: Muster's own (no author) and approved players' lists."""
    return Q(author__isnull=True) | Q(status=PUBLISHED)


# More lists a user may read and build on, granted by an app above the catalog (each fills
# this in its ``AppConfig.ready``: events let their entrants read the lists they pin, while
# the event lasts). Each answers a Q of the lists it grants to the user whose pk it is given.
LIST_GRANTS: list[Callable[[Any], Q]] = []


def shared_with(user_pk: Any) -> Q:
    """The lists shared with the user whose pk is ``user_pk``, by a link that still works
    (a subquery: no join, so OR-ed with other conditions it adds no rows)."""
    opened = SharedList.objects.filter(
        army_list=OuterRef("pk"), user_id=user_pk, token=OuterRef("share_token")
    )
    return Q(Exists(opened), status=LINK, share_token__isnull=False)


def readable_lists(user_pk: Any, *, granted: bool = True) -> Q:
    """The lists the user whose pk is ``user_pk`` (None: a visitor) may read and build on
    now: the public lists, their own (not those they deleted), those shared with them by a
    link that still works and (``granted``) those an app grants them (``LIST_GRANTS``).
    ``granted=False``: only what they may pass on to others (an event's organiser may pin
    only those, so a grant is never passed on in turn)."""
    if user_pk is None:
        return public_lists()
    own = Q(author_id=user_pk) & ~Q(status=DELETED)
    found = public_lists() | own | shared_with(user_pk)
    if granted:
        for grant in LIST_GRANTS:
            found |= grant(user_pk) & ~Q(status=DELETED)
    return found


# -- the lists' data, as the engine looks it up -------------------------------------------

Lookup = Callable[[str], Mapping[str, Mapping[str, Any]]]


class PinnedArmy(Protocol):
    """What the catalog reads of an army (``armies.Army`` has it): the lists it reads are
    looked up for its owner at the revisions it is pinned to. The catalog never writes
    an army: it answers pins, and armies' own service stores them."""

    @property
    def ruleset(self) -> str: ...

    document: Any
    list_pins: Any
    owner_id: int | None


Rows = tuple[tuple[Any, ...], ...]

# (what was asked, e.g. ("public", ruleset)) -> (the rows read, their decoded {slug: data})
_DECODED: OrderedDict[tuple[Any, ...], tuple[Rows, NamedLists]] = OrderedDict()
_DECODED_MAX = 512  # one entry per rule set, and per user or army pin set asked lately
_LOCK = threading.Lock()


def _decoded(key: tuple[Any, ...], rows: Rows) -> NamedLists:
    """``{slug: data}`` for rows of (slug, name, family, data text[, pinned data text,
    pinned name]), with each list's name (so messages name lists as players know them; an
    army's pinned list by its name at that revision) and family (a copy answers the list it
    copies): the very same mapping as last time when the rows are the same, so the engine
    sees at once (``is``) that an army's last check was made with the lists as they are
    (``rules.recheck_document``). Shared: read only."""
    with _LOCK:
        known = _DECODED.get(key)
        if known is not None and known[0] == rows:
            _DECODED.move_to_end(key)
            return known[1]
    decoded = NamedLists(
        {row[0]: json.loads(row[4] if len(row) > 4 and row[4] else row[3]) for row in rows},
        {row[0]: (row[5] if len(row) > 5 and row[5] else row[1]) for row in rows},
        {row[0]: row[2] for row in rows if row[2]},
    )
    with _LOCK:
        _DECODED[key] = (rows, decoded)
        _DECODED.move_to_end(key)
        while len(_DECODED) > _DECODED_MAX:
            _DECODED.popitem(last=False)
    return decoded


def _data_rows(visible: Q, ruleset: str) -> Rows:
    return tuple(
        ArmyList.objects.filter(visible, ruleset=ruleset).values_list(
            "slug", "name", "family", Cast("data", output_field=TextField())
        )
    )


def list_lookup(ruleset: str) -> dict[str, Mapping[str, Any]]:
    """``{list slug: constraint data}`` of the public lists of one rule set: the engine's
    ListLookup. One query, every call (another process, the admin or ``load-lists`` may
    have changed a list); decoded only when the stored text changed."""
    return _decoded(("public", ruleset), _data_rows(public_lists(), ruleset))


def lookup_for(user: Any) -> Lookup:
    """The ListLookup of what ``user`` may build on: the public lists, their own and those
    shared with them by a link that still works."""
    if user is None or not getattr(user, "is_authenticated", False):
        return list_lookup

    def lookup(ruleset: str) -> dict[str, Mapping[str, Any]]:
        visible = readable_lists(user.pk)
        return _decoded(("user", user.pk, ruleset), _data_rows(visible, ruleset))

    return lookup


def army_lookup(army: PinnedArmy) -> Lookup:
    """The ListLookup an army is checked with (``pinned_lookup`` of its owner and pins)."""
    return pinned_lookup(army.owner_id, list_pins=army.list_pins)


def pinned_lookup(owner_id: int | None, *, list_pins: Mapping[str, Any] | None) -> Lookup:
    """The ListLookup of an army of ``owner_id`` pinned to ``list_pins``: every list the
    owner may build on (public, their own, shared with them by a working link) at its
    latest revision, except the pinned lists, which answer their pinned revision's data and
    name. One query, as ``list_lookup``."""
    pins = _pins(list_pins)
    visible = readable_lists(owner_id) | Q(slug__in=list(pins))
    return _pinned_lookup(visible, pins, ("army", owner_id))


def document_lookup(raw: Any) -> Lookup:
    """The ListLookup of a posted or read document (the API, the CLI): the public lists,
    those the document names in ``list_revisions`` at that revision (a revision Muster
    does not have: the latest), so a file exported from an army checks as the army does.
    A malformed ``list_revisions`` is left to the parser to refuse."""
    named = raw.get("list_revisions") if isinstance(raw, Mapping) else None
    pins = _pins(named if isinstance(named, Mapping) else None)
    if not pins:
        return list_lookup
    return _pinned_lookup(public_lists(), pins, ("document",))


def _pins(value: Mapping[str, Any] | None) -> dict[str, int]:
    return {
        str(slug): number
        for slug, number in (value or {}).items()
        if isinstance(number, int) and not isinstance(number, bool)
    }


def _pinned_lookup(visible: Q, pins: dict[str, int], key: tuple[Any, ...]) -> Lookup:
    def lookup(ruleset: str) -> dict[str, Mapping[str, Any]]:
        rows = ArmyList.objects.filter(visible, ruleset=ruleset)
        if pins:
            revision = ArmyListRevision.objects.filter(
                army_list=OuterRef("pk"), number=OuterRef("pin")
            )
            rows = (
                rows.annotate(
                    pin=Case(
                        *(When(slug=slug, then=Value(number)) for slug, number in pins.items()),
                        default=None,
                        output_field=IntegerField(),
                    )
                )
                .annotate(
                    pinned=Subquery(
                        revision.values_list(Cast("data", output_field=TextField()))[:1],
                        output_field=TextField(),
                    )
                )
                .annotate(pinned_name=Subquery(revision.values_list("name")[:1]))
            )
            values = rows.values_list(
                "slug",
                "name",
                "family",
                Cast("data", output_field=TextField()),
                "pinned",
                "pinned_name",
            )
        else:
            values = rows.values_list(
                "slug", "name", "family", Cast("data", output_field=TextField())
            )
        return _decoded((*key, tuple(sorted(pins.items())), ruleset), tuple(values))

    return lookup


def lists_for(ruleset: str) -> list[ArmyList]:
    """The public lists of a rule set, by name (menus, the rule-set page, the API)."""
    return list(ArmyList.objects.filter(public_lists(), ruleset=ruleset).order_by("name"))


def lists_of_user(user: Any, *, ruleset: str | None = None) -> list[ArmyList]:
    """The lists ``user`` wrote (none for a visitor), newest change first."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    found = ArmyList.objects.filter(author_id=user.pk).exclude(status=DELETED)
    if ruleset is not None:
        found = found.filter(ruleset=ruleset)
    return list(found.order_by("-updated"))


@dataclass(frozen=True)
class DeletedList:
    army_list: ArmyList
    restorable_until: datetime


def deleted_lists_of_user(user: Any, *, ruleset: str) -> list[DeletedList]:
    """The lists ``user`` deleted that they may still restore, newest delete first."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    keep = timedelta(days=LIST_RESTORE_DAYS)
    found = ArmyList.objects.filter(
        author_id=user.pk, ruleset=ruleset, status=DELETED, deleted_at__gte=list_restore_cutoff()
    ).order_by("-deleted_at", "-pk")
    return [DeletedList(a, a.deleted_at + keep) for a in found if a.deleted_at is not None]


def deleted_list(ruleset: str, *, slug: str) -> ArmyList | None:
    """The deleted list with this slug (callers ask ``list_lifecycle.restorable``)."""
    return ArmyList.objects.filter(ruleset=ruleset, slug=slug, status=DELETED).first()


def lists_shared_with(user: Any, *, ruleset: str | None = None) -> list[ArmyList]:
    """Other players' lists, not public, that ``user`` may build on: opened by a share link
    that still works, or granted to them (an event they are in pins it), by name."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    found = (
        ArmyList.objects.filter(readable_lists(user.pk))
        .exclude(public_lists())
        .exclude(author_id=user.pk)
    )
    if ruleset is not None:
        found = found.filter(ruleset=ruleset)
    return list(found.order_by("name"))


def list_counts() -> dict[str, int]:
    """How many public army lists each rule set has (one grouped query)."""
    rows = (
        ArmyList.objects.filter(public_lists()).order_by().values("ruleset").annotate(n=Count("pk"))
    )
    return {row["ruleset"]: row["n"] for row in rows}


def get_list(ruleset: str, *, slug: str) -> ArmyList | None:
    """The list with this slug, whoever may read it: callers decide (``can_view``)."""
    return ArmyList.objects.filter(ruleset=ruleset, slug=slug).exclude(status=DELETED).first()


def get_list_by_token(token: str) -> ArmyList | None:
    """The list shared by link with this token (None once sharing is off)."""
    if not token:
        return None
    return ArmyList.objects.filter(share_token=token).first()


def get_revision(army_list: ArmyList, *, number: int) -> ArmyListRevision | None:
    return ArmyListRevision.objects.filter(army_list=army_list, number=number).first()


def list_json(army_list: ArmyList) -> dict[str, Any]:
    return {
        "slug": army_list.slug,
        "name": army_list.name,
        "period": army_list.period,
        "source_note": army_list.source_note,
        "data": army_list.data,
    }


def army_lists_for(army: PinnedArmy) -> list[ArmyList]:
    """The lists an army may switch to in its settings: the public ones of its rule set,
    its owner's own, those shared with its owner by a working link, and any it is pinned
    to. Their names only: a list's data is read where the army uses it (the builder's
    menu of a few dozen lists need not decode each one's whole data).

    A list the owner may no longer read (its link revoked, made private) is offered only
    because the army is pinned to it, under the name and period of the pinned revision:
    its author's later renames are no longer theirs to see. One query."""
    pins = {str(slug): n for slug, n in (army.list_pins or {}).items() if isinstance(n, int)}
    readable = readable_lists(army.owner_id)
    found = ArmyList.objects.filter(readable | Q(slug__in=list(pins)), ruleset=army.ruleset)
    found = found.defer("data", "source_note")
    if pins:
        pinned = ArmyListRevision.objects.filter(army_list=OuterRef("pk"), number=OuterRef("pin"))
        found = found.annotate(
            readable=ExpressionWrapper(readable, output_field=BooleanField()),
            pin=Case(
                *(When(slug=slug, then=Value(n)) for slug, n in pins.items()),
                default=None,
                output_field=IntegerField(),
            ),
        ).annotate(
            pinned_name=Subquery(pinned.values("name")[:1]),
            pinned_period=Subquery(pinned.values("period")[:1]),
        )
    lists = list(found.order_by("name"))
    hidden = [army_list for army_list in lists if pins and not army_list.readable]
    for army_list in hidden:
        army_list.name = army_list.pinned_name or "A list no longer shared with you"
        army_list.period = army_list.pinned_period or ""
    return sorted(lists, key=lambda army_list: army_list.name.casefold()) if hidden else lists
