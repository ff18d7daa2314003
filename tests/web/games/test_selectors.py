"""Where a game stands, replayed from its log, and the summary: units and points lost per
side, turns played."""

from __future__ import annotations

import pytest
from django.http import Http404

from armybuilder.armies.services import create_army
from armybuilder.games import selectors, services
from armybuilder.games.models import GameAction
from tests.support import army
from tests.web.games.conftest import to_phase, unit

pytestmark = pytest.mark.django_db


def test_the_summary_counts_units_lost_and_turns(game):
    to_phase(game, "melee")
    services.apply_combat(game, version=game.version, attacker_id=unit(game, "a", "Knights"),
                          target_id=unit(game, "b", "Knights"), modifiers=["flank"], die=6)  # fmt: skip
    for _ in range(5):
        services.next_phase(game, version=game.version)
    summary = selectors.summary(game)
    assert summary.turns == 2  # mêlée, rally; turn 2: shoot, move, mêlée, rally
    normans, saxons = summary.sides
    assert (normans.name, normans.units, normans.lost) == ("Normans", 2, ())
    assert (saxons.name, saxons.lost) == ("Saxons", ("Knights",))
    assert saxons.points_lost is None  # Feudal 2017 has no points


def test_turns_played_are_the_finished_turns_and_the_one_under_way(archers_game):
    game = archers_game
    assert selectors.summary(game).turns == 0  # nothing played yet
    for _ in range(3 * 4):  # shoot, move, melee, rally: three whole turns
        services.next_phase(game, version=game.version)
    assert (game.turn, game.phase) == (4, "shoot")
    assert selectors.summary(game).turns == 3  # turn 4 has only just begun
    services.apply_combat(game, version=game.version, attacker_id=unit(game, "a", "Bowmen"),
                          target_id=unit(game, "b", "Knights"), modifiers=[], die=4)  # fmt: skip
    assert selectors.summary(game).turns == 4  # something was done in it


def test_points_lost_are_the_engines_cost_of_each_unit_removed(user):
    units = [{"name": "Knights", "quality": "fanatic", "mounted": True}, {"name": "Spears"}]
    picts = create_army(army("into-the-dark", units, name="Picts"), owner=user)
    game = services.start_game(user, army_a=picts, army_b=picts)
    cards = {c.name: c for c in selectors.side_view(game, key="b").cards}
    assert cards["Knights"].points == 170  # the engine's check of the side's document
    services.remove_unit(game, version=game.version, unit_id=cards["Knights"].key, why="routed")
    first, second = selectors.summary(game).sides
    assert (first.points_lost, second.points_lost) == (0, 170)
    page_units = selectors.state_of(game)
    assert page_units.of(cards["Knights"].key).removal == "routed"


def test_the_state_replays_only_what_stands(game):
    services.next_phase(game, version=game.version)
    services.undo_last(game, version=game.version)
    state = selectors.state_of(game)
    assert (state.turn, state.phase, state.actions) == (1, "shoot", [])
    assert game.phase == "shoot" and game.version == 3


def test_a_unit_shot_down_fights_on_till_the_end_of_the_phase(user):
    bows = {"name": "Bowmen", "type": "bowmen"}
    first = create_army(army("feudal-2017", [bows], name="A"), owner=user)
    second = create_army(army("feudal-2017", [{"name": "Knights", "type": "knights"}],
                              name="B"), owner=user)  # fmt: skip
    game = services.start_game(user, army_a=first, army_b=second)
    bowmen, knights = unit(game, "a", "Bowmen"), unit(game, "b", "Knights")
    verdict = {}
    while verdict.get("outcome") != "removed":
        action = services.apply_combat(
            game,
            version=game.version,
            attacker_id=bowmen,
            target_id=knights,
            modifiers=["rear"],
            die=6,
        )
        verdict = action.payload["result"]["verdict"]
    assert verdict["when"] == "end of Phase 1"
    state = selectors.state_of(game).of(knights)
    assert not state.removed and state.pending == "" and state.lost
    assert "1.5" in state.removal
    services.next_phase(game, version=game.version)  # the end of Phase 1
    assert selectors.state_of(game).of(knights).removed
    services.undo_last(game, version=game.version)
    assert not selectors.state_of(game).of(knights).removed


def test_a_removal_in_a_later_phase_waits_for_that_phase(game):
    target = unit(game, "b", "Knights")
    verdict = {"outcome": "removed", "when": "Phase 4: Rally", "text": "removed", "section": "X"}
    combat = GameAction(number=1, kind=GameAction.COMBAT, payload={
        "target": target, "result": {"unit": "hits", "total": 15, "verdict": verdict}})  # fmt: skip
    steps = [combat] + [
        GameAction(
            number=n, kind=GameAction.NEXT_PHASE, payload={"to": {"turn": 1, "phase": phase}}
        )  # fmt: skip
        for n, phase in ((2, "move"), (3, "melee"), (4, "rally"))
    ]
    assert selectors.state_of(game, actions=steps[:3]).of(target).pending == "rally"
    assert selectors.state_of(game, actions=steps).of(target).removed


def test_a_game_is_found_by_either_link_and_told_which(game):
    view, play = (
        services.set_link(game, which="view", on=True),
        services.set_link(game, which="play", on=True),
    )
    assert selectors.game_by_link_or_404(view) == (game, False)
    assert selectors.game_by_link_or_404(play) == (game, True)
    services.set_link(game, which="view", on=False)
    for token in (view, "", "x" * 65, play[:-1]):
        with pytest.raises(Http404):
            selectors.game_by_link_or_404(token)


def test_units_of_one_name_are_numbered_in_cards_log_and_summary(user):
    fyrd = {"name": "Fyrd", "type": "serjeants"}
    saxons = create_army(army("feudal-2017", [fyrd, {"name": "Knights", "type": "knights"},
                                              fyrd, fyrd], name="Saxons"), owner=user)  # fmt: skip
    game = services.start_game(user, army_a=saxons, army_b=saxons)
    names = [c.name for c in selectors.side_view(game, key="b").cards]
    assert names == ["Fyrd 1", "Knights", "Fyrd 2", "Fyrd 3"]
    second = selectors.side_view(game, key="b").cards[2]
    to_phase(game, "melee")
    services.apply_combat(
        game,
        version=game.version,
        attacker_id=unit(game, "a", "Knights"),
        target_id=second.key,
        modifiers=[],
        die=6,
    )
    action = game.actions.get(kind=GameAction.COMBAT)
    assert action.payload["target_name"] == "Fyrd 2"
    services.remove_unit(game, version=game.version, unit_id=second.key, why="routed")
    assert selectors.summary(game).sides[1].lost == ("Fyrd 2",)
