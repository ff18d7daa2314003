"""Force morale at the table: a side's roll after a unit of it is destroyed, worked out by
the rule set's engine (``CombatRules.force_morale``) from the units it has lost so far, the
army's size, the dice (typed, or rolled from a seed as combats' are) and the source's +1s
the player ticks. Logged as one action, so Undo takes it back as any other."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from armybuilder.games import selectors
from armybuilder.games.models import SIDES, Game, GameAction
from armybuilder.games.services import Keyed, Refused, record_action
from rules import seats, table, table_rolls
from rules.combat import DieSpec


def offer(game: Game) -> dict[str, Any] | None:
    """What the force morale form asks, for a rule set whose engine has it: the die, how
    many may be rolled, the +1s in the source's words; None for the others."""
    engine, options = selectors.combat_rules(game), selectors.options(game)
    spec = engine.force_morale_dice(options)
    if spec is None:
        return None
    return {"die": spec.label, "most": spec.count, "counts": range(1, spec.count + 1),
            "bonuses": engine.force_morale_bonuses(options), "section": _section(game, spec)}  # fmt: skip


def _section(game: Game, spec: DieSpec) -> str:
    verdict = selectors.combat_rules(game).force_morale(0, (spec.faces[-1],))
    return verdict.section if verdict is not None else ""


def force_morale(
    game: Game,
    version: int | None,
    side: str,
    dice: Iterable[int] | None = None,
    *,
    count: int = 1,
    seed: str = "",
    bonus: int = 0,
    keyed: Keyed | None = None,
    seat: str | None = None,
) -> GameAction:
    """``side``'s force morale roll recorded with the engine's verdict ("fights on" or
    "routs"), read against the units it has lost so far (the log replayed) and its army's
    size. ``dice`` typed, or ``count`` dice rolled from ``seed`` (a new one when none).
    ``seat``: each player rolls their own side's."""
    if side not in SIDES:
        raise Refused("Choose one of the game's two sides.")
    table.checked_seed(seed)
    typed = tuple(dice) if dice is not None else None

    def make(locked: Game, state: selectors.GameState, actions: list[GameAction]) -> dict:
        view = selectors.side_view(locked, key=side)
        seats.own(seat, side, selectors.side_names(locked), "force morale rolls")
        return table_rolls.force_morale(selectors.combat_rules(locked), selectors.options(locked),
                                  state, side, view.name, [c.key for c in view.cards], typed,
                                  count=count, seed=seed, bonus=bonus)  # fmt: skip

    return record_action(
        game, version=version, kind=GameAction.FORCE_MORALE, make=make, keyed=keyed, seat=seat
    )
