"""The Initiative roll-off, where the source has one (``CombatRules.initiative``): at the
start of each Turn after the first both sides roll, the side holding the Initiative adds
the source's bonus, and it passes to the other side only when that side's roll beats the
total. The side holding it goes first each Turn from then on (``Table.holder``, read by
``rules.seats.Turn``), so the turn order, the phasing side and One-Sided Melee follow it.

Where the source says so (``Initiative.choose``, Into the Dark) the roll is due in a phase
of its own, the higher roll wins (last turn's winner has -1 for each turn in a row it won,
read from the game's replayed log: ``Table.won``, ``Table.streak``), and the winner then
keeps the Initiative or passes it (``keep_or_pass``, an action of its own by the winner's
seat: the roll is made, and seen, before the choice).

Where the source's player turns are one-sided the game's turn counter counts player turns
(``rules.seats``): the source's Turn 2 starts at the game's Turn 3, its Turn 3 at Turn 5.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rules.combat import CombatRules, Initiative, Phase
from rules.seats import of, other
from rules.table import Refused, Table, checked_seed, roll

CHOICES = ("keep", "pass")
REROLLS = 50  # pairs rolled from one seed before giving up on ties (1 in 6 a pair, at most)


def source_turn(engine: CombatRules, turn: int) -> int | None:
    """The source's Turn that the game's turn ``turn`` starts (None: it starts none, being
    the second player turn of one)."""
    if engine.one_sided is None:
        return turn
    return (turn + 1) // 2 if turn % 2 == 1 else None


def due(engine: CombatRules, options: Mapping[str, Any], phases: Sequence[Phase],
        table: Table) -> Initiative:  # fmt: skip
    """The source's Initiative rule, refused unless its roll is due now, once a turn: from
    the source's Turn ``first``, at the start of the turn before anything else is done in
    it, or in the rule's own phase."""
    rule = engine.initiative(options)
    if rule is None:
        raise Refused("This rule set rolls no Initiative: the side that goes first does so "
                      "every turn.")  # fmt: skip
    number = source_turn(engine, table.turn)
    turns = "each turn" if rule.first < 2 else f"Turn {rule.first} and every Turn after"
    if rule.phase:
        name = next((p.name for p in phases if p.key == rule.phase), rule.phase)
        when = f"the Initiative is rolled in {name} of {turns} ({rule.section})"
        now = table.phase == rule.phase
    else:
        when = (f"the Initiative is rolled at the start of {turns}, before anything else is "
                f"done in it ({rule.section})")  # fmt: skip
        start = bool(phases) and table.phase == phases[0].key
        now = start and table.acted != table.turn
    if table.rolled == table.turn:
        raise Refused(f"The Initiative was rolled already this turn: {when}.")
    if number is None or number < rule.first or not now:
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
        if rule.choose:  # a tie wins nothing: the seed rolls the next pair, in order
            rolled = _untied(rule, table, used, roll_minus(engine, rule, table, lost))
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
    minus = roll_minus(engine, rule, table, lost)
    made = {"turn": table.turn, "phase": table.phase, "held": held,
            "names": {held: names[held], challenger: names[challenger]}, "dice": list(rolled),
            "bonus": rule.bonus, "minus": minus, "seed": used, "section": rule.section,
            "ties": rule.ties}  # fmt: skip
    if rule.choose:
        return made | _winner(engine, table, rolled[-2:], minus, rule)
    total = rolled[0] + rule.bonus - minus[held]
    holder = challenger if rolled[1] - minus[challenger] > total else held
    return made | {"holder": holder}


def roll_minus(engine: CombatRules, rule: Initiative, table: Table,
               lost: Mapping[str, int] | None = None) -> dict[str, int]:  # fmt: skip
    """What comes off each side's roll: units lost (the optional rule) and, where the
    source says so, last turn's winner's -1 for each turn in a row it won."""
    held, challenger = table.holder, other(table.holder)
    minus = {held: 0, challenger: 0}
    if lost is not None:
        minus[held] = lost.get(held, 0)
        minus[challenger] = lost.get(challenger, 0) if rule.penalty_both else 0
    if rule.streak and table.won and table.rolled == _last_turn(engine, table):
        minus[table.won] += table.streak
    return minus


def _last_turn(engine: CombatRules, table: Table) -> int:
    return table.turn - (1 if engine.one_sided is None else 2)


def _untied(rule: Initiative, table: Table, seed: str, minus: Mapping[str, int]) -> tuple[int, ...]:
    """Pairs rolled from ``seed`` in order up to the first that is not a tie, all of them."""
    held, challenger = table.holder, other(table.holder)
    for pairs in range(1, REROLLS + 1):
        rolled = roll(seed, rule.die.faces, 2 * pairs)
        if rolled[-2] - minus[held] != rolled[-1] - minus[challenger]:
            return rolled
    raise Refused(f"{REROLLS} ties in a row from one seed: roll again ({rule.ties}).")


def _winner(engine: CombatRules, table: Table, pair: Sequence[int], minus: Mapping[str, int],
            rule: Initiative) -> dict[str, Any]:  # fmt: skip
    """The side with the higher roll, and how many turns in a row it has won it."""
    held, challenger = table.holder, other(table.holder)
    mine, theirs = pair[0] - minus[held], pair[1] - minus[challenger]
    if mine == theirs:
        raise Refused(f"A tie, {mine} each: neither side wins the Initiative; roll both dice "
                      f"again and type those ({rule.ties}).")  # fmt: skip
    winner = held if mine > theirs else challenger
    again = winner == table.won and table.rolled == _last_turn(engine, table)
    return {"winner": winner, "streak": table.streak + 1 if again else 1}


def keep_or_pass(
    engine: CombatRules,
    options: Mapping[str, Any],
    table: Table,
    names: Mapping[str, str],
    choice: str,
    seat: str | None = None,
) -> dict[str, Any]:
    """The winner's choice after the roll (the action's payload): ``keep`` the Initiative,
    or ``pass`` it to the other side; ``seat``: the phone's side (None: one phone plays
    both), refused unless it is the winner's."""
    rule = engine.initiative(options)
    if rule is None or not rule.choose:
        raise Refused("In this rule set the roll itself says who holds the Initiative: there "
                      "is no keeping or passing it.")  # fmt: skip
    winner = table.choosing
    if not winner:
        raise Refused(f"No keep or pass is due: the winner of the turn's Initiative roll "
                      f"decides it once, after the roll ({rule.section}).")  # fmt: skip
    if choice not in CHOICES:
        raise Refused("Keep the Initiative or pass it: choose one of keep, pass.")
    if seat is not None and seat != winner:
        raise Refused(f"{names[winner]} won the roll: \"the winner decides if he wishes to "
                      f"keep or pass the initiative\" ({rule.section}); it is "
                      f"{of(names[winner])} choice.")  # fmt: skip
    holder = winner if choice == "keep" else other(winner)
    return {"turn": table.turn, "phase": table.phase, "side": winner, "choice": choice,
            "holder": holder, "names": {k: names[k] for k in ("a", "b")},
            "section": rule.section}  # fmt: skip
