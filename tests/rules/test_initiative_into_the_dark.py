"""Into the Dark's Dice for initiative (Sequence of Play, 2.): both sides roll a d6 in the
turn's second phase, every turn; last turn's winner has -1 for each turn in a row it won
(read from the replayed log); a tie is rolled again (Ruling C5); the winner then keeps the
Initiative or passes it, and the side holding it moves first (3. Movement a.)."""

from __future__ import annotations

import pytest

import rules
from rules import initiative
from rules.table import INITIATIVE, KEEP_OR_PASS, NEXT_PHASE, Refused, Table, next_phase
from rules.table_words import line

NAMES = {"a": "Saxons", "b": "Normans"}
SECTION = "Sequence of Play, 2. Dice for initiative"
COMBAT = rules.get_ruleset("into-the-dark").combat()
PHASES = COMBAT.phases({})


def table(turn: int = 1, phase: str = "initiative", holder: str = "a") -> Table:
    return Table(turn, phase, {}, holder=holder)


def roll(at: Table, dice=None, seed: str = "") -> dict:
    return initiative.roll_off(COMBAT, {}, PHASES, at, NAMES, dice, seed=seed)


def choose(at: Table, choice: str, seat: str | None = None) -> dict:
    return initiative.keep_or_pass(COMBAT, {}, at, NAMES, choice, seat)


def play(at: Table, dice, choice: str = "keep") -> dict:
    """One turn's roll and the winner's choice recorded, then on to the next turn's roll."""
    rolled = roll(at, dice)
    at.record(INITIATIVE, rolled, PHASES)
    at.record(KEEP_OR_PASS, choose(at, choice), PHASES)
    while at.phase != "initiative" or at.rolled == at.turn:
        at.record(NEXT_PHASE, next_phase(PHASES, at), PHASES)
    return rolled


def test_the_rule_is_a_d6_each_with_no_bonus_due_in_its_own_phase_from_turn_1():
    rule = COMBAT.initiative({})
    assert (rule.bonus, rule.die.faces, rule.section) == (0, (1, 2, 3, 4, 5, 6), SECTION)
    assert (rule.phase, rule.first, rule.choose, rule.streak) == ("initiative", 1, True, True)
    assert "Ruling C5" in rule.ties
    assert any(r.code == "C5" and "tie" in r.text for r in COMBAT.rulings)


def test_the_roll_is_due_in_turn_1_too_after_the_rallies():
    assert initiative.is_due(COMBAT, {}, PHASES, table(1))
    at = table(1, phase="rally")
    at.acted = 1  # a rally in phase 1 does not put the roll off: it is phase 2's
    assert not initiative.is_due(COMBAT, {}, PHASES, at)
    at.record(NEXT_PHASE, next_phase(PHASES, at), PHASES)
    assert initiative.is_due(COMBAT, {}, PHASES, at)


@pytest.mark.parametrize("phase", ["rally", "movement", "melee", "morale"])
def test_the_roll_is_refused_outside_its_phase_citing_the_section(phase):
    with pytest.raises(Refused, match=rf"No Initiative roll is due now: .*\({SECTION}\)"):
        roll(table(2, phase), (4, 3))


def test_a_second_roll_in_the_turn_is_refused():
    at = table(1)
    at.record(INITIATIVE, roll(at, (4, 3)), PHASES)
    with pytest.raises(Refused, match=rf"rolled already this turn: .*\({SECTION}\)"):
        roll(at, (4, 3))


def test_the_higher_roll_wins_and_its_winner_chooses_before_the_turn_goes_on():
    at = table(1)
    rolled = roll(at, (2, 5))
    assert (rolled["winner"], rolled["streak"], rolled["minus"]) == ("b", 1, {"a": 0, "b": 0})
    assert "holder" not in rolled  # nothing changes hands until the winner chooses
    at.record(INITIATIVE, rolled, PHASES)
    assert (at.holder, at.choosing) == ("a", "b")
    with pytest.raises(Refused, match=rf"keep the Initiative or pass it \({SECTION}\)"):
        next_phase(PHASES, at)


def test_the_winner_keeps_and_moves_first():
    at = table(1)
    at.record(INITIATIVE, roll(at, (2, 5)), PHASES)
    kept = choose(at, "keep")
    at.record(KEEP_OR_PASS, kept, PHASES)
    assert (at.holder, at.choosing) == ("b", "")
    assert line(KEEP_OR_PASS, kept, {}).text == (
        f"Turn 1: Normans keep the Initiative and move first ({SECTION})"
    )
    next_phase(PHASES, at)  # chosen: the turn goes on


def test_the_winner_passes_and_the_loser_moves_first():
    at = table(1, holder="b")
    at.record(INITIATIVE, roll(at, (5, 2)), PHASES)  # the holder's die first: Normans win
    passed = choose(at, "pass")
    at.record(KEEP_OR_PASS, passed, PHASES)
    assert at.holder == "a"
    assert line(KEEP_OR_PASS, passed, {}).text == (
        f"Turn 1: Normans pass the Initiative: Saxons move first ({SECTION})"
    )


def test_only_the_winners_seat_chooses_and_only_once():
    at = table(1)
    at.record(INITIATIVE, roll(at, (6, 1)), PHASES)
    with pytest.raises(Refused, match=r"Saxons won the roll: .*keep or pass the initiative"):
        choose(at, "pass", seat="b")
    with pytest.raises(Refused, match="choose one of keep, pass"):
        choose(at, "swap", seat="a")
    at.record(KEEP_OR_PASS, choose(at, "pass", seat="a"), PHASES)
    with pytest.raises(Refused, match=rf"No keep or pass is due.*\({SECTION}\)"):
        choose(at, "keep")


def test_last_turns_winner_has_minus_1_a_turn_in_a_row_and_a_lost_roll_resets_it():
    at = table(1)
    assert play(at, (5, 2))["minus"] == {"a": 0, "b": 0}  # Saxons win Turn 1
    second = play(at, (5, 2))  # won 1 turn in a row: -1
    assert (second["minus"], second["winner"], second["streak"]) == ({"a": 1, "b": 0}, "a", 2)
    third = play(at, (5, 2))  # "if he won the last two rolls in a row, he would receive a -2"
    assert (third["minus"], third["winner"], third["streak"]) == ({"a": 2, "b": 0}, "a", 3)
    fourth = play(at, (4, 2))  # -3: 4-3=1 against 2, the Normans win and keep it
    assert (fourth["minus"], fourth["winner"], fourth["streak"]) == ({"a": 3, "b": 0}, "b", 1)
    fifth = play(at, (2, 5))  # the streak broken: only the Normans, last turn's winner, -1
    assert (fifth["minus"], fifth["winner"]) == ({"a": 0, "b": 1}, "a")


def test_a_turn_without_a_roll_leaves_no_winner_of_last_turns_roll():
    at = table(1)
    play(at, (5, 2))
    while at.turn == 2:  # Turn 2 played without its roll
        at.record(NEXT_PHASE, next_phase(PHASES, at), PHASES)
    while at.phase != "initiative":
        at.record(NEXT_PHASE, next_phase(PHASES, at), PHASES)
    assert roll(at, (5, 2))["minus"] == {"a": 0, "b": 0}


def test_the_streak_counts_whose_roll_it_was_not_who_holds_the_initiative():
    at = table(1)
    play(at, (5, 2), choice="pass")  # Saxons win, pass: Normans hold it, Saxons still won
    assert (at.holder, at.won, at.streak) == ("b", "a", 1)
    # the holder's (Normans') die comes first now; the Saxons have -1
    second = play(at, (2, 4))
    assert (second["minus"], second["winner"], second["streak"]) == ({"b": 0, "a": 1}, "a", 2)
    third = play(at, (6, 5))  # Saxons kept it, their die first: 6-2=4 against 5, Normans win
    assert (third["minus"], third["winner"], third["streak"]) == ({"a": 2, "b": 0}, "b", 1)
    fourth = play(at, (4, 1))  # the Normans kept it: their die first, and their -1
    assert (fourth["minus"], fourth["winner"], fourth["streak"]) == ({"b": 1, "a": 0}, "b", 2)


def test_a_typed_tie_is_refused_to_be_rolled_again():
    with pytest.raises(Refused, match=r"A tie, 3 each: .*\(a tie wins nothing.*Ruling C5\)"):
        roll(table(1), (3, 3))


def test_a_tie_after_the_minus_is_a_tie():
    at = table(1)
    play(at, (5, 2))
    with pytest.raises(Refused, match="A tie, 3 each"):
        roll(at, (4, 3))  # Saxons 4-1=3, Normans 3


def test_a_seeded_tie_rolls_the_next_pair_from_the_same_seed():
    seeds = (f"{n:x}" for n in range(1, 500))
    tied = next(s for s in seeds if len(roll(table(1), seed=s)["dice"]) > 2)
    rolled = roll(table(1), seed=tied)
    dice = rolled["dice"]
    assert tuple(dice) == rules.table.roll(tied, range(1, 7), len(dice))
    assert all(dice[i] == dice[i + 1] for i in range(0, len(dice) - 2, 2))
    assert dice[-2] != dice[-1] and rolled["winner"] == ("a" if dice[-2] > dice[-1] else "b")
    said = line(INITIATIVE, rolled, {}).text
    assert f"Saxons {dice[0]}, Normans {dice[1]}: a tie, rolled again; " in said
    assert said.endswith(f"({SECTION}; a tie wins nothing: both sides roll again (Ruling C5))")
    assert roll(table(1), seed=tied) == rolled  # anyone can check it from the log


def test_the_log_words_who_rolled_what_the_minus_and_who_won():
    at = table(1)
    play(at, (5, 2), choice="pass")
    rolled = roll(at, (3, 6))  # Normans hold it (their die first); the Saxons have -1
    assert line(INITIATIVE, rolled, {}).text == (
        f"Turn 2: Normans 3, Saxons 6-1=5: Saxons win the Initiative roll (2 turns in a row): "
        f"they keep it or pass it ({SECTION})"
    )
    assert line(INITIATIVE, rolled, {}).dice == "3, 6 (typed)"


def test_the_table_keeps_the_streak_and_the_choice_through_json():
    at = table(1)
    at.record(INITIATIVE, roll(at, (5, 2)), PHASES)
    again = Table.from_json(at.to_json())
    assert (again.won, again.streak, again.choosing, again.choice_rule) == ("a", 1, "a", SECTION)
