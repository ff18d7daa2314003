"""The Initiative roll at the table, where the rule set's source has one
(``CombatRules.initiative``): a roll-off when the source says, worked out by
``rules.initiative`` from the dice (typed, or rolled from a seed as combats' are). Either
player's phone may roll it (it is a roll-off); the seat that did is recorded. Where the
winner keeps or passes the Initiative (Into the Dark) that is a second action, the
winner's seat's. Each is logged as one action, so Undo takes it back as any other."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from armybuilder.games import selectors
from armybuilder.games.models import Game, GameAction
from armybuilder.games.services import Keyed, record_action
from rules import initiative, seats, table


def offer(game: Game, state: selectors.GameState, seat: str | None = None) -> dict[str, Any] | None:
    """What the Initiative form asks, when its roll is due now; None otherwise (and for a
    rule set without one). Where the winner keeps or passes, ``choices``: the keep-or-pass
    form for each side this page (``seat``; None: both) may win with, so that a roll
    worked out on the phone offline can offer the winner's choice at once."""
    engine, options = selectors.combat_rules(game), selectors.options(game)
    rule = engine.initiative(options)
    if rule is None or not initiative.is_due(engine, options, selectors.phases(game), state):
        return None
    names = selectors.side_names(game)
    holder, challenger = names[state.holder], names[seats.other(state.holder)]
    # last turn's winner's -1s, as the roll will take them off (read from the log)
    minus = initiative.roll_minus(selectors.combat_rules(game), rule, state)
    return {"die": rule.die.label, "bonus": rule.bonus, "section": rule.section,
            "ties": rule.ties, "holder": holder, "challenger": challenger,
            "holder_of": seats.of(holder), "challenger_of": seats.of(challenger),
            "penalty": rule.penalty, "choose": rule.choose,
            "minus": [(names[k], n) for k, n in minus.items() if n],
            "choices": [{"side": k, "winner": names[k], "loser": names[seats.other(k)],
                         "section": rule.section}
                        for k in names if rule.choose and seat in (None, k)]}  # fmt: skip


def choice_offer(game: Game, state: selectors.GameState, seat: str | None) -> dict | None:
    """What the keep-or-pass form asks, when the roll's winner is yet to choose and this
    page is the winner's (or plays both sides); None otherwise."""
    winner = state.choosing
    if not winner or seat not in (None, winner):
        return None
    names = selectors.side_names(game)
    return {"winner": names[winner], "loser": names[seats.other(winner)],
            "section": state.choice_rule}  # fmt: skip


def roll(
    game: Game,
    version: int | None,
    dice: Iterable[int] | None = None,
    *,
    seed: str = "",
    penalty: bool = False,
    keyed: Keyed | None = None,
    seat: str | None = None,
) -> GameAction:
    """The Initiative roll-off recorded: ``dice`` typed (the Initiative side's, then the
    other's), or both rolled from ``seed`` (a new one when none); ``penalty``: the players
    use the source's optional -1 a unit lost (the units lost read from the log)."""
    table.checked_seed(seed)
    typed = tuple(dice) if dice is not None else None

    def make(locked: Game, state: selectors.GameState, actions: list[GameAction]) -> dict:
        lost = None
        if penalty:
            lost = {key: sum(1 for c in view.cards if state.of(c.key).lost)
                    for key, view in selectors.sides(locked).items()}  # fmt: skip
        return initiative.roll_off(selectors.combat_rules(locked), selectors.options(locked),
                                   selectors.phases(locked), state,
                                   selectors.side_names(locked), typed, seed=seed,
                                   lost=lost)  # fmt: skip

    return record_action(
        game, version=version, kind=table.INITIATIVE, make=make, keyed=keyed, seat=seat
    )


def keep_or_pass(
    game: Game,
    version: int | None,
    choice: str,
    *,
    keyed: Keyed | None = None,
    seat: str | None = None,
) -> GameAction:
    """The roll's winner keeps the Initiative or passes it (``choice``: keep or pass);
    refused unless ``seat`` is the winner's (None: one phone plays both sides)."""

    def make(locked: Game, state: selectors.GameState, actions: list[GameAction]) -> dict:
        return initiative.keep_or_pass(selectors.combat_rules(locked), selectors.options(locked),
                                       state, selectors.side_names(locked), choice,
                                       seat)  # fmt: skip

    return record_action(
        game, version=version, kind=table.KEEP_OR_PASS, make=make, keyed=keyed, seat=seat
    )
