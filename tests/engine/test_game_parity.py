"""The browser's engine and the server agree at the table: random games of every rule set
with combat, the phone's actions (combats, removals, rallies, force morale rolls, the next
phase) worked out by the page's engine (Pyodide under Node, the files a page loads) from
the game's table and the seeds the phone chose, then sent to the server: the same dice,
hits, words and refusals, action for action.

MUSTER_PARITY_GAMES sets how many actions at least (``make soak-engine`` runs the full
set); the run prints the counts."""

from __future__ import annotations

import os
from collections import Counter

import pytest

from tests.web.games.test_offers import RULESETS, compare_games

pytestmark = pytest.mark.django_db

ACTIONS = int(os.environ.get("MUSTER_PARITY_GAMES", "150"))  # make soak-engine: 1000


def test_the_browsers_engine_works_out_random_games_exactly_as_the_server(
    node_engine, user, capsys
):
    def work(kept, state, records):
        return node_engine.call("rules.page.game:work", game=kept, state=state,
                                operations=records)  # fmt: skip

    seen: Counter[str] = Counter()
    for ruleset in RULESETS:
        done, rounds = 0, 0
        while done < ACTIONS / len(RULESETS):
            found = compare_games(user, ruleset, work, games=1, batches=8, seed=f"-{rounds}")
            done += found.get("actions", 0)
            rounds += 1
            seen.update({k: v for k, v in found.items() if k != "actions"})
        seen["actions"] += done
    with capsys.disabled():
        print(f"\ngames parity: {seen['actions']} actions compared ({seen['worked']} worked out "
              f"alike, {seen['refused']} refused alike; {seen['combat']} combats, "
              f"{seen['rally']} rallies, {seen['force_morale']} morale rolls, "
              f"{seen['remove']} removals): 0 differences")  # fmt: skip
    assert seen["actions"] >= ACTIONS and seen["combat"] > 0, seen
