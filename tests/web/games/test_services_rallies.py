"""Rallies at the table, per rule set that has them, each result worked by hand from the
source's own rule: recorded with the engine's steps, offered only in the rally phase, and
taken back by Undo."""

from __future__ import annotations

import pytest

from armybuilder.armies.services import create_army
from armybuilder.games import selectors, services
from armybuilder.games.models import GameAction
from armybuilder.games.services import Refused
from tests.support import army
from tests.web.games.conftest import to_phase, unit

pytestmark = pytest.mark.django_db


def hit(game, attacker: str, target: str, die: int) -> None:
    """One mêlée applied (the game in its mêlée phase)."""
    services.apply_combat(
        game, version=game.version, attacker_id=attacker, target_id=target, modifiers=[], die=die
    )


def feudal_hits(game, die: int) -> str:
    """Saxon knights with ``die`` + 2 hits (3.2a: knights are +2) and the game at Rally."""
    to_phase(game, "melee")
    target = unit(game, "b", "Knights")
    hit(game, unit(game, "a", "Knights"), target, die)
    to_phase(game, "rally")
    return target


# -- Feudal Patrols (4.1) ------------------------------------------------------------------------


def test_feudal_a_unit_that_did_nothing_rallies_two_hits(game):
    target = feudal_hits(game, 1)  # 3 hits
    action = services.rally(game, version=game.version, unit_id=target)
    assert action.kind == GameAction.RALLY
    result = action.payload["result"]
    assert (result["hits"], result["total"]) == (2, 1)  # 1 (4.1a) + 1 (4.1b)
    assert result["steps"][-1] == {"text": "Rallies 2: 1 hit", "section": "4.1 Rallying"}
    assert selectors.state_of(game).of(target).damage == {"hits": 1}


def test_feudal_an_attacked_marker_rallies_one_and_a_unit_that_moved_none(game):
    target = feudal_hits(game, 1)  # 3 hits
    services.rally(game, version=game.version, unit_id=target, facts=["attacked"])
    assert selectors.state_of(game).of(target).damage == {"hits": 2}
    action = services.rally(game, version=game.version, unit_id=target, facts=["moved"])
    assert action.payload["result"]["total"] == 2
    assert "moved this turn: no rally (4.1a)" in action.payload["result"]["steps"][0]["text"]


def test_feudal_a_priest_rallies_his_die_in_place_of_4_1b(game):
    target = feudal_hits(game, 5)  # 7 hits
    with pytest.raises(Refused, match="7 is not a face of the D6; allowed: 1, 2, 3, 4, 5, 6"):
        services.rally(game, version=game.version, unit_id=target, facts=["priest"], die=7)
    action = services.rally(game, version=game.version, unit_id=target, facts=["priest"], die=1)
    assert action.payload["result"]["total"] == 5  # 7 − (1 + 1), Ruling C8
    assert action.payload["die"] == 1 and action.payload["facts"] == ["priest"]


def test_feudal_five_hits_or_more_never_rally_below_five(game):
    target = feudal_hits(game, 3)  # 5 hits
    action = services.rally(game, version=game.version, unit_id=target)
    assert action.payload["result"]["total"] == 5
    assert "5 hits: never below 5 (4.1c)" in [s["text"] for s in action.payload["result"]["steps"]]


def test_feudal_rallies_only_in_phase_4_and_undo_takes_one_back(game):
    to_phase(game, "melee")
    target = unit(game, "b", "Knights")
    hit(game, unit(game, "a", "Knights"), target, 5)  # 7 hits
    with pytest.raises(Refused, match=r"Units rally in Phase 4: Rally \(4\) RALLIES\); the "
                                      r"game is in Phase 3: Mêlée\."):  # fmt: skip
        services.rally(game, version=game.version, unit_id=target)
    to_phase(game, "rally")
    services.rally(game, version=game.version, unit_id=target)
    assert selectors.state_of(game).of(target).damage == {"hits": 5}  # 7 - 2
    services.undo_last(game, version=game.version)
    assert selectors.state_of(game).of(target).damage == {"hits": 7}
    with pytest.raises(Refused, match="not something this rule set's rally asks"):
        services.rally(game, version=game.version, unit_id=target, facts=["routed"])


# -- Dark Ages: a banner or a priest rallies half a die, rounded up ----------------------------


@pytest.fixture
def dark_ages(user):
    units = [{"name": "Hird", "type": "infantry", "personality": "hero", "banner": True},
             {"name": "Raiders", "type": "infantry"}]  # fmt: skip
    host = create_army(army("dark-ages-d5", units, name="Host"), owner=user)
    return services.start_game(user, army_a=host, army_b=host)


def test_dark_ages_a_banner_rallies_half_the_die_in_routs_and_rallies(dark_ages):
    game = dark_ages
    to_phase(game, "melee")
    hird, raiders = unit(game, "a", "Hird"), unit(game, "b", "Raiders")
    hit(game, raiders, hird, 5)  # the d5 edition's average die: 2-5
    before = selectors.state_of(game).of(hird).damage["hits"]
    assert before >= 3
    with pytest.raises(Refused, match=r"Units rally in 4\) Routs and Rallies"):
        services.rally(game, version=game.version, unit_id=hird, facts=[], die=5)
    to_phase(game, "routs_rallies")
    services.rally(game, version=game.version, unit_id=hird, facts=[], die=5)
    assert selectors.state_of(game).of(hird).damage == {"hits": before - 3}  # ⌈5/2⌉
    action = services.rally(game, version=game.version, unit_id=hird, facts=["moved"], die=6)
    assert (
        action.payload["result"]["steps"][0]["text"] == "Banner: not when in melee, moved or shot"
    )
    with pytest.raises(Refused, match="not something this rule set's rally asks"):
        services.rally(game, version=game.version, unit_id=hird, facts=["attacked"], die=6)


# -- Into the Dark: a morale test, shaken always counting -------------------------------------


def test_into_the_dark_a_routed_unit_rallies_by_its_morale_test(user):
    units = [{"name": "Knights", "quality": "fanatic", "mounted": True}, {"name": "Spears"}]
    picts = create_army(army("into-the-dark", units, name="Picts"), owner=user)
    game = services.start_game(user, army_a=picts, army_b=picts)  # turn 1 starts at 1) Rallys
    knights = unit(game, "a", "Knights")
    passed = services.rally(
        game, version=game.version, unit_id=knights, facts=["routed"], die=4
    )  # 5 −1 shaken = 4
    assert passed.payload["result"]["steps"][-1]["text"] == (
        "Rally: stops routing, steady and still disordered"
    )
    back = services.rally(
        game, version=game.version, unit_id=knights, facts=["routed", "flanked"], die=4
    )  # 5 −1 −3 = 1
    assert back.payload["result"]["steps"][-1]["text"] == (  # 3 over: driven back
        "Rally: retreats 4 inches more, then rallies, shaken"
    )
    failed = services.rally(
        game, version=game.version, unit_id=knights, facts=["routed", "flanked"], die=6
    )  # 5 over
    assert failed.payload["result"]["steps"][-1]["text"] == "Rally: fails: another rout move"
    melee = services.rally(game, version=game.version, unit_id=knights, facts=["in_melee"], die=1)
    assert (
        melee.payload["result"]["steps"][-1]["text"] == "A unit in melee may not attempt to rally"
    )
    assert selectors.state_of(game).of(knights).damage == {"casualties": 0}


# -- Dewitt: a routing unit's morale test, counting itself seen routing --------------------------


def test_dewitt_a_routing_unit_rallies_on_its_morale_less_those_seen_routing(user):
    host = create_army(army("dewitt-medieval", [{"name": "A"}, {"name": "B"}], name="H"),
                       owner=user)  # fmt: skip
    game = services.start_game(
        user, army_a=host, army_b=host
    )  # 1) Player A may rally routing units
    a = unit(game, "a", "A")
    steps = services.rally(game, version=game.version, unit_id=a, facts=[], die=7).payload[
        "result"
    ]["steps"]  # 8 − 1
    assert steps[-1]["text"] == "Rallied: moves no closer to the enemy next move"
    steps = services.rally(
        game, version=game.version, unit_id=a, facts=["saw_rout_1"], die=7
    ).payload["result"]["steps"]
    assert steps[-1]["text"] == "Fails: routs on"  # 8 − 2 = 6, and 7 is higher
    rolled = services.rally(
        game, version=game.version, unit_id=a
    ).payload  # left empty: rolled, 1-10
    assert rolled["seed"] and rolled["dice"] == [rolled["die"]] and 1 <= rolled["die"] <= 10


# -- a die left empty is rolled from a seed, as combats' dice are -----------------------------


def test_a_priests_die_left_empty_is_rolled_from_the_seed_and_reproducible(game):
    target = feudal_hits(game, 5)  # 7 hits
    action = services.rally(
        game, version=game.version, unit_id=target, facts=["priest"], seed="abc123"
    )
    p = action.payload
    (die,) = services.roll("abc123", (1, 2, 3, 4, 5, 6), 1)
    assert (p["die"], p["dice"], p["seed"]) == (die, [die], "abc123")
    assert p["result"]["total"] == max(5, 7 - (1 + die))  # 4.1a's 1, his Dx; 4.1c
    services.undo_last(game, version=game.version)
    again = services.rally(
        game, version=game.version, unit_id=target, facts=["priest"], seed="abc123"
    ).payload
    assert again["dice"] == p["dice"] and again["result"] == p["result"]


def test_a_rally_with_no_die_in_its_rule_rolls_none_and_a_typed_die_is_kept(game):
    target = feudal_hits(game, 1)  # 3 hits
    plain = services.rally(game, version=game.version, unit_id=target).payload
    assert (plain["die"], plain["dice"], plain["seed"]) == (None, [], "")
    services.undo_last(game, version=game.version)
    typed = services.rally(
        game, version=game.version, unit_id=target, facts=["priest"], die=2
    ).payload
    assert (typed["die"], typed["dice"], typed["seed"]) == (2, [2], "")


def test_a_new_seed_is_made_when_none_is_given_and_a_bad_seed_is_refused(game):
    target = feudal_hits(game, 5)
    with pytest.raises(Refused, match="A seed is hex digits"):
        services.rally(
            game, version=game.version, unit_id=target, facts=["priest"], seed="not hex!"
        )
    p = services.rally(game, version=game.version, unit_id=target, facts=["priest"]).payload
    assert len(p["seed"]) == 16
    assert p["dice"] == list(services.roll(p["seed"], (1, 2, 3, 4, 5, 6), 1))


def test_the_log_says_the_rally_die_was_rolled_from_its_seed(game):
    from armybuilder.games import presenters

    target = feudal_hits(game, 5)
    services.rally(game, version=game.version, unit_id=target, facts=["priest"], seed="beef")
    line = presenters.log_lines(game, game.actions.order_by("number"))[0]
    (die,) = services.roll("beef", (1, 2, 3, 4, 5, 6), 1)
    assert line.dice == f"{die} (rolled from seed beef)"
