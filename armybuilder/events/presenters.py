"""What event pages show, in words: the rules, the lists, the desk's rows."""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from armybuilder.armies.models import Army
from armybuilder.catalog.list_diff import Vocabulary, diff_lists, readable
from armybuilder.catalog.models import ArmyListRevision
from armybuilder.events.checking import event_rules, readable_allowed
from armybuilder.events.models import Entrant, Event, Submission
from armybuilder.events.selectors import held
from rules.registry import get_ruleset
from rules.restrictions import describe_restriction


def local(moment: datetime, event: Event) -> str:
    """A time as the event's players read it: in the event's own time zone, named."""
    here = moment.astimezone(zoneinfo.ZoneInfo(event.time_zone))
    return here.strftime("%A %d %B %Y, %H:%M ") + f"({event.time_zone})"


@dataclass(frozen=True)
class EventWords:
    ruleset: str
    lists: list[dict[str, Any]]
    restrictions: list[str]
    points: str
    deadline: str
    reveal: str
    late: str


def event_words(event: Event) -> EventWords:
    ruleset = get_ruleset(event.ruleset)
    rules_ = event_rules(event)
    lists = []
    for item in readable_allowed(event):
        lists.append(
            {
                "name": rules_.list_words(item.army_list.slug),
                "revision": item.revision,
                "latest": item.army_list.latest_revision,
                "army_list": item.army_list,
                "public": item.army_list.is_public,
                "allowed": item,
            }
        )
    points = (
        f"Armies of at most {event.points_limit} points."
        if rules_.points_limit is not None
        else ("No points limit." if ruleset.uses_points else f"{ruleset.title} uses no points.")
    )
    return EventWords(
        ruleset=ruleset.title,
        lists=lists,
        # numbered by the page's list: issues cite "Event restriction N"
        restrictions=[describe_restriction(r, ruleset) for r in rules_.restrictions],
        points=points,
        deadline=local(event.deadline, event),
        reveal=local(event.reveal_at, event),
        late=(
            "Late submissions are accepted and marked late."
            if event.accept_late
            else "Late submissions are not accepted."
        ),
    )


@dataclass(frozen=True)
class DeskRow:
    entrant: Entrant
    submission: Submission | None
    count: int
    behalf: tuple[Any, ...] = ()  # armies the organiser may submit for this entrant

    @property
    def status(self) -> str:
        if self.entrant.state == Entrant.WITHDRAWN:
            return "withdrawn"
        if self.entrant.state == Entrant.WAITING:
            return "waiting list"
        if self.submission is None:
            return "missing"
        return self.submission.get_state_display().lower()

    @property
    def approved_not_legal(self) -> bool:
        """Approved, then made not legal (a re-check after the rules changed), or approved
        as it was after the organiser confirmed: flagged wherever it is shown."""
        found = self.submission
        return found is not None and found.state == Submission.APPROVED and not found.valid

    @property
    def errors(self) -> list[dict[str, Any]]:
        if self.submission is None:
            return []
        return [p for p in self.submission.problems if p.get("severity") == "error"]


def desk_rows(event: Event) -> list[DeskRow]:
    rows = []
    for entrant in event.entrants.select_related("user").order_by("joined", "pk"):
        rows.append(DeskRow(entrant, held(entrant), entrant.submissions.count()))
    return rows


@dataclass(frozen=True)
class RevisionOffer:
    """An army on another revision of an allowed list than the event's: what moving to
    the event's revision changes in the list."""

    name: str
    slug: str
    army_revision: int
    event_revision: int
    changes: tuple[Any, ...]


def revision_offers(event: Event, army: Army) -> list[RevisionOffer]:
    rules_ = event_rules(event)
    offers = []
    words = Vocabulary.of(get_ruleset(event.ruleset).unit_fields)
    for slug, mine in (army.list_pins or {}).items():
        wanted = rules_.lists.get(slug)
        if wanted is None or wanted == mine:
            continue
        found = {
            rev.number: rev
            for rev in ArmyListRevision.objects.filter(
                army_list__ruleset=event.ruleset, army_list__slug=slug, number__in=[mine, wanted]
            )
        }
        before, after = found.get(mine), found.get(wanted)
        changes = diff_lists(before.data if before else {}, after.data if after else {})
        offers.append(
            RevisionOffer(
                rules_.list_words(slug),
                slug,
                mine,
                wanted,
                tuple(readable(c, words) for c in changes),
            )
        )
    return offers
