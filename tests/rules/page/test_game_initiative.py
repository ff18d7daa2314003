"""The Initiative roll worked out on the phone (``rules.page.game``) as the server records
it: due at the start of the source's Turn 2 (the game's Turn 3), the dice typed or rolled
from the phone's seed, and the side that wins it holding the Initiative in the table."""

from __future__ import annotations

from rules.page.game import work
from tests.rules.page.test_game import _game

# where the game stands when the roll is due: the start of the source's Turn 2
ROLL_DUE = {"turn": 3, "phase": "shoot", "units": {}, "routed": {}, "holder": "a"}


def _roll(n, dice="", seed="", turn=3):
    return {"key": f"key-{n:04d}", "op": "initiative",
            "value": {"dice": dice, "seed": seed, "turn": turn, "phase": "shoot"}}  # fmt: skip


def test_a_typed_roll_off_hands_the_initiative_over_in_the_logs_words():
    answer = work(_game(), ROLL_DUE, [_roll(1, dice="2 5")])
    [result] = answer["results"]
    assert result["status"] == "worked"
    assert result["line"]["text"] == (
        "Turn 3: Normans roll 2+2=4, Saxons 5: Saxons take the Initiative (Initiative)"
    )
    assert answer["table"]["holder"] == "b" and answer["table"]["rolled"] == 3


def test_a_seeded_roll_is_worked_out_and_a_second_is_refused():
    answer = work(_game(), ROLL_DUE, [_roll(1, seed="0a1b2c"), _roll(2, dice="1 6")])
    first, second = answer["results"]
    assert first["status"] == "worked" and first["payload"]["seed"] == "0a1b2c"
    assert second["status"] == "refused" and "rolled already" in second["message"]


def test_the_roll_is_refused_on_turn_1_citing_the_section():
    start = {**ROLL_DUE, "turn": 1}
    [result] = work(_game(), start, [_roll(1, dice="1 6", turn=1)])["results"]
    assert result["status"] == "refused" and "(Initiative)" in result["message"]
