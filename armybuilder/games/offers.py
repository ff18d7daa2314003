"""Every combat a game's page may offer, for each phase: the modifiers the source allows
for each attacker and target, or why the attacker cannot attack then.

The page keeps this on the phone so that a combat can be chosen, and its modifiers ticked,
while the phone is offline, with the game's table (``table``): what the page's engine
works the hits out from at once, offline too. It follows only from the frozen armies and the rule set, never from what happened
in the game, so it is worked out once per game and can be kept as long as the game lives.
Modifier sets repeat from pair to pair: each distinct set is written once (``sets``) and
the pairs name it by its place.
"""

from __future__ import annotations

from typing import Any

import rules
from armybuilder.games import selectors
from armybuilder.games.models import Game
from armybuilder.games.services import phases_named, said
from rules.table import table_of


def all_offers(game: Game) -> dict[str, Any]:
    """``{"sets": [[modifier, ...], ...], "phases": {phase: {attacker: reason | set |
    {target: set}}}}``: a modifier as the page's form shows it (key, label, section, group,
    automatic); an attacker that cannot attack in a phase has the reason, in words; one
    offered the same set against every target names it alone."""
    engine, options = selectors.combat_rules(game), selectors.options(game)
    sides = selectors.sides(game)
    sets: list[list[dict[str, Any]]] = []
    seen: dict[tuple[str, ...], int] = {}
    phases: dict[str, Any] = {}
    for phase in engine.phases(options):
        by_attacker: dict[str, Any] = {}
        for attacker_side, target_side in (("a", "b"), ("b", "a")):
            targets = sides[target_side]
            for attacker in sides[attacker_side].cards:
                pairs: dict[str, int] = {}
                reason = ""
                for target in targets.cards:
                    try:
                        offered = engine.combat_modifiers(
                            attacker.unit, target.unit, phase.key, options, targets.army.list_data
                        )
                    except rules.MalformedDocument as exc:
                        reason = phases_named(game, message=said(exc))
                        break
                    shown = [
                        {"key": m.key, "label": m.label, "section": m.section,
                         "group": m.group, "automatic": m.automatic}
                        for m in offered
                    ]  # fmt: skip
                    signature = tuple(repr(sorted(m.items())) for m in shown)
                    if signature not in seen:
                        seen[signature] = len(sets)
                        sets.append(shown)
                    pairs[target.key] = seen[signature]
                same = set(pairs.values())
                # most attackers are offered one set against every target: named once
                by_attacker[attacker.key] = reason or (same.pop() if len(same) == 1 else pairs)
        phases[phase.key] = by_attacker
    return {"sets": sets, "phases": phases, "table": table(game)}


def table(game: Game) -> dict[str, Any]:
    """What the page's engine works a combat, rally, removal or force morale roll out
    from (``rules.page.game``): each side's units as the engine read them, its army list
    and the game's options. Like the offers, it never changes for a game."""
    return table_of(game.ruleset, selectors.options(game), {
        key: (view.name, view.army.list_data, [(c.key, c.name, c.unit) for c in view.cards])
        for key, view in selectors.sides(game).items()
    })  # fmt: skip
