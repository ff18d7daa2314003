"""Force morale at the table: a side's roll after a unit of it is destroyed, worked out by
the rule set's engine (``CombatRules.force_morale``) from the units it has lost so far, the
army's size, the dice (typed, or rolled from a seed as combats' are) and the source's +1s
the player ticks. Logged as one action, so Undo takes it back as any other."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from armybuilder.games import selectors
from armybuilder.games.models import SIDES, Game, GameAction
from armybuilder.games.services import SEED, Keyed, Refused, record_action, roll
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
) -> GameAction:
    """``side``'s force morale roll recorded with the engine's verdict ("fights on" or
    "routs"), read against the units it has lost so far (the log replayed) and its army's
    size. ``dice`` typed, or ``count`` dice rolled from ``seed`` (a new one when none)."""
    if side not in SIDES:
        raise Refused("Choose one of the game's two sides.")
    if seed and not SEED.fullmatch(seed):
        raise Refused("A seed is hex digits, as the page gives it; leave it out to roll anew.")
    typed = tuple(dice) if dice is not None else None

    def make(locked: Game, state: selectors.GameState, actions: list[GameAction]) -> dict:
        engine, options = selectors.combat_rules(locked), selectors.options(locked)
        spec = engine.force_morale_dice(options)
        if spec is None:
            raise Refused("This rule set has no force morale.")
        view = selectors.side_view(locked, side)
        if side in state.routed:
            raise Refused(f"{view.name} routed already: {state.routed[side]}.")
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
        lost = sum(1 for c in view.cards if state.of(c.key).lost)
        verdict = engine.force_morale(lost, rolled, units=len(view.cards), bonus=bonus)
        if verdict is None:  # a die offered but no rule: never logged as a roll of nothing
            raise Refused("This rule set has no force morale.")
        return {"side": side, "side_name": view.name, "turn": state.turn, "phase": state.phase,
                "lost": lost, "units": len(view.cards), "bonus": bonus, "dice": list(rolled),
                "seed": used, "verdict": verdict.to_json()}  # fmt: skip

    return record_action(game, version, GameAction.FORCE_MORALE, make, keyed)
