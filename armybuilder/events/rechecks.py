"""Re-checks that follow the event's rules: when the organiser changes the points limit,
the restrictions, the allowed lists or their pinned revisions, every held submission is
checked again (by the worker), the desk shows the new verdicts, and each player whose
verdict changed is told what changed, in their thread.

The submitted snapshot itself never changes; only its verdict does, which counts up its
version (so a decision made on the old verdict is refused)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from armybuilder.events.checking import check_for_event, event_rules
from armybuilder.events.models import Entrant, Event, Note, Submission
from armybuilder.events.selectors import held
from rules.registry import get_ruleset
from rules.restrictions import describe_restriction


def rules_state(event: Event) -> dict[str, Any]:
    """What the event's check depends on, comparable before and after a change."""
    rules_ = event_rules(event)
    return {
        "ruleset": event.ruleset,
        "points_limit": rules_.points_limit,
        "restrictions": [r.to_json() for r in rules_.restrictions],
        "lists": dict(rules_.lists),
    }


def what_changed(before: dict[str, Any], event: Event) -> str:
    """The change in words a player reads ("" when the check is unchanged)."""
    after = rules_state(event)
    if after == before:
        return ""
    rules_ = event_rules(event)
    parts = []
    if after["points_limit"] != before["points_limit"]:
        limit = after["points_limit"]
        parts.append(f"points limit now {limit}" if limit is not None else "no points limit now")
    if after["restrictions"] != before["restrictions"]:
        ruleset = get_ruleset(event.ruleset)
        words = [describe_restriction(r, ruleset) for r in rules_.restrictions]
        parts.append("restrictions now: " + (" ".join(words) if words else "none"))
    if after["lists"] != before["lists"]:
        names = [f"{rules_.list_words(s)} (revision {n})" for s, n in sorted(rules_.lists.items())]
        parts.append("allowed lists now: " + ", ".join(names))
    if after["ruleset"] != before["ruleset"]:
        parts.append("the rule set changed")
    # each part may end a sentence of its own ("At most 5 units."): the note adds its own stop
    return "; ".join(parts).rstrip(".")


def recheck_event(event: Event, by_id: Any, change: str) -> int:
    """Check every held submission again; record the new verdicts and tell each player
    whose verdict changed. The number of submissions whose verdict changed."""
    changed = 0
    for entrant in event.entrants.exclude(state=Entrant.WITHDRAWN):
        submission = held(entrant)
        if submission is None:
            continue
        checked = check_for_event(
            event,
            submission.document,
            owner_id=entrant.user_id,
            own_pins=submission.list_revisions,
            kept=submission.list_revisions,
        )
        problems = list(checked.problems)
        if (checked.valid, problems, checked.total_points) == (
            submission.valid,
            submission.problems,
            submission.total_points,
        ):
            continue
        with transaction.atomic():
            Submission.objects.filter(pk=submission.pk).update(
                valid=checked.valid,
                problems=problems,
                total_points=checked.total_points,
                version=F("version") + 1,
                changed_at=timezone.now(),
            )
            Note.objects.create(
                entrant=entrant,
                submission=submission,
                author_id=by_id,
                action="changed the event's rules; your submission was checked again",
                text=f"What changed: {change}. {_verdict(submission, checked.valid, problems)}",
            )
        changed += 1
    return changed


def _verdict(submission: Submission, valid: bool, problems: list[dict[str, Any]]) -> str:
    """The new verdict as its player reads it: "now" only when legality changed."""
    errors = [f"{p['message']} ({p['rule']})" for p in problems if p["severity"] == "error"]
    words = "legal" if valid else "not legal: " + "; ".join(errors).rstrip(".")
    when = "now" if valid != submission.valid else "still"
    text = f"Submission {submission.number} is {when} {words}."
    if submission.state == Submission.APPROVED and not valid:
        text += " It was approved: the organisers see it marked on their desk and may decide again."
    return text
