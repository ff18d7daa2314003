"""The rolls a game's table makes besides its combats, in plain Python: a unit's rally
and a side's force morale, each refused outside what its source allows and otherwise
worked out by the rule set's engine into the action's payload. The server's game services
and the page's engine (``rules.page.game``) both call these, as they call ``rules.table``.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rules.combat import CombatRules, Rally, Result
from rules.errors import MalformedDocument
from rules.table import KEY, Piece, Refused, Table, checked_seed, roll, said, usable


def check_facts(facts: Iterable[str]) -> tuple[str, ...]:
    facts = tuple(facts)
    if not all(KEY.fullmatch(f) for f in facts):  # never echo a made-up key's text back
        raise Refused("That is not something this rule set's rally asks; tick one offered.")
    return facts


def rally_allowed(
    engine: CombatRules, options: Mapping[str, Any], table: Table, facts: Iterable[str]
) -> None:
    """Refused outside the source's rally phase, or for a fact its rally does not ask."""
    when = engine.rally_phase(options)
    if when is None:
        raise Refused("This rule set has no rallies.")
    if table.phase != when:
        names = {p.key: p for p in engine.phases(options)}
        at, now = names[when], names.get(table.phase)
        raise Refused(f"Units rally in {at.name} ({at.section}); the game is in "
                      f"{now.name if now else table.phase}.")  # fmt: skip
    asked = {key for key, _ in engine.rally_facts(options)}
    if not set(facts) <= asked:
        raise Refused("That is not something this rule set's rally asks; tick one offered.")


def rally(
    engine: CombatRules,
    options: Mapping[str, Any],
    table: Table,
    card: Piece,
    facts: Iterable[str] = (),
    die: int | None = None,
    *,
    seed: str = "",
) -> dict[str, Any]:
    """A unit's rally as the rule set's engine works it out (the action's payload): refused
    outside the source's rally phase; where the rule rolls a die and none is typed, it is
    rolled from ``seed`` (a new one when none is given)."""
    facts = check_facts(facts)
    checked_seed(seed)
    rally_allowed(engine, options, table, facts)
    usable(card, table)
    damage = table.of(card.key).damage
    spec = engine.rally_dice(Rally(card.unit, 0, frozenset(facts), None, options))
    rolled, used = die, ""
    if spec is not None and die is None:
        used = seed or secrets.token_hex(8)
        rolled = roll(used, spec.faces, 1)[0]
    elif spec is not None and die not in spec.faces:
        faces = ", ".join(str(f) for f in sorted(set(spec.faces)))
        raise Refused(f"{die} is not a face of the {spec.label}; allowed: {faces}.")

    def work(hits: int) -> Result:
        return engine.rally(Rally(card.unit, hits, frozenset(facts), rolled, options))

    try:  # the engine names its unit of damage ("hits", "casualties"): read that one
        result = work(damage.get(work(0).unit, 0))
    except MalformedDocument as exc:
        raise Refused(said(exc)) from None
    return {"unit": card.key, "unit_name": card.name, "turn": table.turn,
            "phase": table.phase, "facts": sorted(facts), "die": rolled,
            "dice": [] if rolled is None else [rolled], "seed": used,
            "result": result.to_json()}  # fmt: skip


def force_morale(
    engine: CombatRules,
    options: Mapping[str, Any],
    table: Table,
    side: str,
    side_name: str,
    units: Sequence[str],
    dice: Iterable[int] | None = None,
    *,
    count: int = 1,
    seed: str = "",
    bonus: int = 0,
) -> dict[str, Any]:
    """``side``'s force morale roll with the engine's verdict (the action's payload), read
    against the units it has lost so far and its army's size (``units``: its units' keys).
    ``dice`` typed, or ``count`` dice rolled from ``seed`` (a new one when none)."""
    checked_seed(seed)
    typed = tuple(dice) if dice is not None else None
    spec = engine.force_morale_dice(options)
    if spec is None:
        raise Refused("This rule set has no force morale.")
    if side in table.routed:
        raise Refused(f"{side_name} routed already: {table.routed[side]}.")
    lost = sum(1 for key in units if table.of(key).lost)
    rolled_for = table.rolls.get(side, 0)
    if lost <= rolled_for:  # the source: "rolling a Dx each time a friendly Unit is destroyed"
        section = engine.force_morale(0, (spec.faces[-1],), units=len(units))
        cite = f" ({section.section})" if section is not None else ""
        had = ("has lost no unit yet" if lost == 0 else
               f"has rolled for {'its one unit' if lost == 1 else f'all {lost} units'} lost")  # fmt: skip
        raise Refused(f"No force morale roll is due for {side_name}: a side rolls each time "
                      f"one of its units is destroyed{cite}, and it {had}.")  # fmt: skip
    offered = len(engine.force_morale_bonuses(options))
    if not 0 <= bonus <= offered:
        raise Refused(f"The source allows at most {offered} +1 on this roll; tick those "
                      "that hold.")  # fmt: skip
    faces = ", ".join(str(f) for f in sorted(set(spec.faces)))
    used = ""
    if typed is None:
        if not 1 <= count <= spec.count:
            raise Refused(f"Force morale rolls one {spec.label} to {spec.count}.")
        used = seed or secrets.token_hex(8)
        rolled = roll(used, spec.faces, count)
    else:
        if not 1 <= len(typed) <= spec.count:
            raise Refused(f"Force morale rolls one {spec.label} to {spec.count}: type "
                          "each with a space.")  # fmt: skip
        wrong = next((d for d in typed if d not in spec.faces), None)
        if wrong is not None:
            raise Refused(f"{wrong} is not a face of the {spec.label}; allowed: {faces}.")
        rolled = typed
    verdict = engine.force_morale(lost, rolled, units=len(units), bonus=bonus)
    if verdict is None:  # a die offered but no rule: never logged as a roll of nothing
        raise Refused("This rule set has no force morale.")
    return {"side": side, "side_name": side_name, "turn": table.turn, "phase": table.phase,
            "lost": lost, "units": len(units), "bonus": bonus, "dice": list(rolled),
            "seed": used, "verdict": verdict.to_json()}  # fmt: skip
