"""The game companion's engine on the phone (``rules.page.game``): the phone's own actions,
not yet seen saved, worked out in order from the game's table and where it stood, with
the dice its seeds roll, the steps and their sections, and the units' new state in words.
(That it gives exactly what the server records is tests/web/games/test_offers.py.)"""

from __future__ import annotations

import json
import random

from rules.document import parse_document
from rules.page import bridge
from rules.page.game import work
from rules.registry import get_ruleset
from rules.table import table_of

SEED = "9f3c0a2b4d5e6f70"


def _side(key, name, units):
    army = parse_document({"format": "muster.army/1", "name": name, "ruleset": "feudal-2017",
                           "units": units})  # fmt: skip
    found = [(f"{key}:{i}", u["name"], u) for i, u in zip(army.unit_ids, army.units, strict=True)]
    return army.options, (name, army.list_data, found)


def _game():
    options, ours = _side("a", "Normans", [{"id": "u1", "name": "Bowmen", "type": "bowmen"},
                                            {"id": "u2", "name": "Serjeants", "type": "serjeants"}])  # fmt: skip
    _, theirs = _side("b", "Saxons", [{"id": "u1", "name": "Knights", "type": "knights"},
                                      {"id": "u2", "name": "Freemen", "type": "freemen"}])  # fmt: skip
    # through JSON, as the page keeps it
    return json.loads(json.dumps(table_of("feudal-2017", options, {"a": ours, "b": theirs})))


START = {"turn": 1, "phase": "shoot", "units": {}, "routed": {}}


def _op(n, op, **value):
    return {"key": f"key-{n:04d}", "op": op, "value": {"turn": 1, "phase": "shoot", **value}}


def _shot(n, die="", seed="", target="b:u1", **where):
    return _op(n, "combat", attacker="a:u1", target=target, modifiers=[], die=die,
               numbers="", seed=seed, **where)  # fmt: skip


def test_a_typed_die_is_worked_out_with_each_step_citing_its_section():
    answer = work(_game(), START, [_shot(1, die="4")])
    [result] = answer["results"]
    assert result["status"] == "worked"
    # 1.2: bowmen shooting inflict the die as hits
    assert result["payload"]["result"]["hits"] == 4
    assert (
        result["line"]["text"]
        == "Turn 1, Phase 1: Shoot: Bowmen against Knights: 4 hits (4 in all)"
    )
    assert result["line"]["dice"] == "4 (typed)"
    assert result["line"]["steps"] and all(s["section"] for s in result["line"]["steps"])
    assert answer["units"] == {"b:u1": "4 hits"}


def test_a_seed_rolls_the_dice_python_random_rolls_from_it():
    [result] = work(_game(), START, [_shot(1, seed=SEED)])["results"]
    die = random.Random(SEED).choice((1, 2, 3, 4, 5, 6))
    assert result["payload"]["dice"] == [die] and result["payload"]["seed"] == SEED
    assert result["payload"]["result"]["hits"] == die
    assert result["line"]["dice"] == f"{die} (rolled from seed {SEED})"


def test_the_phones_actions_follow_one_another_hits_adding_up():
    answer = work(_game(), START, [_shot(1, die="4"), _shot(2, die="3")])
    second = answer["results"][1]["payload"]["result"]
    assert (second["hits"], second["total"]) == (3, 7)
    assert answer["table"]["units"]["b:u1"]["damage"] == {"hits": 7}


def test_a_unit_the_phone_removed_is_refused_in_the_servers_words():
    answer = work(_game(), START, [_op(1, "remove", unit="b:u1", why="Fled"), _shot(2, die="4")])
    assert [r["status"] for r in answer["results"]] == ["worked", "refused"]
    assert answer["results"][1]["message"] == "Knights was removed: Fled."
    assert answer["units"] == {"b:u1": "Removed: Fled"}


def test_a_rally_after_the_phones_next_phases_is_worked_out_in_the_rally_phase():
    steps = [
        _op(1, "next_phase"),
        _op(2, "next_phase", phase="move"),
        _op(3, "next_phase", phase="melee"),
        _op(4, "rally", unit="a:u1", facts=[], die="", seed=SEED, phase="rally"),
    ]
    answer = work(_game(), START, steps)
    assert [r["status"] for r in answer["results"]] == ["worked"] * 4
    assert answer["table"]["phase"] == "rally"
    assert answer["results"][3]["line"]["text"].startswith("Turn 1, Phase 4: Rally: Bowmen rallies")


def test_a_rally_out_of_its_phase_is_refused_naming_the_phase():
    [result] = work(_game(), START, [_op(1, "rally", unit="a:u1", facts=[], die="", seed=SEED)])[
        "results"
    ]
    assert result["status"] == "refused"
    assert result["message"].startswith("Units rally in Phase 4: Rally")


def test_force_morale_is_rolled_against_the_units_lost():
    answer = work(_game(), START, [
        _op(1, "remove", unit="a:u2", why="Fled"),
        _op(2, "force_morale", side="a", dice="", count=1, seed=SEED, bonus=0),
    ])  # fmt: skip
    morale = answer["results"][1]
    assert morale["status"] == "worked"
    assert morale["payload"]["lost"] == 1 and morale["payload"]["units"] == 2
    assert morale["payload"]["verdict"]["outcome"] in ("fights on", "routs")
    assert "force morale of Normans (1 of 2 units lost)" in morale["line"]["text"]


def test_an_undo_of_the_phones_own_action_takes_it_back():
    answer = work(_game(), START, [_shot(1, die="4"), {"key": "key-0002", "op": "undo",
                                                       "value": {"of": "key-0001"}}])  # fmt: skip
    assert [r["status"] for r in answer["results"]] == ["taken back", "taken back"]
    assert answer["units"] == {}


def test_after_an_undo_of_a_saved_action_the_rest_waits_for_the_server():
    undo = {"key": "key-0001", "op": "undo", "value": {"number": 3}}
    answer = work(_game(), START, [undo, _shot(2, die="4")])
    assert [r["status"] for r in answer["results"]] == ["waits", "waits"]


def test_a_combat_with_neither_die_nor_seed_waits_for_the_servers_roll():
    answer = work(_game(), START, [_shot(1), _shot(2, die="4")])
    assert [r["status"] for r in answer["results"]] == ["waits", "waits"]


def test_an_action_made_in_another_phase_is_refused():
    [result] = work(_game(), START, [_shot(1, die="4", phase="melee")])["results"]
    assert result["status"] == "refused"
    assert "Phase 3: Mêlée" in result["message"] and "Phase 1: Shoot" in result["message"]


def test_a_hit_unit_remembered_by_the_page_is_read_from_where_the_game_stood():
    stood = {**START, "units": {"b:u1": {"damage": {"hits": 5}, "removed": False,
                                         "removal": "", "pending": None}}}  # fmt: skip
    answer = work(_game(), stood, [_shot(1, die="2")])
    assert answer["results"][0]["payload"]["result"]["total"] == 7
    assert answer["units"] == {"b:u1": "7 hits"}


def test_the_worker_reaches_it_through_the_bridge_as_json():
    arguments = json.dumps({"game": _game(), "state": START, "operations": [_shot(1, die="4")]})
    answer = json.loads(bridge.call("rules.page.game:work", arguments))
    assert answer["ok"]["results"][0]["payload"]["result"]["hits"] == 4
    assert get_ruleset("feudal-2017").combat() is not None
