"""Armies pinned to list revisions: what a newer revision would change, accept and undo.

An army records, in ``Army.list_pins`` ({list slug: revision number}), the revision of
each list it reads: its own list and any it draws allies from. It is checked against
those revisions (``selectors.army_lookup``) until its owner accepts the newer ones, after
seeing ``upgrade_diff``. The catalog only reads an army (``selectors.PinnedArmy``): it
answers the pins an upgrade, an undo or an imported file's revisions come to
(``upgraded_pins``, ``restored_pins``, ``named_pins``), and armies stores them
(``armies.pinning``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.db.models import Q

import rules
from armybuilder.catalog.list_diff import (
    EntryChange,
    ReadableChange,
    Vocabulary,
    diff_lists,
    readable,
)
from armybuilder.catalog.models import DELETED, ArmyList, ArmyListRevision
from armybuilder.catalog.selectors import PinnedArmy, pinned_lookup, readable_lists


def referenced_slugs(document: Any) -> set[str]:
    """The list slugs an army document reads: its list and its units' allied lists."""
    if not isinstance(document, Mapping):
        return set()
    found = set()
    if isinstance(document.get("army_list"), str):
        found.add(document["army_list"])
    units = document.get("units")
    for unit in units if isinstance(units, list) else ():
        if isinstance(unit, Mapping) and isinstance(unit.get("ally"), str):
            found.add(unit["ally"])
    return found


def _latest(ruleset: str, slugs: set[str], readable: Q | None = None) -> dict[str, int]:
    # a list its author deleted takes no new pin: only what was pinned to it still reads it
    rows = ArmyList.objects.filter(ruleset=ruleset, slug__in=slugs, latest_revision__gt=0)
    rows = rows.exclude(status=DELETED)
    if readable is not None:
        rows = rows.filter(readable)
    return dict(rows.values_list("slug", "latest_revision"))


def pins_for(document: Any, pins: Mapping[str, int] | None = None) -> dict[str, int]:
    """The pins an army with ``document`` should have: ``pins`` kept for the lists it still
    reads, the latest revision for any list it reads and is not pinned to yet. No query
    when nothing new is read (the common save)."""
    wanted = referenced_slugs(document)
    kept = {slug: number for slug, number in (pins or {}).items() if slug in wanted}
    missing = wanted - set(kept)
    if missing:
        kept.update(_latest(str(document.get("ruleset", "")), missing))
    return kept


@dataclass(frozen=True)
class UnitChange:
    index: int
    name: str
    points: tuple[int | None, int | None]  # before, after
    issues: tuple[tuple[str, ...], tuple[str, ...]]  # error and warning messages

    @property
    def legal(self) -> tuple[bool, bool]:
        return (not self.issues[0], not self.issues[1])

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "name": self.name,
            "points": {"before": self.points[0], "after": self.points[1]},
            "issues": {"before": list(self.issues[0]), "after": list(self.issues[1])},
        }


@dataclass(frozen=True)
class EntryCount:
    """One entry of the army's own list: how many of this army's units the list can count
    against it (never more than its max: the rest are the "too many" of the army's
    issues), and what the list allows, before and after."""

    key: str
    label: str
    have: tuple[int | None, int | None]
    minimum: tuple[int | None, int | None]
    maximum: tuple[int | None, int | None]

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            **{
                name: {"before": getattr(self, name)[0], "after": getattr(self, name)[1]}
                for name in ("have", "minimum", "maximum")
            },
        }


@dataclass(frozen=True)
class ListUpgrade:
    slug: str
    name: str
    pinned: int
    latest: int
    changes: tuple[EntryChange, ...]
    readable: tuple[ReadableChange, ...] = ()  # the same changes in a player's words

    def to_json(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "name": self.name,
            "pinned": self.pinned,
            "latest": self.latest,
            "changes": [c.to_json() for c in self.changes],
        }


@dataclass(frozen=True)
class UpgradeDiff:
    """What accepting the newest revisions of an army's lists would change."""

    lists: tuple[ListUpgrade, ...]
    pins_before: Mapping[str, int]
    pins_after: Mapping[str, int]
    units: tuple[UnitChange, ...]
    total_points: tuple[int | None, int | None]
    valid: tuple[bool, bool]
    army_issues: tuple[tuple[str, ...], tuple[str, ...]] = field(default=((), ()))
    entries: tuple[EntryCount, ...] = ()
    malformed: tuple[str, str] = ("", "")  # the parser's refusal, before / after

    @property
    def becomes_illegal(self) -> bool:
        return self.valid[0] and not self.valid[1]

    @property
    def changed_entries(self) -> tuple[EntryCount, ...]:
        """The army's counts against the entries the newer revision changed."""
        keys = {c.entry.rsplit(":", 1)[-1] for item in self.lists for c in item.changes}
        return tuple(e for e in self.entries if e.key in keys)

    def to_json(self) -> dict[str, Any]:
        return {
            "lists": [item.to_json() for item in self.lists],
            "pins": {"before": dict(self.pins_before), "after": dict(self.pins_after)},
            "units": [u.to_json() for u in self.units],
            "total_points": {"before": self.total_points[0], "after": self.total_points[1]},
            "valid": {"before": self.valid[0], "after": self.valid[1]},
            "army_issues": {
                "before": list(self.army_issues[0]),
                "after": list(self.army_issues[1]),
            },
            "malformed": {"before": self.malformed[0], "after": self.malformed[1]},
            "entries": [e.to_json() for e in self.entries],
        }


Checked = tuple[rules.Army | None, rules.Report | None, str]


# the engine's check of a document against a lookup: ``catalog.services.check_document``,
# handed in by ``services.upgrade_diff`` (only the services call the engine's check)
class CheckDocument(Protocol):
    def __call__(
        self, raw: Any, /, *, lookup: rules.ListLookup
    ) -> tuple[rules.Army, rules.Report]: ...


def _check(check: CheckDocument, army: PinnedArmy, pins: Mapping[str, int]) -> Checked:
    try:
        parsed, report = check(army.document, lookup=pinned_lookup(army.owner_id, list_pins=pins))
    except rules.MalformedDocument as exc:  # e.g. a unit's allied list is gone
        return None, None, exc.message
    return parsed, report, ""


def _entry_counts(before: rules.Army | None, after: rules.Army | None) -> tuple[EntryCount, ...]:
    """The army's own list's entries, this army's counts against them, before and after."""

    def statuses(parsed: rules.Army | None) -> dict[str, rules.EntryStatus]:
        if parsed is None or parsed.list_data is None:
            return {}
        found = rules.get_ruleset(parsed.ruleset).list_entries(parsed.list_data, parsed)
        # the army's own list only: not the allied tiles drawn from the other lists
        return {status.key: status for status in found if not status.group}

    old, new = statuses(before), statuses(after)
    counts = []
    for key in [*old, *(k for k in new if k not in old)]:
        b, a = old.get(key), new.get(key)
        counts.append(
            EntryCount(
                key=key,
                label=(a or b).label if (a or b) is not None else key,
                have=(b.have if b else None, a.have if a else None),
                minimum=(b.minimum if b else None, a.minimum if a else None),
                maximum=(b.maximum if b else None, a.maximum if a else None),
            )
        )
    return tuple(counts)


def _messages(issues: Any) -> tuple[str, ...]:
    return tuple(i.message for i in issues if i.severity == "error")


def newer_revisions(army: PinnedArmy) -> dict[str, tuple[int, int]]:
    """{slug: (pinned, latest)} for each pinned list with a newer revision the army's
    owner may read (one query)."""
    pins = dict(army.list_pins or {})
    if not pins:
        return {}
    # a list its owner may no longer read keeps its pin, but offers no newer revision
    latest = _latest(army.ruleset, set(pins), readable_lists(army.owner_id))
    return {
        slug: (number, latest[slug])
        for slug, number in pins.items()
        if slug in latest and latest[slug] > number
    }


def upgrade_diff(army: PinnedArmy, check: CheckDocument) -> UpgradeDiff | None:
    """None when the army is checked against the latest revision of every list it is
    pinned to; else, entry by entry, what changed in those lists, and for this army unit
    by unit the points and errors, the totals and its legality, before and after."""
    newer = newer_revisions(army)
    if not newer:
        return None
    before_pins = dict(army.list_pins)
    after_pins = {**before_pins, **{slug: latest for slug, (_, latest) in newer.items()}}
    revisions = {
        (rev.army_list.slug, rev.number): rev
        for rev in ArmyListRevision.objects.select_related("army_list").filter(
            army_list__ruleset=army.ruleset,
            army_list__slug__in=list(newer),
            number__in={n for pair in newer.values() for n in pair},
        )
    }
    upgrades = []
    words = Vocabulary.of(rules.get_ruleset(army.ruleset).unit_fields)
    for slug, (pinned, latest) in sorted(newer.items()):
        old, new = revisions.get((slug, pinned)), revisions.get((slug, latest))
        changes = diff_lists(old.data if old else {}, new.data if new else {})
        name = new.name if new else old.name if old else "an army list"
        upgrades.append(
            ListUpgrade(
                slug,
                name,
                pinned,
                latest,
                tuple(changes),
                tuple(readable(c, words) for c in changes),
            )
        )
    parsed_before, before, fault_before = _check(check, army, before_pins)
    parsed_after, after, fault_after = _check(check, army, after_pins)
    units = []
    count = max(len(r.units) for r in (before, after) if r is not None) if (before or after) else 0
    for i in range(count):
        b = before.units[i] if before is not None and i < len(before.units) else None
        a = after.units[i] if after is not None and i < len(after.units) else None
        units.append(
            UnitChange(
                index=i,
                name=(a or b).name if (a or b) is not None else f"unit {i + 1}",
                points=(b.points if b else None, a.points if a else None),
                issues=(
                    _messages(before.issues_for_unit(i)) if before is not None else (),
                    _messages(after.issues_for_unit(i)) if after is not None else (),
                ),
            )
        )

    def army_wide(report: rules.Report | None) -> tuple[str, ...]:
        if report is None:
            return ()
        return _messages(i for i in report.issues if i.unit is None)

    return UpgradeDiff(
        lists=tuple(upgrades),
        pins_before=before_pins,
        pins_after=after_pins,
        units=tuple(units),
        total_points=(
            before.total_points if before else None,
            after.total_points if after else None,
        ),
        valid=(bool(before and before.valid), bool(after and after.valid)),
        army_issues=(army_wide(before), army_wide(after)),
        malformed=(fault_before, fault_after),
        entries=_entry_counts(parsed_before, parsed_after),
    )


@dataclass(frozen=True)
class PinnedList:
    """The army list an army is built on, as it reads it: the pinned revision's name."""

    slug: str
    name: str
    revision: int | None  # None: not pinned (the latest is read)
    public: bool  # its page may be linked for anyone

    @property
    def text(self) -> str:
        return (
            f"List: {self.name}, revision {self.revision}"
            if self.revision
            else f"List: {self.name}"
        )


def list_title(ruleset: str, slug: str, number: int | None) -> str:
    """ "<name>, revision N" of a list's revision (its name then), or the list's name."""
    if number is not None:
        revision = (
            ArmyListRevision.objects.filter(
                army_list__ruleset=ruleset, army_list__slug=slug, number=number
            )
            .values_list("name", flat=True)
            .first()
        )
        if revision is not None:
            return f"{revision}, revision {number}"
    name = ArmyList.objects.filter(ruleset=ruleset, slug=slug).values_list("name", flat=True)
    return name.first() or "an army list no longer in Muster"


def pinned_list(army: PinnedArmy) -> PinnedList | None:
    """The army's own list and the revision it is checked against (None without a list)."""
    document = army.document if isinstance(army.document, Mapping) else {}
    slug = document.get("army_list")
    if not isinstance(slug, str) or not slug:
        return None
    number = (army.list_pins or {}).get(slug)
    found = ArmyList.objects.filter(ruleset=army.ruleset, slug=slug).first()
    if found is None:
        return PinnedList(slug, "a list no longer in Muster", None, False)
    revision = None
    if isinstance(number, int):
        revision = ArmyListRevision.objects.filter(army_list=found, number=number).first()
    if revision is None:
        return PinnedList(slug, found.name, found.latest_revision or None, found.is_public)
    return PinnedList(slug, revision.name, revision.number, found.is_public)


def upgraded_pins(army: PinnedArmy) -> dict[str, int]:
    """The pins that check the army against the latest revisions it may read."""
    previous = dict(army.list_pins or {})
    newer = newer_revisions(army)
    return {**previous, **{slug: latest for slug, (_, latest) in newer.items()}}


def restored_pins(
    army: PinnedArmy, previous: Mapping[str, int] | ArmyListRevision
) -> dict[str, int]:
    """The pins that undo an upgrade (``previous``, the pins it had), or that pin one list
    to ``previous``, a revision of it."""
    if isinstance(previous, ArmyListRevision):
        return {**(army.list_pins or {}), previous.army_list.slug: previous.number}
    return {str(slug): int(number) for slug, number in previous.items()}


def named_pins(army: PinnedArmy, wanted: Mapping[str, int]) -> tuple[dict[str, int], list[str]]:
    """The pins of an imported army at the revisions its file names (``list_revisions``),
    where Muster has them; and, for each it has not, a sentence saying which revision the
    army is checked against instead."""
    pins = dict(army.list_pins or {})
    asked = {slug: number for slug, number in wanted.items() if slug in pins}
    if not asked:
        return pins, []
    found = {
        (rev.army_list.slug, rev.number): rev
        for rev in ArmyListRevision.objects.select_related("army_list").filter(
            army_list__ruleset=army.ruleset,
            army_list__slug__in=list(asked),
            number__in=set(asked.values()),
        )
    }
    names = dict(
        ArmyList.objects.filter(ruleset=army.ruleset, slug__in=list(asked)).values_list(
            "slug", "name"
        )
    )
    notes = []
    for slug, number in asked.items():
        if (slug, number) in found:
            pins[slug] = number
        else:
            notes.append(
                f"The file names revision {number} of {names.get(slug, 'its army list')}, which "
                f"Muster does not have: the army is checked against revision {pins[slug]}, "
                "the latest."
            )
    return pins, notes
