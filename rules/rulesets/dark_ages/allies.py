"""Allied forces of the d5 revision: 1-3 units from another list's required units.

The checks of an allied contingent, the QRS section on allies, and the "fixed" units (the
source's italics) that neither the army's own list nor an ally's may change.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules.base import Army, EntryStatus, Issue, Unit, entry_preset, error
from rules.list_entries import ids_of
from rules.qrs import Section
from rules.rulesets.dark_ages.fit import fit
from rules.rulesets.dark_ages.lists import ListSpec

ALLY_RULE = "Allied Forces"
MOST_ALLIES = 3


def changed(unit: Unit) -> bool:
    """Whether the unit takes an upgrade or a downgrade (a fixed place refuses it)."""
    return unit["change"] is not None


def ally_issues(army: Army) -> Iterable[Issue]:
    """ally-count, ally-not-required, ally-personality and the fixed units of allies."""
    units = army.units
    contingents = _contingents(army)
    if len(contingents) > 1:
        yield error("ally-count",
                    f"Allies from {len(contingents)} lists "
                    f"({', '.join(army.list_title(s) for s in contingents)}); an "
                    "army has one allied contingent.", ALLY_RULE)  # fmt: skip
    for slug, indices in contingents.items():
        if len(indices) > 3:
            yield error("ally-count",
                        f"The allied contingent from {army.list_title(slug)} has "
                        f"{len(indices)} units; "
                        "allies are 1-3 units.", ALLY_RULE)  # fmt: skip
        data = army.ruleset_lists.get(slug)
        if data is None:  # pragma: no cover - normalise_army refused it
            continue
        spec = ListSpec.from_data(data)
        members = [(i, units[i]) for i in indices]
        result = fit(members, spec, changed=changed, required_only=True)
        required = ", ".join(f"{s.limit} {s.name}" for s in spec.required)
        for i in result.unplaced:
            yield error("ally-not-required",
                        f"{units[i]['name']}: allies come from their list's required "
                        f"units ({army.list_title(slug)}: {required}); this unit is not one "
                        "of them.",
                        ALLY_RULE, unit=i)  # fmt: skip
        yield from fixed_issues(result.fixed_changed, units, ALLY_RULE)
        with_personality = [i for i in indices if units[i]["personality"] or units[i]["banner"]]
        if len(indices) < 3:
            for i in with_personality:
                yield error("ally-personality",
                            f"{units[i]['name']}: only an allied contingent of 3 units may "
                            f"take a personality; this one has {len(indices)}.",
                            ALLY_RULE, unit=i)  # fmt: skip
        else:
            people = [i for i in with_personality if units[i]["personality"]]
            for i in people[1:]:
                yield error("ally-personality",
                            f"{units[i]['name']}: the allies may take one personality; "
                            "another on their units would be the host's, and personalities "
                            "attach only to units of their own list.", ALLY_RULE, unit=i)  # fmt: skip


def _contingents(army: Army) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for i, unit in enumerate(army.units):
        if unit["ally"] is not None:
            found.setdefault(unit["ally"], []).append(i)
    return found


def _readable(data: Any) -> bool:
    return isinstance(data, Mapping) and bool(data.get("required"))


def ally_entries(army: Army) -> tuple[EntryStatus, ...]:
    """The picker's allied tiles: every other list's required units, grouped under the
    list's name, counted as the ally checks place the army's allied units. A list whose
    contingent would be a second one, or a full contingent, offers no more."""
    contingents = _contingents(army)
    found: list[EntryStatus] = []
    own = army.list_family(army.army_list)
    others = [s for s in army.ruleset_lists if army.list_family(s) != own]
    for slug in sorted(others, key=lambda s: army.list_title(s).casefold()):
        data = army.ruleset_lists[slug]
        if not _readable(data):
            continue
        name = army.list_title(slug)
        spec = ListSpec.from_data(data)
        members = [(i, army.units[i]) for i in contingents.get(slug, [])]
        slot_of = fit(members, spec, changed=changed, required_only=True).slot_of
        elsewhere = [army.list_title(s) for s in contingents if s != slug]
        room = 0 if elsewhere else max(0, MOST_ALLIES - len(members))
        if elsewhere:
            note = f"the allies already come from {elsewhere[0]}; an army has one contingent"
        else:
            note = f"allied: 1–3 of {name}'s required units"
        for slot, raw in zip(spec.required, data["required"], strict=False):
            _, values = entry_preset(raw, slot.name)
            counted = sorted(i for i, p in slot_of.items() if p is not None and p.key == slot.key)
            have = len(counted)
            more = min(room, max(0, slot.limit - have))
            found.append(EntryStatus(
                key=f"ally-{slug}-{slot.key}", label=slot.name,
                values={**values, "ally": slug}, cost=None, have=have, minimum=0,
                maximum=have + more, note=note, group=f"Allies from {name}",
                unit_ids=ids_of(army, counted),
            ))  # fmt: skip
    return tuple(found)


def fixed_issues(indices: Iterable[int], units: tuple[Unit, ...], rule: str) -> Iterable[Issue]:
    for i in indices:
        unit = units[i]
        yield error("fixed-unit-changed",
                    f"{unit['name']}: the list marks this unit as fixed (it may not be "
                    f"changed); remove its {unit['change']} change.", rule, unit=i)  # fmt: skip


def allies_section(army: Army | None) -> Section | None:
    """The QRS section on allied forces: the rules, and the army's allied units."""
    rules = (
        "Allies: 1–3 units from another list's required units.",
        "1–2 allied units: a natural 2 rolled for their movement and they do not move.",
        "3 allied units: may take a personality (then no roll); it counts against the "
        "personality limit.",
        "Personalities attach only to units of their own list, host or allied.",
    )
    if army is None:
        return Section("Allied forces", items=rules, key="allies")
    allied = [u["name"] for u in army.units if u.get("ally")]
    if not allied:
        return None
    return Section(
        "Allied forces",
        items=(f"Allied units: {', '.join(allied)}.", *rules),
        key="allies",
    )
