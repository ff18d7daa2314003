"""Into the Dark's Dice for initiative worked out on the phone (``rules.page.game``) as the
server records it: the roll in the turn's second phase, then the winner's keep or pass,
the turn going on only once it is made, and next turn the last winner's -1."""

from __future__ import annotations

import json

from rules.document import parse_document
from rules.page.game import work
from rules.table import table_of

SECTION = "Sequence of Play, 2. Dice for initiative"
# where the game stands when the roll is due: Turn 1's second phase, after the rallies
ROLL_DUE = {"turn": 1, "phase": "initiative", "units": {}, "routed": {}, "holder": "a"}


def _game():
    sides = {}
    for key, name in (("a", "Saxons"), ("b", "Normans")):
        army = parse_document({"format": "muster.army/1", "name": name,
                               "ruleset": "into-the-dark", "units": [{"name": "Spears"}]})  # fmt: skip
        found = [
            (f"{key}:{i}", u["name"], u) for i, u in zip(army.unit_ids, army.units, strict=True)
        ]
        sides[key] = (name, army.list_data, found)
    return json.loads(json.dumps(table_of("into-the-dark", army.options, sides)))


def _op(n, op, turn=1, **value):
    return {
        "key": f"key-{n:04d}",
        "op": op,
        "value": {"turn": turn, "phase": "initiative", **value},
    }


def test_a_typed_roll_then_the_winners_pass_hand_the_first_move_over():
    answer = work(_game(), ROLL_DUE, [_op(1, "initiative", dice="6 2", seed=""),
                                      _op(2, "keep_or_pass", choice="pass")])  # fmt: skip
    rolled, passed = answer["results"]
    assert rolled["status"] == passed["status"] == "worked"
    assert rolled["line"]["text"] == (
        f"Turn 1: Saxons 6, Normans 2: Saxons win the Initiative roll: they keep it or pass it "
        f"({SECTION})"
    )
    assert (
        passed["line"]["text"]
        == f"Turn 1: Saxons pass the Initiative: Normans move first ({SECTION})"
    )
    table = answer["table"]
    assert (table["holder"], table["won"], table["streak"], table["choosing"]) == ("b", "a", 1, "")


def test_the_turn_goes_on_only_once_the_winner_has_chosen():
    answer = work(_game(), ROLL_DUE, [_op(1, "initiative", dice="1 4", seed=""),
                                      _op(2, "next_phase")])  # fmt: skip
    moved = answer["results"][1]
    assert (
        moved["status"] == "refused"
        and f"keep the Initiative or pass it ({SECTION})" in moved["message"]
    )


def test_next_turn_last_turns_winner_has_minus_1_and_a_tie_typed_is_refused():
    won = {**ROLL_DUE, "turn": 2, "rolled": 1, "won": "a", "streak": 1}
    answer = work(_game(), won, [_op(1, "initiative", turn=2, dice="4 3", seed=""),
                                 _op(2, "initiative", turn=2, dice="5 3", seed="")])  # fmt: skip
    tied, rolled = answer["results"]
    assert tied["status"] == "refused" and "A tie, 3 each" in tied["message"]
    assert rolled["payload"]["minus"] == {"a": 1, "b": 0} and rolled["payload"]["streak"] == 2
    assert (
        "Saxons 5-1=4, Normans 3: Saxons win the Initiative roll (2 turns in a row)"
        in (rolled["line"]["text"])
    )


def test_the_roll_is_refused_in_the_rally_phase_citing_the_section():
    start = {**ROLL_DUE, "phase": "rally"}
    op = {
        "key": "key-0001",
        "op": "initiative",
        "value": {"dice": "1 6", "turn": 1, "phase": "rally"},
    }
    [result] = work(_game(), start, [op])["results"]
    assert result["status"] == "refused" and f"({SECTION})" in result["message"]
