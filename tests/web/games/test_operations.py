"""POST /games/<game>/operations/ (and /g/<token>/operations/ by the link to play): the
page's script's actions as a batch of operations, applied in order, each key once; who
may send them; a body that is not a batch is 400 naming the field, never a 500."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.games import selectors, services
from armybuilder.games.models import Game, GameAction
from tests.web.games.conftest import to_phase, unit
from tests.web.games.operations import (
    combat,
    next_phase,
    operation,
    results,
    send,
    statuses,
    url,
)
from tests.web.games.test_views_links import links, shared
from tests.web.routes import signed_in

pytestmark = pytest.mark.django_db


def test_operations_are_applied_in_order_each_answering_its_action(game, owner_client):
    sent = [next_phase(1, "shoot"), next_phase(1, "move"),
            combat(game, "Knights", "Knights", phase="melee")]  # fmt: skip
    response = send(owner_client, url(game), *sent)
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    assert results(response) == [
        {"key": sent[0]["key"], "status": "applied", "number": 1},
        {"key": sent[1]["key"], "status": "applied", "number": 2},
        {"key": sent[2]["key"], "status": "applied", "number": 3},
    ]
    game.refresh_from_db()
    assert response.json()["version"] == game.version == 4 and game.phase == "melee"
    assert selectors.state_of(game).of(unit(game, "b", "Knights")).damage == {"hits": 5}
    keys = list(game.actions.values_list("key", flat=True))
    assert keys == [o["key"] for o in sent]


def test_a_key_sent_again_answers_duplicate_and_is_applied_once(game, owner_client):
    to_phase(game, "melee")
    once = combat(game, "Knights", "Knights", phase="melee")
    first = results(send(owner_client, url(game), once))[0]
    again = send(owner_client, url(game), once, once)
    assert statuses(again) == ["duplicate", "duplicate"]
    assert [r["number"] for r in results(again)] == [first["number"]] * 2
    assert game.actions.filter(kind=GameAction.COMBAT).count() == 1
    assert selectors.state_of(game).of(unit(game, "b", "Knights")).damage == {"hits": 5}
    game.refresh_from_db()
    assert again.json()["version"] == game.version


def test_a_key_not_applied_is_applied_when_sent_again_and_it_can_be(game, owner_client):
    early = combat(game, "Knights", "Knights", phase="melee")  # the game is in Phase 1
    refused = results(send(owner_client, url(game), early))[0]
    assert refused["status"] == "conflict" and "number" not in refused
    to_phase(game, "melee")
    assert statuses(send(owner_client, url(game), early)) == ["applied"]


def test_a_seeded_roll_rolls_the_dice_services_roll_gives(game, owner_client):
    to_phase(game, "melee")
    seed = "00c0ffee12345678"
    sent = combat(game, "Knights", "Knights", phase="melee", die="", seed=seed)
    assert statuses(send(owner_client, url(game), sent)) == ["applied"]
    payload = game.actions.get(key=sent["key"]).payload
    assert payload["dice"] == list(services.roll(seed, range(1, 7), 1))
    assert payload["seed"] == seed


def test_the_die_and_numbers_are_read_as_the_form_reads_them(game, owner_client):
    to_phase(game, "melee")
    bad_die = combat(game, "Knights", "Knights", phase="melee", die="three")
    bad_numbers = combat(game, "Knights", "Knights", phase="melee")
    bad_numbers["value"]["numbers"] = "figures"
    bad_unit = combat(game, "Knights", "Knights", phase="melee")
    bad_unit["value"]["target"] = "b:nobody"
    said = results(send(owner_client, url(game), bad_die, bad_numbers, bad_unit))
    assert [r["status"] for r in said] == ["refused"] * 3
    assert said[0]["message"].startswith("Type the die as a number (5)")
    assert said[1]["message"] == "Type other numbers as name=number, e.g. figures=12."
    assert said[2]["message"].startswith("No unit of this game has that name")
    assert not game.actions.filter(kind=GameAction.COMBAT).exists()


def test_a_rally_and_a_removal_are_applied_as_their_forms_do(game, owner_client):
    to_phase(game, "melee")
    target = unit(game, "b", "Knights")
    hit = combat(game, "Knights", "Knights", phase="melee", die="1")
    rally = operation("rally", {"unit": target, "facts": [], "die": "", "turn": 1,
                                "phase": "rally"})  # fmt: skip
    two_dice = operation("rally", {"unit": target, "facts": [], "die": "2 3", "turn": 1,
                                   "phase": "rally"})  # fmt: skip
    remove = operation("remove", {"unit": target, "why": "  routed  ", "turn": 1,
                                  "phase": "rally"})  # fmt: skip
    said = results(send(owner_client, url(game), hit, next_phase(1, "melee"), rally, two_dice,
                        remove))  # fmt: skip
    assert [r["status"] for r in said] == ["applied", "applied", "applied", "refused", "applied"]
    assert said[3]["message"] == "A rally rolls one die: type it alone."
    assert selectors.state_of(game).of(target).damage == {"hits": 1}  # 3, rallied 2 (4.1)
    assert game.actions.get(key=remove["key"]).payload["why"] == "routed"
    again = operation("remove", {"unit": target, "why": "", "turn": 1, "phase": "rally"})
    said = results(send(owner_client, url(game), again))[0]
    assert said["status"] == "gone" and said["message"] == "Knights was removed: routed."


def test_what_else_a_record_of_the_queue_carries_is_ignored(game, owner_client):
    sent = {**next_phase(1, "shoot"), "army": 7, "target": "x", "field": "y", "from": None}
    response = send(owner_client, url(game), sent, own=["whatever", 3])
    assert statuses(response) == ["applied"]


def test_the_link_to_play_sends_operations_and_the_link_to_watch_is_404(game, owner_client):
    view, play = links(owner_client, game, "view"), links(owner_client, game, "play")
    opponent = Client()
    assert statuses(send(opponent, shared("operations", play), next_phase(1, "shoot"))) == [
        "applied"
    ]
    for where in (shared("operations", view), shared("operations", "made-up-token")):
        assert send(opponent, where, next_phase(1, "move")).status_code == 404
        assert opponent.post(where, "{", content_type="application/json").status_code == 404
    assert Game.objects.get(pk=game.pk).phase == "move"


def test_someone_elses_game_is_404_whatever_the_body(game):
    for other in (signed_in("mallory"), Client()):
        assert send(other, url(game), next_phase(1, "shoot")).status_code == 404
        for body in ("{", '{"operations": 3}', b"\xff\xfe"):
            response = other.post(url(game), body, content_type="application/json")
            assert response.status_code == 404
    assert not game.actions.exists()


def test_an_operation_without_its_csrf_token_is_refused(game, owner_client):
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = owner_client.cookies
    assert send(strict, url(game), next_phase(1, "shoot")).status_code == 403
    token = owner_client.get(reverse("games:game", args=[game.pk])).cookies["csrftoken"].value
    strict.cookies["csrftoken"] = token
    answer = strict.post(url(game), {"operations": [next_phase(1, "shoot")]},
                         content_type="application/json", headers={"X-CSRFToken": token})  # fmt: skip
    assert answer.status_code == 200
    assert game.actions.count() == 1


GOOD = {"key": "abcdefgh", "base_version": 1, "op": "next_phase",
        "value": {"turn": 1, "phase": "shoot"}}  # fmt: skip


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ("{", "line 1"),
        ('{"operations": [], "operations": []}', "'operations' appears twice"),
        ("[]", "body: a JSON object"),
        ('{"operations": []}', "operations: a non-empty list"),
        (json.dumps({"operations": [GOOD] * 201}), "operations: at most 200"),
        (json.dumps({"operations": [3]}), "operations[0]: an operation is an object"),
        (json.dumps({"operations": [{**GOOD, "key": "k" * 65}]}), "operations[0].key: 1 to 64"),
        (json.dumps({"operations": [{**GOOD, "key": "a b c d e f"}]}), "operations[0].key"),
        (json.dumps({"operations": [{**GOOD, "base_version": -1}]}), "base_version"),
        (json.dumps({"operations": [{**GOOD, "base_version": "1"}]}), "base_version"),
        (json.dumps({"operations": [{**GOOD, "base_version": True}]}), "base_version"),
        (json.dumps({"operations": [{**GOOD, "op": "set"}]}), "operations[0].op: one of combat"),
        (json.dumps({"operations": [{**GOOD, "value": [1]}]}), "operations[0].value: an object"),
        (json.dumps({"operations": [{**GOOD, "value": {"phase": "shoot"}}]}), "value.turn"),
        (json.dumps({"operations": [{**GOOD, "value": {"turn": 1}}]}), "value.phase"),
        (
            json.dumps({"operations": [GOOD, {**GOOD, "op": "combat"}]}),
            "operations[1].value.attacker",
        ),  # fmt: skip
        (
            json.dumps(
                {
                    "operations": [
                        {
                            **GOOD,
                            "op": "combat",
                            "value": {
                                **GOOD["value"],
                                "attacker": "a:1",
                                "target": "b:1",
                                "modifiers": "flank",
                            },
                        }
                    ]
                }
            ),
            "operations[0].value.modifiers: a list",
        ),  # fmt: skip
        (
            json.dumps(
                {
                    "operations": [
                        {
                            **GOOD,
                            "op": "combat",
                            "value": {
                                **GOOD["value"],
                                "attacker": "a:1",
                                "target": "b:1",
                                "die": 3,
                            },
                        }
                    ]
                }
            ),
            "operations[0].value.die: text",
        ),  # fmt: skip
        (
            json.dumps(
                {
                    "operations": [
                        {
                            **GOOD,
                            "op": "rally",
                            "value": {**GOOD["value"], "unit": "a:1", "facts": [1]},
                        }
                    ]
                }
            ),
            "value.facts",
        ),  # fmt: skip
        (
            json.dumps(
                {"operations": [{**GOOD, "op": "remove", "value": {**GOOD["value"], "unit": 5}}]}
            ),
            "operations[0].value.unit",
        ),  # fmt: skip
        (
            json.dumps({"operations": [{**GOOD, "op": "undo", "value": {"of": 5}}]}),
            "operations[0].value.of",
        ),  # fmt: skip
    ],
)
def test_a_body_that_is_not_a_batch_is_400_naming_the_field(game, owner_client, body, named):
    response = owner_client.post(url(game), body, content_type="application/json")
    assert response.status_code == 400 and "no-store" in response["Cache-Control"]
    assert named in response.json()["error"]
    assert not game.actions.exists()


def test_a_body_that_is_not_utf8_is_400(game, owner_client):
    response = owner_client.post(url(game), b'{"operations": "\xff"}',
                                 content_type="application/json")  # fmt: skip
    assert response.status_code == 400 and "UTF-8" in response.json()["error"]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12,
)  # fmt: skip
VALUE = st.fixed_dictionaries({}, optional={
    "attacker": JSON | st.sampled_from(["a:x", "b:y"]), "target": JSON, "unit": JSON,
    "modifiers": JSON, "facts": JSON, "die": JSON | st.sampled_from(["", "3", "1 2"]),
    "numbers": JSON, "seed": JSON, "why": JSON, "of": JSON | st.just("abcdefgh"),
    "turn": JSON | st.just(1), "phase": JSON | st.sampled_from(["shoot", "melee"]),
})  # fmt: skip
OPERATION = st.fixed_dictionaries({}, optional={
    "key": JSON | st.just("abcdefgh"), "base_version": JSON | st.just(1),
    "op": JSON | st.sampled_from(["combat", "rally", "remove", "next_phase", "undo"]),
    "value": JSON | VALUE,
})  # fmt: skip
BODY = JSON | st.fixed_dictionaries({"operations": st.lists(OPERATION, max_size=3) | JSON})


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(body=BODY)
def test_random_json_bodies_never_give_a_server_error(game, owner_client, body):
    response = owner_client.post(url(game), json.dumps(body), content_type="application/json")
    assert response.status_code in (200, 400), response.content[:300]
    if response.status_code == 400:
        assert response.json()["error"]
    else:
        assert all(r["status"] in ("applied", "refused", "duplicate")
                   for r in response.json()["results"])  # fmt: skip


def test_the_page_gives_its_script_the_operations_url_and_the_phases(game, owner_client):
    page = owner_client.get(reverse("games:game", args=[game.pk]))
    assert page.context["urls"]["operations"] == url(game)
    assert json.loads(page.context["phases_json"]) == [
        {"key": "shoot", "name": "Phase 1: Shoot"},
        {"key": "move", "name": "Phase 2: Move"},
        {"key": "melee", "name": "Phase 3: Mêlée"},
        {"key": "rally", "name": "Phase 4: Rally"},
    ]
    play = links(owner_client, game, "play")
    by_link = Client().get(shared("game", play))
    assert by_link.context["urls"]["operations"] == shared("operations", play)


def test_a_rallys_die_left_empty_is_rolled_from_the_seed_it_carries_once(game, owner_client):
    to_phase(game, "melee")
    target = unit(game, "b", "Knights")
    hit = combat(game, "Knights", "Knights", phase="melee", die="5")  # 7 hits
    rally = operation("rally", {"unit": target, "facts": ["priest"], "die": "", "seed": "c0ffee",
                                "turn": 1, "phase": "rally"})  # fmt: skip
    said = results(send(owner_client, url(game), hit, next_phase(1, "melee"), rally, rally))
    assert [r["status"] for r in said] == ["applied", "applied", "applied", "duplicate"]
    p = game.actions.get(key=rally["key"]).payload
    assert (p["seed"], p["dice"]) == ("c0ffee", list(services.roll("c0ffee", range(1, 7), 1)))
    bad = operation("rally", {"unit": target, "facts": [], "die": "", "seed": "x" * 65,
                              "turn": 1, "phase": "rally"})  # fmt: skip
    answer = send(owner_client, url(game), bad)
    assert answer.status_code == 400 and "value.seed" in answer.content.decode()
