"""Reads of army lists that pages, the API and the CLI need, in one place.

Who may read which list: Muster's compiled lists and published lists are public; any
other list only its author (and staff), or anyone holding its share token. An army reads
the lists it is pinned to as pinned (``army_lookup``), whoever may read them now.
"""

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from django.db.models import (
    Case,
    Count,
    IntegerField,
    OuterRef,
    Q,
    Subquery,
    TextField,
    Value,
    When,
)
from django.db.models.functions import Cast

from armybuilder.catalog.models import ArmyList, ArmyListRevision, SharedList, public_lists
from rules import NamedLists

Lookup = Callable[[str], Mapping[str, Mapping[str, Any]]]
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
        visible = public_lists() | Q(author_id=user.pk) | SharedList.readable_by(user.pk)
        return _decoded(("user", user.pk, ruleset), _data_rows(visible, ruleset))

    return lookup


def army_lookup(army: Any) -> Lookup:
    """The ListLookup an army is checked with: every list its owner may build on (public,
    their own, shared with them by a working link) at its latest revision, except the
    lists the army is pinned to (``Army.list_pins``), which answer their pinned revision's
    data and name. One query, as ``list_lookup``."""
    pins = _pins(getattr(army, "list_pins", None))
    owner_id = getattr(army, "owner_id", None)
    visible = public_lists() | Q(slug__in=list(pins))
    if owner_id is not None:
        visible |= Q(author_id=owner_id) | SharedList.readable_by(owner_id)
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


def lists_of_user(user: Any, ruleset: str | None = None) -> list[ArmyList]:
    """The lists ``user`` wrote (none for a visitor), newest change first."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    found = ArmyList.objects.filter(author_id=user.pk)
    if ruleset is not None:
        found = found.filter(ruleset=ruleset)
    return list(found.order_by("-updated"))


def lists_shared_with(user: Any, ruleset: str | None = None) -> list[ArmyList]:
    """Other players' lists ``user`` opened by a share link that still works, by name."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    found = ArmyList.objects.filter(SharedList.readable_by(user.pk)).exclude(author_id=user.pk)
    if ruleset is not None:
        found = found.filter(ruleset=ruleset)
    return list(found.order_by("name"))


def list_counts() -> dict[str, int]:
    """How many public army lists each rule set has (one grouped query)."""
    rows = (
        ArmyList.objects.filter(public_lists()).order_by().values("ruleset").annotate(n=Count("pk"))
    )
    return {row["ruleset"]: row["n"] for row in rows}


def get_list(ruleset: str, slug: str) -> ArmyList | None:
    """The list with this slug, whoever may read it: callers decide (``can_view``)."""
    return ArmyList.objects.filter(ruleset=ruleset, slug=slug).first()


def get_list_by_token(token: str) -> ArmyList | None:
    """The list shared by link with this token (None once sharing is off)."""
    if not token:
        return None
    return ArmyList.objects.filter(share_token=token).first()


def get_revision(army_list: ArmyList, number: int) -> ArmyListRevision | None:
    return ArmyListRevision.objects.filter(army_list=army_list, number=number).first()


def revisions_of(army_list: ArmyList) -> list[ArmyListRevision]:
    return list(ArmyListRevision.objects.filter(army_list=army_list).order_by("number"))


def list_json(army_list: ArmyList) -> dict[str, Any]:
    return {
        "slug": army_list.slug,
        "name": army_list.name,
        "period": army_list.period,
        "source_note": army_list.source_note,
        "data": army_list.data,
    }
