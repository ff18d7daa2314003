"""The Initiative roll-off, where the source has one (``CombatRules.initiative``): at the
start of each Turn after the first both sides roll, the side holding the Initiative adds
the source's bonus, and it passes to the other side only when that side's roll beats the
total. The side holding it goes first each Turn from then on (``Table.holder``, read by
``rules.seats.Turn``), so the turn order, the phasing side and One-Sided Melee follow it.

Where the source's player turns are one-sided the game's turn counter counts player turns
(``rules.seats``): the source's Turn 2 starts at the game's Turn 3, its Turn 3 at Turn 5.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rules.combat import CombatRules, Initiative, Phase
from rules.seats import other
from rules.table import Refused, Table, checked_seed, roll


def source_turn(engine: CombatRules, turn: int) -> int | None:
    """The source's Turn that the game's turn ``turn`` starts (None: it starts none, being
    the second player turn of one)."""
    if engine.one_sided is None:
        return turn
    return (turn + 1) // 2 if turn % 2 == 1 else None


def due(engine: CombatRules, options: Mapping[str, Any], phases: Sequence[Phase],
        table: Table) -> Initiative:  # fmt: skip
    """The source's Initiative rule, refused unless its roll is due now: at the start of
    the source's Turn 2 and every Turn after, before anything else is done in it, once."""
    rule = engine.initiative(options)
    if rule is None:
        raise Refused("This rule set rolls no Initiative: the side that goes first does so "
                      "every turn.")  # fmt: skip
    number = source_turn(engine, table.turn)
    when = (f"the Initiative is rolled at the start of Turn 2 and every Turn after, before "
            f"anything else is done in it ({rule.section})")  # fmt: skip
    if table.rolled == table.turn:
        raise Refused(f"The Initiative was rolled already this turn: {when}.")
    start = bool(phases) and table.phase == phases[0].key
    if number is None or number < 2 or not start or table.acted == table.turn:
        raise Refused(f"No Initiative roll is due now: {when}.")
    return rule


def is_due(engine: CombatRules, options: Mapping[str, Any], phases: Sequence[Phase],
           table: Table) -> bool:  # fmt: skip
    try:
        due(engine, options, phases, table)
    except Refused:
        return False
    return True


def roll_off(
    engine: CombatRules,
    options: Mapping[str, Any],
    phases: Sequence[Phase],
    table: Table,
    names: Mapping[str, str],
    dice: Iterable[int] | None = None,
    *,
    seed: str = "",
    lost: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """The roll-off worked out (the action's payload): ``dice`` typed, the Initiative
    side's die then the other's, or both rolled from ``seed`` (a new one when none).
    ``lost``: each side's units lost so far, given when the players use the source's
    optional -1 a unit lost (``Initiative.penalty``)."""
    checked_seed(seed)
    rule = due(engine, options, phases, table)
    if lost is not None and not rule.penalty:
        raise Refused(f"The source's Initiative has no -1 for units lost ({rule.section}).")
    faces = rule.die.faces
    used = ""
    if dice is None:
        used = seed or secrets.token_hex(8)
        rolled = roll(used, faces, 2)
    else:
        rolled = tuple(dice)
        if len(rolled) != 2:
            raise Refused(f"The Initiative is a roll-off: type two {rule.die.label}s, the "
                          f"Initiative side's first ({names[table.holder]}), then the "
                          f"other side's.")  # fmt: skip
        wrong = next((d for d in rolled if d not in faces), None)
        if wrong is not None:
            allowed = ", ".join(str(f) for f in sorted(set(faces)))
            raise Refused(f"{wrong} is not a face of the {rule.die.label}; allowed: {allowed}.")
    held, challenger = table.holder, other(table.holder)
    minus = {held: 0, challenger: 0}
    if lost is not None:
        minus[held] = lost.get(held, 0)
        minus[challenger] = lost.get(challenger, 0) if rule.penalty_both else 0
    total = rolled[0] + rule.bonus - minus[held]
    holder = challenger if rolled[1] - minus[challenger] > total else held
    return {"turn": table.turn, "phase": table.phase, "held": held, "holder": holder,
            "names": {held: names[held], challenger: names[challenger]},
            "dice": list(rolled), "bonus": rule.bonus, "minus": minus, "seed": used,
            "section": rule.section, "ties": rule.ties}  # fmt: skip
