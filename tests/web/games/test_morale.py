"""Force morale at the table (Feudal's Force Morale, Ruling C7; Dark Ages' FORCE MORALE):
a side rolls against the units it has lost, typed or from a seed; the verdict is logged,
shown on the page, in the summary, its sheet and the file; Undo takes it back. Each verdict
worked by hand from the source's rule."""

from __future__ import annotations

import io
import json

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from armybuilder.armies.services import create_army
from armybuilder.games import morale, selectors, services
from armybuilder.games.models import GameAction
from armybuilder.games.services import Refused
from tests.support import army
from tests.web.games.conftest import route, unit
from tests.web.games.operations import next_phase, operation, results, send, url

pytestmark = pytest.mark.django_db


def lose_knights(game, side: str = "b") -> None:
    """Side b (Saxons, two units: the source's roll is then due) loses its Knights."""
    services.remove_unit(
        game, version=game.version, unit_id=unit(game, side, "Knights"), why="Destroyed"
    )


# -- services ---------------------------------------------------------------------------------


def test_a_typed_roll_against_the_units_lost_force_morale_feudal(game):
    lose_knights(game)
    # two units (three or four or fewer: halved, rounded up): 1 -> 1, against 1 lost:
    # equal or higher (Ruling C7): fights on
    action = morale.force_morale(game, game.version, "b", [1])
    p = action.payload
    assert action.kind == GameAction.FORCE_MORALE
    assert (p["side_name"], p["lost"], p["units"], p["dice"], p["seed"]) == (
        "Saxons", 1, 2, [1], "")  # fmt: skip
    assert (p["verdict"]["outcome"], p["verdict"]["section"]) == ("fights on", "Force Morale")
    assert selectors.state_of(game).routed == {}


def test_a_rout_is_in_the_state_and_the_summary_and_undo_takes_it_back(game):
    services.remove_unit(
        game, version=game.version, unit_id=unit(game, "b", "Serjeants"), why="Destroyed"
    )
    lose_knights(game)
    # 2 lost; a roll of 2 halved is 1, +0: less than 2: routs
    morale.force_morale(game, game.version, "b", [2])
    state = selectors.state_of(game)
    assert state.routed["b"].endswith("(Force Morale)")
    assert selectors.summary(game).sides[1].routed == "Force Morale"
    with pytest.raises(Refused, match="Saxons routed already"):
        morale.force_morale(game, game.version, "b", [6])
    services.undo_last(game, version=game.version)
    assert selectors.state_of(game).routed == {}
    assert selectors.summary(game).sides[1].routed == ""


def test_the_sources_plus_1s_count(game):
    services.remove_unit(
        game, version=game.version, unit_id=unit(game, "b", "Serjeants"), why="Destroyed"
    )
    lose_knights(game)
    # 2 lost; 2 halved is 1, +1 for the opponent having lost more... 2: equal, fights on
    p = morale.force_morale(game, game.version, "b", [2], bonus=1).payload
    assert p["verdict"]["outcome"] == "fights on" and p["bonus"] == 1
    with pytest.raises(Refused, match="at most 2 \\+1"):
        morale.force_morale(game, game.version, "b", [2], bonus=3)


def test_rolled_from_a_seed_reproducibly_one_or_two_dice(game):
    lose_knights(game)
    p = morale.force_morale(game, game.version, "b", count=2, seed="abc").payload
    assert p["seed"] == "abc" and p["dice"] == list(services.roll("abc", range(1, 7), 2))
    lose_knights(game, "a")
    fresh = morale.force_morale(game, game.version, "a").payload
    assert len(fresh["seed"]) == 16 and len(fresh["dice"]) == 1


@pytest.mark.parametrize(
    ("dice", "count", "seed", "said"),
    [
        ([7], 1, "", "7 is not a face of the D6"),
        ([1, 2, 3], 1, "", "rolls one D6 to 2"),
        (None, 3, "", "rolls one D6 to 2"),
        (None, 1, "zz", "A seed is hex digits"),
    ],
)
def test_dice_the_source_does_not_roll_are_refused(game, dice, count, seed, said):
    lose_knights(game, "a")
    with pytest.raises(Refused, match=said):
        morale.force_morale(game, game.version, "a", dice, count=count, seed=seed)
    assert not game.actions.filter(kind=GameAction.FORCE_MORALE).exists()


def test_a_roll_is_due_only_after_each_unit_destroyed(game):
    with pytest.raises(Refused) as refused:
        morale.force_morale(game, game.version, "b", [6])
    assert refused.value.message == (
        "No force morale roll is due for Saxons: a side rolls each time one of its units is "
        "destroyed (Force Morale), and it has lost no unit yet.")  # fmt: skip
    lose_knights(game)
    morale.force_morale(game, game.version, "b", [6])  # the roll the loss called for
    with pytest.raises(Refused, match="it has rolled for its one unit lost"):
        morale.force_morale(game, game.version, "b", [6])
    services.undo_last(game, version=game.version)  # the roll taken back: it is due again
    morale.force_morale(game, game.version, "b", [6])
    assert game.actions.filter(kind=GameAction.FORCE_MORALE, undone=False).count() == 1


def test_a_rule_set_without_force_morale_refuses_and_offers_none(user):
    host = create_army(army("dewitt-medieval", [{"name": "A"}, {"name": "B"}], name="H"),
                       owner=user)  # fmt: skip
    game = services.start_game(user, army_a=host, army_b=host)
    assert morale.offer(game) is None
    with pytest.raises(Refused, match="no force morale"):
        morale.force_morale(game, game.version, "a", [3])


def test_dark_ages_higher_than_the_units_lost(user):
    units = [{"name": n, "type": "infantry"} for n in ("A", "B", "C", "D", "E", "F")]
    host = create_army(army("dark-ages-d5", units, name="Host"), owner=user)
    game = services.start_game(user, army_a=host, army_b=host)
    for name in ("A", "B", "C"):
        services.remove_unit(
            game, version=game.version, unit_id=unit(game, "a", name), why="Destroyed"
        )
    # six units, three lost: FORCE MORALE "higher than": a 3 routs, a 4 fights on
    assert morale.force_morale(game, game.version, "a", [4]).payload["verdict"]["outcome"] == (
        "fights on")  # fmt: skip
    verdict = morale.force_morale(game, game.version, "a", [3, 3]).payload["verdict"]
    assert (verdict["outcome"], verdict["section"]) == ("routs", "FORCE MORALE")
    assert morale.offer(game)["most"] == 2


# -- the page without JavaScript ----------------------------------------------------------------


def page_url(name: str, game) -> str:
    return route(name, game)


def test_the_form_posts_the_roll_and_the_page_shows_the_rout(game, owner_client):
    lose_knights(game, "a")
    page = owner_client.get(page_url("game", game)).content.decode()
    assert 'data-op="force_morale"' in page and 'action="' + page_url("force_morale", game) in page
    assert "+1 if you still have a Personality on the board" in page
    assert "Force morale: Saxons" in page
    assert page.count("A roll is due") == 1  # Normans lost their knights, Saxons nothing yet
    services.remove_unit(
        game, version=game.version, unit_id=unit(game, "b", "Serjeants"), why="Destroyed"
    )
    lose_knights(game)
    answer = owner_client.post(page_url("force_morale", game),
                               {"version": game.version, "side": "b", "dice": "1"})  # fmt: skip
    assert answer.status_code == 302 and answer["Location"].endswith("#log")
    page = owner_client.get(page_url("game", game)).content.decode()
    assert 'Saxons <strong class="routed">Routed</strong></h2>' in page
    assert "force morale of Saxons (2 of 2 units lost): 1 against 2 units lost" in page
    assert "1 (typed)" in page and "Routed (Force Morale)" in page
    assert "Force morale: Saxons" not in page  # a routed side rolls no more


def test_the_form_rolls_when_the_dice_are_left_empty_and_counts_the_plus_1s(game, owner_client):
    lose_knights(game, "a")
    answer = owner_client.post(page_url("force_morale", game), {
        "version": game.version, "side": "a", "dice": "", "count": "2",
        "bonus": ["personality", "made_up"]})  # fmt: skip
    assert answer.status_code == 302
    p = game.actions.get(kind=GameAction.FORCE_MORALE).payload
    assert len(p["dice"]) == 2 and p["seed"] and p["bonus"] == 1


def test_a_refused_form_says_why_and_a_stale_one_is_409(game, owner_client):
    lose_knights(game, "a")
    bad = owner_client.post(page_url("force_morale", game),
                            {"version": game.version, "side": "a", "dice": "9"})  # fmt: skip
    assert bad.status_code == 400 and "9 is not a face of the D6" in bad.content.decode()
    stale = owner_client.post(page_url("force_morale", game),
                              {"version": game.version + 5, "side": "a", "dice": "3"})  # fmt: skip
    assert stale.status_code == 409
    assert not game.actions.filter(kind=GameAction.FORCE_MORALE).exists()


def test_the_link_to_play_rolls_the_link_to_watch_is_404(game):
    lose_knights(game, "a")
    play, view = (
        services.set_link(game, which="play", on=True),
        services.set_link(game, which="view", on=True),
    )
    answer = Client().post(route("force_morale", token=play),
                           {"version": game.version, "side": "a", "dice": "4"})  # fmt: skip
    assert answer.status_code == 302
    watch = Client().post(route("force_morale", token=view),
                          {"version": game.version, "side": "a", "dice": "4"})  # fmt: skip
    assert watch.status_code == 404
    assert game.actions.filter(kind=GameAction.FORCE_MORALE).count() == 1


# -- the operation protocol ---------------------------------------------------------------------


def roll_op(side: str, *, turn: int = 1, phase: str = "shoot", dice: str = "", seed: str = "",
            key: str = "", **more) -> dict:  # fmt: skip
    return operation("force_morale", {"side": side, "dice": dice, "seed": seed, "turn": turn,
                                      "phase": phase, **more}, key)  # fmt: skip


def test_an_operation_is_applied_once_and_rolled_from_its_seed(game, owner_client):
    lose_knights(game)
    op = roll_op("b", seed="beef", count=2, bonus=1)
    said = results(send(owner_client, url(game), op, op))
    assert [r["status"] for r in said] == ["applied", "duplicate"]
    p = game.actions.get(key=op["key"]).payload
    assert p["dice"] == list(services.roll("beef", range(1, 7), 2)) and p["bonus"] == 1


def test_an_operation_made_in_another_phase_is_a_conflict_in_words(game, owner_client):
    said = results(send(owner_client, url(game), next_phase(1, "shoot"), roll_op("a", dice="3")))
    assert said[1]["status"] == "conflict"
    assert "this force morale of Normans from Turn 1, Phase 1: Shoot" in said[1]["message"]
    assert not game.actions.filter(kind=GameAction.FORCE_MORALE).exists()


@pytest.mark.parametrize(
    ("value", "field"),
    [({"side": "c"}, "value.side"), ({"side": "a", "bonus": -1}, "value.bonus"),
     ({"side": "a", "count": 0}, "value.count"), ({"side": "a", "seed": "f" * 65}, "value.seed")],
)  # fmt: skip
def test_a_malformed_operation_is_400_naming_the_field(game, owner_client, value, field):
    op = operation("force_morale", {"turn": 1, "phase": "shoot", **value})
    answer = send(owner_client, url(game), op)
    assert answer.status_code == 400 and field in answer.content.decode()


# -- the file and the summary sheet ----------------------------------------------------------


def test_the_file_and_the_summary_sheet_carry_the_rout(game, owner_client):
    services.remove_unit(
        game, version=game.version, unit_id=unit(game, "b", "Serjeants"), why="Destroyed"
    )
    lose_knights(game)
    morale.force_morale(game, game.version, "b", [1], seed="")
    data = json.loads(owner_client.get(reverse("games:export", args=[game.pk])).content)
    entry = data["log"][-1]
    assert entry["kind"] == "force_morale" and entry["verdict"]["outcome"] == "routs"
    assert (entry["dice"], entry["lost"], entry["units"]) == ([1], 2, 2)
    assert data["summary"]["sides"]["b"]["routed"] == "Force Morale"
    assert data["summary"]["sides"]["a"]["routed"] == ""
    pdf = owner_client.get(reverse("games:summary_pdf", args=[game.pk])).content
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "Routed (Force Morale)" in text
