"""The game's table the page keeps (``offers.table``) and the page's engine working the
phone's actions out from it (``rules.page.game``) give exactly what the server's game
services record: the same dice from the same seed, the same hits, the same words, the same
refusals. Random games of every rule set with combat, actions sent in batches as a phone
that was offline sends them."""

from __future__ import annotations

import json
import random
import secrets

import pytest

from armybuilder.armies.services import create_army
from armybuilder.games import offers, operations, selectors, services
from armybuilder.games.models import GameAction
from rules import table
from rules.page import game as page_game
from tests.support import army

pytestmark = pytest.mark.django_db

# per rule set: two sides' units, varied enough that most combats, rallies and morale
# rolls the engine knows come up
ARMIES = {
    "feudal-2017": (
        [{"name": "Knights", "type": "knights"}, {"name": "Serjeants", "type": "serjeants"},
         {"name": "Bowmen", "type": "bowmen"}],
        [{"name": "Knights", "type": "knights"}, {"name": "Bowmen", "type": "bowmen"},
         {"name": "Freemen", "type": "freemen"}],
    ),
    "dark-ages-d5": (
        [{"name": "Hird", "type": "infantry", "personality": "hero", "banner": True},
         {"name": "Raiders", "type": "infantry"}, {"name": "Bows", "type": "skirmishers"}],
        [{"name": "Fyrd", "type": "infantry"}, {"name": "Riders", "type": "cavalry"},
         {"name": "Levy", "type": "infantry"}],
    ),
    "dark-ages-2015": (
        [{"name": "Hird", "type": "infantry", "banner": True}, {"name": "Raiders", "type": "infantry"}],
        [{"name": "Fyrd", "type": "infantry"}, {"name": "Riders", "type": "cavalry"}],
    ),
    "into-the-dark": (
        [{"name": "Knights", "quality": "fanatic", "mounted": True}, {"name": "Spears"},
         {"name": "Archers", "missile_weapon": "foot_bow"}],
        [{"name": "Spears"}, {"name": "Warriors"}],
    ),
    "dewitt-medieval": ([{"name": "A"}, {"name": "B"}], [{"name": "C"}, {"name": "D"}]),
}  # fmt: skip


RULESETS = sorted(ARMIES)


def _game(user, ruleset):
    first, second = ARMIES[ruleset]
    a = create_army(army(ruleset, first, name="Ours"), owner=user)
    b = create_army(army(ruleset, second, name="Theirs"), owner=user)
    return services.start_game(user, army_a=a, army_b=b)


def _kept(game):
    """The table and the state as the page holds them: through JSON, as the page does."""
    game = type(game).objects.get(pk=game.pk)
    table = json.loads(json.dumps(offers.table(game)))
    state = json.loads(json.dumps(selectors.state_of(game).to_json()))
    return table, state


def _choice(rng, game, now):
    """One action a player might make, as the page's script records it: mostly one the
    rules allow there and then, sometimes one the server refuses (a removed unit, a die
    that is no face, a pair on one side, a rally out of its phase)."""
    engine, options = selectors.combat_rules(game), selectors.options(game)
    units = [c for side in selectors.sides(game).values() for c in side.cards]
    standing = [c for c in units if not now.removed(c.key)] or units
    lists = {k: v.army.list_data for k, v in selectors.sides(game).items()}

    def offered(attacker, target):
        try:
            return engine.combat_modifiers(attacker.unit, target.unit, now.phase, options,
                                           lists[target.side])  # fmt: skip
        except Exception:
            return None

    pairs = [(a, t) for a in standing for t in standing
             if a.side != t.side and offered(a, t) is not None]  # fmt: skip
    rallies = engine.rally_phase(options) == now.phase
    kind = rng.choices(["combat", "rally", "force_morale", "remove", "next_phase"],
                       [8 if pairs else 1, 6 if rallies else 1, 1, 0.5, 3])[0]  # fmt: skip
    where = {"turn": now.turn, "phase": now.phase}
    seed = secrets.token_hex(8) if rng.random() < 0.9 else ""
    if kind == "combat":
        if pairs and rng.random() < 0.9:
            attacker, target = rng.choice(pairs)
        else:
            attacker = rng.choice(units)
            target = rng.choice([c for c in units if c.side != attacker.side] + [attacker])
        ticked = [m.key for m in offered(attacker, target) or () if not m.automatic
                  and rng.random() < 0.3]  # fmt: skip
        die = "" if seed or rng.random() < 0.5 else str(rng.randint(0, 7))
        asked = [name for name, _ in engine.numbers_asked]
        numbers = " ".join(f"{name}={rng.randint(0, 24)}" for name in asked
                           if rng.random() < 0.8)  # fmt: skip
        if rng.random() < 0.05:  # now and then a number the game counts itself
            numbers = f"target_hits={rng.randint(0, 24)}"
        return "combat", {"attacker": attacker.key, "target": target.key, "modifiers": ticked,
                          "die": die, "numbers": numbers, "seed": seed if not die else "",
                          **where}  # fmt: skip
    if kind == "rally":
        facts = [k for k, _ in engine.rally_facts(options) if rng.random() < 0.3]
        die = "" if seed else str(rng.randint(0, 10))
        return "rally", {"unit": rng.choice(standing).key, "facts": facts, "die": die,
                         "seed": seed if not die else "", **where}  # fmt: skip
    if kind == "force_morale":
        return "force_morale", {"side": rng.choice("ab"), "dice": "", "count": rng.randint(1, 2),
                                "seed": seed or "ab12", "bonus": rng.randint(0, 1), **where}  # fmt: skip
    if kind == "remove":
        return "remove", {"unit": rng.choice(units).key, "why": "Fled", **where}
    return "next_phase", where


class _Where:
    """Where the phone stands: its turn, phase and which units it has seen removed."""

    def __init__(self, at):
        self.turn, self.phase, self.at = at.turn, at.phase, at

    def removed(self, key):
        return self.at.of(key).removed


def _server_line(action):
    from armybuilder.games.presenters import log_lines

    return log_lines(action.game, [action])[0]


def compare_games(user, ruleset, work, games, batches, seed=""):
    """``games`` random games of ``ruleset``, ``batches`` batches each: what ``work``
    answers on the phone against what the server records. Answers the counts compared."""
    rng = random.Random(f"table-{ruleset}{seed}")
    compared = {"worked": 0, "refused": 0}
    for _game_number in range(games):
        game = _game(user, ruleset)
        for _batch in range(batches):
            kept, state = _kept(game)
            # a batch made while offline: each action from where the phone then stood
            records, now = [], _Where(table.Table.from_json(state))
            for _ in range(rng.randint(1, 4)):
                op, value = _choice(rng, game, now)
                records.append({"key": secrets.token_hex(16), "op": op, "value": value})
                worked = work(kept, state, records)
                now = _Where(table.Table.from_json(worked["table"]))
            phone = json.loads(json.dumps(work(kept, state, records)))["results"]
            sent = operations.parse_operations({"operations": [
                {**r, "base_version": game.version} for r in records]})  # fmt: skip
            outcomes = operations.apply_operations(game, sent)
            waiting = False
            for record, mine, outcome in zip(records, phone, outcomes, strict=True):
                v = record["value"]
                if record["op"] != "next_phase" and not (
                    v.get("seed") or v.get("die", v.get("dice"))
                ):
                    waiting = waiting or mine["status"] == "waits"
                if waiting:  # rolled from a new seed when sent: the phone cannot know it
                    assert mine["status"] == "waits", (record, mine)
                    continue
                if outcome.status == "applied":
                    action = GameAction.objects.get(game=game, number=outcome.number)
                    assert mine["status"] == "worked", (record, mine, outcome)
                    assert mine["payload"] == action.payload
                    assert mine["digest"] == _server_line(action).digest
                    compared["worked"] += 1
                    compared[record["op"]] = compared.get(record["op"], 0) + 1
                else:
                    assert mine["status"] == "refused", (record, mine, outcome)
                    if not outcome.message.startswith("Not applied:"):
                        assert mine["message"] == outcome.message
                    compared["refused"] += 1
                compared["actions"] = compared.get("actions", 0) + 1
            assert work(*_kept(game), [])["table"] == _kept(game)[1]
    return compared


@pytest.mark.parametrize("ruleset", sorted(ARMIES))
def test_the_phone_works_out_what_the_server_records(user, ruleset):
    compared = compare_games(user, ruleset, page_game.work, games=5, batches=10)
    # every kind of action was compared worked out, not only refused
    assert compared["worked"] >= 60 and compared.get("combat", 0) >= 5, compared
