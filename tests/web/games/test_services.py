"""Combats applied with the engine's hits, removals at the source's threshold, Undo, units
named by id, and the refusals a player reads."""

from __future__ import annotations

import pytest

from armybuilder.armies.services import create_army
from armybuilder.games import selectors, services
from armybuilder.games.models import GameAction
from armybuilder.games.services import Refused
from tests.support import army
from tests.web.games.conftest import KNIGHTS, to_phase, unit

pytestmark = pytest.mark.django_db


def test_a_game_starts_with_frozen_copies_at_the_first_phase(game, feudal_armies):
    mine, theirs = feudal_armies
    assert game.name == "Normans v Saxons"
    assert (game.turn, game.phase, game.version) == (1, "shoot", 1)
    assert game.side_a["document"] == mine.document
    assert game.side_a["list_revisions"] == mine.list_pins
    mine.document = {**mine.document, "units": []}
    mine.save()
    game.refresh_from_db()
    assert len(selectors.side_view(game, key="a").cards) == 2  # the army's later edits stay out


def test_a_combat_applied_adds_the_engines_hits_to_the_target(game):
    to_phase(game, "melee")
    knights, target = unit(game, "a", "Knights"), unit(game, "b", "Knights")
    worked = services.work_out(game, attacker_id=knights, target_id=target, modifiers=[], die=5)
    assert worked.result.hits == 7  # D6 5 + 2 knights (3.2a)
    assert any(s.section == "3.2 Resolving Mêlée" for s in worked.result.steps)
    assert selectors.state_of(game).of(target).damage == {}  # worked out, nothing saved
    action = services.apply_combat(
        game, version=game.version, attacker_id=knights, target_id=target, modifiers=[], die=5
    )
    assert action.payload["result"]["hits"] == 7
    assert selectors.state_of(game).of(target).damage == {"hits": 7}
    services.apply_combat(
        game, version=game.version, attacker_id=knights, target_id=target, modifiers=[], die=1
    )
    assert selectors.state_of(game).of(target).damage == {"hits": 10}


def test_the_automatic_modifier_applies_without_being_ticked(game):
    to_phase(game, "melee")
    worked = services.work_out(game, attacker_id=unit(game, "a", "Knights"), target_id=unit(game, "b", "Serjeants"),
                               modifiers=[], die=6)  # fmt: skip
    assert worked.result.hits == 4  # 6 + 2 = 8, armoured serjeants halve


def test_a_unit_is_removed_at_the_sources_threshold(game):
    to_phase(game, "melee")
    knights, target = unit(game, "a", "Knights"), unit(game, "b", "Knights")
    services.apply_combat(
        game, version=game.version, attacker_id=knights, target_id=target, modifiers=[], die=6
    )  # 8 hits
    assert not selectors.state_of(game).of(target).removed
    services.apply_combat(
        game, version=game.version, attacker_id=knights, target_id=target, modifiers=[], die=5
    )  # 15: removed at 15
    state = selectors.state_of(game).of(target)
    assert state.removed and state.damage == {"hits": 15}
    assert "3.4" in state.removal
    with pytest.raises(Refused, match="Knights was removed"):
        services.work_out(game, attacker_id=knights, target_id=target, modifiers=[], die=3)


def test_a_ticked_modifier_doubles_and_is_kept_in_the_log(game):
    to_phase(game, "melee")
    knights, target = unit(game, "a", "Knights"), unit(game, "b", "Knights")
    action = services.apply_combat(
        game,
        version=game.version,
        attacker_id=knights,
        target_id=target,
        modifiers=["flank"],
        die=6,
    )
    assert action.payload["modifiers"] == ["flank"]
    assert action.payload["result"]["hits"] == 16
    assert selectors.state_of(game).of(target).removed


def test_undo_restores_exactly_what_was_before(game):
    to_phase(game, "melee")
    knights, target = unit(game, "a", "Knights"), unit(game, "b", "Knights")
    services.apply_combat(
        game, version=game.version, attacker_id=knights, target_id=target, modifiers=[], die=4
    )
    before = selectors.state_of(game)
    services.apply_combat(
        game, version=game.version, attacker_id=knights, target_id=target, modifiers=["rear"], die=6
    )
    assert selectors.state_of(game).of(target).removed
    services.undo_last(game, version=game.version)
    after = selectors.state_of(game)
    assert after.units == before.units
    assert (after.turn, after.phase) == (1, "melee")
    services.undo_last(game, version=game.version)  # the first combat
    services.undo_last(game, version=game.version)  # the move to mêlée
    assert game.phase == "move"
    kinds = list(game.actions.values_list("kind", "undone"))
    assert kinds.count(("undo", False)) == 3


def test_undo_with_nothing_to_undo_is_refused(game):
    with pytest.raises(Refused, match="Nothing to undo"):
        services.undo_last(game, version=game.version)


def test_the_turn_follows_the_last_phase(game):
    for _ in range(4):
        services.next_phase(game, version=game.version)
    assert (game.turn, game.phase) == (2, "shoot")


def test_a_unit_is_named_by_its_id_wherever_the_army_put_it(user):
    bows = {"name": "Bowmen", "type": "bowmen"}
    first = create_army(army("feudal-2017", [KNIGHTS, bows], name="A"), owner=user)
    second = create_army(army("feudal-2017", [bows, KNIGHTS], name="B"), owner=user)
    game = services.start_game(user, army_a=first, army_b=second)
    to_phase(game, "melee")
    target = unit(game, "b", "Knights")  # second in its army, not first
    action = services.apply_combat(
        game,
        version=game.version,
        attacker_id=unit(game, "a", "Knights"),
        target_id=target,
        modifiers=[],
        die=3,
    )
    assert action.payload["target"] == target and action.payload["target_name"] == "Knights"
    with pytest.raises(Refused, match="No unit of this game"):
        services.work_out(game, attacker_id="a:0", target_id=target, modifiers=[], die=3)


def test_one_army_on_both_sides_for_solo_play(user, feudal_armies):
    game = services.start_game(user, army_a=feudal_armies[0], army_b=feudal_armies[0])
    to_phase(game, "melee")
    a, b = unit(game, "a", "Knights"), unit(game, "b", "Knights")
    assert a != b
    services.apply_combat(
        game, version=game.version, attacker_id=a, target_id=b, modifiers=[], die=6
    )
    assert selectors.state_of(game).of(a).damage == {}


@pytest.mark.parametrize(
    ("phase", "attacker", "modifiers", "die", "message"),
    [
        (
            "shoot",
            "Knights",
            [],
            3,
            r"Knights do not shoot in Phase 1: Shoot.*\(1\.1 Shooting Basics\); mêlée is Phase 3: Mêlée",
        ),
        ("melee", "Knights", ["woods"], 3, "Woods not allowed for this attacker.*“Contacting"),
        (
            "melee",
            "Knights",
            ["flank", "rear"],
            3,
            "Only one facing modifier applies; got “Contacting the target.s flank” and",
        ),
        ("melee", "Knights", [], 9, "9 is not a face of the D6"),
    ],
)
def test_refusals_say_why_in_the_sources_words(game, phase, attacker, modifiers, die, message):
    to_phase(game, phase)
    with pytest.raises(Refused, match=message):
        services.work_out(game, attacker_id=unit(game, "a", attacker), target_id=unit(game, "b", "Knights"), modifiers=modifiers,
                          die=die)  # fmt: skip


def test_a_unit_does_not_attack_its_own_side(game):
    with pytest.raises(Refused, match="same side"):
        services.work_out(
            game,
            attacker_id=unit(game, "a", "Knights"),
            target_id=unit(game, "a", "Serjeants"),
            modifiers=[],
            die=3,
        )


def test_armies_of_two_rule_sets_do_not_meet(user, feudal_armies):
    other = create_army(army("into-the-dark", [{"name": "Spears"}], name="Picts"), owner=user)
    with pytest.raises(Refused, match="Both armies must be of one rule set"):
        services.start_game(user, army_a=feudal_armies[0], army_b=other)


def test_a_rolled_die_comes_from_its_seed(game):
    to_phase(game, "melee")
    knights, target = unit(game, "a", "Knights"), unit(game, "b", "Knights")
    worked = services.work_out(game, attacker_id=knights, target_id=target, modifiers=[])
    assert worked.seed and worked.dice == services.roll(worked.seed, range(1, 7), 1)
    again = services.apply_combat(
        game,
        version=game.version,
        attacker_id=knights,
        target_id=target,
        modifiers=[],
        seed=worked.seed,
    )
    assert again.payload["dice"] == list(worked.dice)
    assert again.payload["seed"] == worked.seed


def test_a_page_drawn_before_the_last_action_is_refused(game):
    old = game.version
    services.next_phase(game, version=old)
    with pytest.raises(Refused, match="moved on"):
        services.next_phase(game, version=old)
    assert game.actions.count() == 1


def test_a_unit_removed_by_the_player_stays_removed_until_undone(game):
    target = unit(game, "b", "Serjeants")
    action = services.remove_unit(game, version=game.version, unit_id=target, why="routed")
    assert action.kind == GameAction.REMOVE
    assert selectors.state_of(game).of(target).removed
    services.undo_last(game, version=game.version)
    assert not selectors.state_of(game).of(target).removed


def test_made_up_input_is_refused_without_echoing_it(game):
    to_phase(game, "melee")
    knights, target = unit(game, "a", "Knights"), unit(game, "b", "Knights")
    with pytest.raises(Refused, match="not a modifier of this rule set") as refused:
        services.work_out(
            game, attacker_id=knights, target_id=target, modifiers=["<b>flank\u202e"], die=3
        )
    assert "<b>" not in refused.value.message
    with pytest.raises(Refused, match="A seed is hex digits"):
        services.work_out(game, attacker_id=knights, target_id=target, modifiers=[], seed="not-hex")
    with pytest.raises(Refused, match="The reason contains"):
        services.remove_unit(game, version=game.version, unit_id=target, why="routed\u202e")
    assert not game.actions.filter(kind="remove").exists()


def test_a_link_made_anew_replaces_the_old_and_off_is_none(game):
    first = services.set_link(game, which="play", on=True)
    second = services.set_link(game, which="play", on=True)
    assert len(first) == len(second) == 32 and first != second
    game.refresh_from_db()
    assert (game.play_token, game.view_token) == (second, None)
    assert services.set_link(game, which="play", on=False) is None
    game.refresh_from_db()
    assert game.play_token is None
    with pytest.raises(Refused):
        services.set_link(game, which="owner", on=True)


def test_a_link_to_play_made_anew_or_switched_off_is_held_by_no_device(game):
    services.set_link(game, which="play", on=True)
    game.play_claim, game.play_claimed_at = "0" * 64, game.created
    game.save(update_fields=["play_claim", "play_claimed_at"])
    services.set_link(game, which="view", on=True)
    game.refresh_from_db()
    assert game.play_claim == "0" * 64  # the link to watch holds no seat
    services.set_link(game, which="play", on=True)
    game.refresh_from_db()
    assert (game.play_claim, game.play_claimed_at) == ("", None)
