"""An army checked as an event checks it: against the revisions the event pins its
allowed lists to, with the list's own checks and the event's rules (rules.restrictions)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import rules
from armybuilder.catalog.models import ArmyList, ArmyListRevision
from armybuilder.catalog.pins import referenced_slugs
from armybuilder.catalog.selectors import pinned_lookup, readable_lists
from armybuilder.catalog.services import check_document
from armybuilder.events.models import Event
from rules.registry import get_ruleset
from rules.restrictions import EventRules, check_event, outside_event_lists, parse_restrictions


def readable_allowed(event: Event) -> Any:
    """The event's allowed lists its organiser may still read. A list pinned while it was
    shared or public and since made private by its author stays out of everything the
    event shows and checks new armies against (its submissions keep their stored verdict
    and their own copy of the army)."""
    readable = ArmyList.objects.filter(readable_lists(event.organiser_id, granted=False)).values(
        "pk"
    )
    return event.allowed_lists.filter(army_list__in=readable).select_related("army_list")


def event_rules(event: Event, kept: Mapping[str, int] | None = None) -> EventRules:
    """The event's rules. ``kept``: the revisions a submission already made was checked
    against; an allowed list its author has since made private or deleted still counts
    for it, at that revision (the event's snapshot of it), and for nothing else."""
    allowed = list(readable_allowed(event))
    if kept:
        shown = {item.pk for item in allowed}
        allowed += [
            item
            for item in event.allowed_lists.select_related("army_list")
            if item.pk not in shown and kept.get(item.army_list.slug) == item.revision
        ]
    names = {}
    for item in allowed:
        revision = ArmyListRevision.objects.filter(
            army_list=item.army_list, number=item.revision
        ).first()
        names[item.army_list.slug] = revision.name if revision else item.army_list.name
    return EventRules(
        ruleset=event.ruleset,
        points_limit=event.points_limit if get_ruleset(event.ruleset).uses_points else None,
        lists={item.army_list.slug: item.revision for item in allowed},
        restrictions=parse_restrictions(event.restrictions, get_ruleset(event.ruleset)),
        list_names=names,
    )


@dataclass(frozen=True)
class EventCheck:
    """What the event's checker says of one army document."""

    document: dict[str, Any] | None  # the normalised document (None: malformed)
    list_revisions: Mapping[str, int]
    total_points: int | None
    problems: tuple[dict[str, Any], ...]  # every error and warning, each citing its rule
    malformed: str = ""

    @property
    def valid(self) -> bool:
        return not self.malformed and not any(p["severity"] == "error" for p in self.problems)

    @property
    def errors(self) -> tuple[dict[str, Any], ...]:
        return tuple(p for p in self.problems if p["severity"] == "error")


def pins_for_event(
    document: Any, rules_: EventRules, own_pins: Mapping[str, int]
) -> dict[str, int]:
    """The revisions an army is checked against for the event: the event's revision of
    each allowed list, the army's own pins for any other list it reads (its allies)."""
    pins = {}
    for slug in referenced_slugs(document):
        if slug in rules_.lists:
            pins[slug] = rules_.lists[slug]
        elif slug in own_pins:
            pins[slug] = own_pins[slug]
    return pins


def check_for_event(
    event: Event,
    document: Any,
    *,
    owner_id: int | None = None,
    own_pins: Mapping[str, int] | None = None,
    kept: Mapping[str, int] | None = None,
) -> EventCheck:
    """``kept``: a submission already made being checked again (``event_rules``)."""
    rules_ = event_rules(event, kept)
    outside = outside_event_lists(document, rules_)
    if outside is not None:
        total = _total_of(document, owner_id, own_pins or {})
        return EventCheck(dict(document), {}, total, (outside.to_json(),))
    pins = pins_for_event(document, rules_, own_pins or {})
    lookup = pinned_lookup(owner_id, list_pins=pins)
    try:
        parsed, report = check_document(document, lookup=lookup)
    except rules.MalformedDocument as exc:
        return EventCheck(None, pins, None, (), exc.message)
    issues = (*report.issues, *check_event(parsed, report, rules_))
    return EventCheck(
        parsed.to_document(),
        pins,
        report.total_points,
        tuple(issue.to_json() for issue in issues),
    )


def _total_of(document: Any, owner_id: int | None, pins: Mapping[str, int]) -> int | None:
    """An army's points on its own lists: an army on a list the event does not allow (or
    no longer allows) still shows its total beside the problem."""
    try:
        return check_document(document, lookup=pinned_lookup(owner_id, list_pins=pins))[
            1
        ].total_points
    except rules.MalformedDocument:
        return None


def content_hash(document: Any, list_revisions: Mapping[str, int]) -> str:
    """sha256 of the document and the revisions it was checked against, as canonical JSON:
    the same army on the same data always hashes the same."""
    text = json.dumps(
        {"document": document, "list_revisions": dict(list_revisions)},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(text.encode()).hexdigest()
