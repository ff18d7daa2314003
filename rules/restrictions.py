"""An event's own rules as data, checked by the engine beside an army list's checks.

An organiser adds restrictions to what the army list allows (at most so many units, no
personalities, an option required or forbidden, at least so many units of one type) and a
points limit. They are plain data (``Restriction.to_json``), parsed strictly like an army
document (every refusal names its path), described in words for the event's page, and
checked here, so the web pages, the API and ``muster check --event`` give the same answer.

The same data travels as a file, ``muster.event/1`` (``parse_event_rules``): the event's
allowed lists with the data of the revision each is pinned to, so an army file can be
checked against an event offline.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.base import Army, Issue, NamedLists, Report, RuleSet, error
from rules.errors import MalformedDocument
from rules.fields import describe
from rules.registry import get_ruleset, slugs
from rules.restriction_kinds import (
    KIND_CLASSES,
    Restriction,
)
from rules.text import check_text

EVENT_FORMAT = "muster.event/1"
MAX_UNITS = "max_units"
NO_PERSONALITIES = "no_personalities"
REQUIRED_OPTION = "required_option"
FORBIDDEN_OPTION = "forbidden_option"
MIN_UNIT_TYPE = "min_unit_type"
KINDS: dict[str, str] = {name: kind.title for name, kind in KIND_CLASSES.items()}


def parse_restriction(raw: Any, ruleset: RuleSet, path: str) -> Restriction:
    """One restriction, strictly: a known kind, exactly its keys, values the rule set has."""
    if not isinstance(raw, Mapping):
        raise MalformedDocument(path, f"{path}: must be an object, not {describe(raw)}")
    kind = raw.get("kind")
    if kind not in KINDS:
        raise MalformedDocument(
            f"{path}.kind", f"{path}.kind: {describe(kind)} is not one of {', '.join(KINDS)}"
        )
    wanted = ("kind", *KIND_CLASSES[kind].keys)
    for key in raw:
        if key not in wanted:
            raise MalformedDocument(
                f"{path}.{key}", f"{path}.{key}: not a key of {kind} ({', '.join(wanted)})"
            )
    for key in wanted:
        if key not in raw:
            raise MalformedDocument(f"{path}.{key}", f"{path}.{key}: is required for {kind}")
    return KIND_CLASSES[kind].parse(raw, ruleset, path)


def parse_restrictions(
    raw: Any, ruleset: RuleSet, path: str = "restrictions"
) -> tuple[Restriction, ...]:
    """A list of restrictions, each parsed strictly (``MalformedDocument`` names the path)."""
    if not isinstance(raw, list):
        raise MalformedDocument(path, f"{path}: must be a list, not {describe(raw)}")
    if len(raw) > 50:
        raise MalformedDocument(path, f"{path}: at most 50 restrictions")
    return tuple(parse_restriction(item, ruleset, f"{path}[{i}]") for i, item in enumerate(raw))


def describe_restriction(restriction: Restriction, ruleset: RuleSet) -> str:
    """The restriction as a player reads it on the event's page."""
    return KIND_CLASSES[restriction.kind].describe(restriction, ruleset)


def rule_name(number: int, restriction: Restriction, ruleset: RuleSet) -> str:
    """How an issue cites a restriction: its number on the event's page and its words."""
    return f"Event restriction {number}: {describe_restriction(restriction, ruleset)}"


def check_restrictions(
    army: Army, restrictions: tuple[Restriction, ...], ruleset: RuleSet
) -> tuple[Issue, ...]:
    """Every restriction the army breaks, as an error citing it."""
    found: list[Issue] = []
    for number, restriction in enumerate(restrictions, start=1):
        rule = rule_name(number, restriction, ruleset)
        found.extend(KIND_CLASSES[restriction.kind].check(army, restriction, ruleset, rule))
    return tuple(found)


@dataclass(frozen=True)
class EventRules:
    """What an event checks an army against, beside its list's own checks."""

    ruleset: str
    points_limit: int | None
    lists: Mapping[str, int]  # allowed list slug -> the revision the event pins it to
    restrictions: tuple[Restriction, ...] = ()
    list_names: Mapping[str, str] = field(default_factory=dict)

    def list_words(self, slug: str) -> str:
        return self.list_names.get(slug) or "an army list"


POINTS_RULE = "Event points limit"
LISTS_RULE = "Event army lists"


def check_event(army: Army, report: Report, event: EventRules) -> tuple[Issue, ...]:
    """The issues the event adds to the army's own report: rule set, allowed list, points
    limit and every restriction, each citing the event's rule it breaks."""
    found: list[Issue] = []
    if army.ruleset != event.ruleset:
        found.append(
            error(
                "event-ruleset",
                f"The army is for {get_ruleset(army.ruleset).title}; the event plays "
                f"{get_ruleset(event.ruleset).title}.",
                LISTS_RULE,
            )
        )
        return tuple(found)
    if event.lists and army.army_list not in event.lists:
        allowed = ", ".join(sorted(event.list_words(slug) for slug in event.lists))
        found.append(
            error(
                "event-list",
                f"The army is built on {army.list_title(army.army_list) if army.army_list else 'no army list'}; "
                f"the event allows {allowed}.",
                LISTS_RULE,
            )
        )
    total = report.total_points
    if event.points_limit is not None and total is not None and total > event.points_limit:
        found.append(
            error(
                "event-points",
                f"The army costs {total} points; the event's limit is {event.points_limit}.",
                POINTS_RULE,
            )
        )
    found.extend(check_restrictions(army, event.restrictions, get_ruleset(event.ruleset)))
    return tuple(found)


# -- the muster.event/1 file ----------------------------------------------------------------


def _text(raw: Mapping[str, Any], key: str, path: str, *, limit: int = 200) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise MalformedDocument(
            f"{path}{key}",
            f"{path}{key}: one line of 1 to {limit} characters, not {describe(value)}",
        )
    check_text(value, f"{path}{key}")
    return value.strip()


def parse_event_rules(raw: Any) -> tuple[EventRules, NamedLists]:
    """A ``muster.event/1`` document: the event's rules and its allowed lists' data (as the
    engine's ListLookup answer, with names). ``MalformedDocument`` names the path."""
    if not isinstance(raw, Mapping):
        raise MalformedDocument("", f"an event file must be a JSON object, not {describe(raw)}")
    if raw.get("format") != EVENT_FORMAT:
        raise MalformedDocument("format", f"format: must be {EVENT_FORMAT!r}")
    known = {"format", "name", "ruleset", "points_limit", "lists", "restrictions"}
    for key in raw:
        if key not in known:
            raise MalformedDocument(key, f"{key}: not a key of {EVENT_FORMAT}")
    _text(raw, "name", "")
    if raw.get("ruleset") not in slugs():
        raise MalformedDocument("ruleset", f"ruleset: must be one of {', '.join(slugs())}")
    ruleset = get_ruleset(raw["ruleset"])
    limit = raw.get("points_limit")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise MalformedDocument(
            "points_limit", "points_limit: a whole number of at least 1, or null"
        )
    lists = raw.get("lists")
    if not isinstance(lists, list) or not lists:
        raise MalformedDocument("lists", "lists: must be a list of at least one army list")
    data = NamedLists()
    pins: dict[str, int] = {}
    for i, item in enumerate(lists):
        path = f"lists[{i}]."
        if not isinstance(item, Mapping) or set(item) != {"slug", "name", "revision", "data"}:
            raise MalformedDocument(
                f"lists[{i}]", f"lists[{i}]: an object of slug, name, revision, data"
            )
        slug = _text(item, "slug", path, limit=80)
        number = item["revision"]
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise MalformedDocument(
                f"{path}revision", f"{path}revision: a whole number of at least 1"
            )
        problems = ruleset.validate_army_list(item["data"])
        if problems:
            raise MalformedDocument(f"{path}data", f"{path}data: {problems[0]}")
        data[slug] = item["data"]
        data.names[slug] = _text(item, "name", path)
        pins[slug] = number
    restrictions = parse_restrictions(raw.get("restrictions", []), ruleset)
    return EventRules(ruleset.slug, limit, pins, restrictions, dict(data.names)), data


def event_rules_document(
    name: str, event: EventRules, list_data: Mapping[str, Mapping[str, Any]]
) -> dict[str, Any]:
    """The ``muster.event/1`` document of an event (``list_data``: each allowed list's
    pinned revision's data)."""
    return {
        "format": EVENT_FORMAT,
        "name": name,
        "ruleset": event.ruleset,
        "points_limit": event.points_limit,
        "lists": [
            {
                "slug": slug,
                "name": event.list_words(slug),
                "revision": number,
                "data": list_data[slug],
            }
            for slug, number in sorted(event.lists.items())
        ],
        "restrictions": [r.to_json() for r in event.restrictions],
    }


def outside_event_lists(raw: Any, event: EventRules) -> Issue | None:
    """The event's problem with an army built on a list of its rule set that the event does
    not allow, found from the document alone: the offline checker holds only the event's
    lists, so both it and the server say this (and only this) in the same words."""
    if not isinstance(raw, Mapping) or raw.get("ruleset") != event.ruleset or not event.lists:
        return None
    slug = raw.get("army_list")
    if not isinstance(slug, str) or not slug or slug in event.lists:
        return None
    allowed = ", ".join(sorted(event.list_words(s) for s in event.lists))
    return error(
        "event-list",
        f"The army is built on an army list the event does not allow; the event allows {allowed}.",
        LISTS_RULE,
    )


def check_with_event(raw: Any, event_raw: Any) -> tuple[Army | None, Report, tuple[Issue, ...]]:
    """Check an army document against a ``muster.event/1`` file alone (offline): the
    file's pinned lists answer for the army's lists, and the event's rules are checked
    beside the list's own. Answers the parsed army, its report and the event's issues."""
    from rules.engine import check_document

    event, lists = parse_event_rules(event_raw)
    outside = outside_event_lists(raw, event)
    if outside is not None:
        return None, Report(event.ruleset, None, event.points_limit, (), (), ()), (outside,)

    def lookup(ruleset: str) -> NamedLists:
        return lists if ruleset == event.ruleset else NamedLists()

    parsed, report = check_document(raw, lookup)
    return parsed, report, check_event(parsed, report, event)
