"""The kinds of game action in one table: each kind's form is at its path, read into the
value the batch parses; a kind registered later (the toy note, tests/toy_ruleset/
game_kinds.py: one class and its partial) is drawn on the game's page, posted by its
form, sent in a batch, refused in its own words and taken back, with nothing else
edited."""

from __future__ import annotations

import re

import pytest
from django.http import QueryDict
from django.test import Client
from django.urls import NoReverseMatch, resolve, reverse

from armybuilder.games import kinds, selectors
from armybuilder.games.models import Game
from armybuilder.games.openapi import game_schemas
from armybuilder.jsonbody import BadOperation
from tests.toy_ruleset.game_kinds import Note, registered
from tests.web.games.conftest import route, to_phase, unit
from tests.web.games.operations import operation, results, send, url
from tests.web.games.test_views_links import links
from tests.web.routes import signed_in

pytestmark = pytest.mark.django_db

# each kind's form where it always was: the combat's is the Apply of the one worked out
PATHS = {"combat": "apply", "rally": "rally", "remove": "remove", "next_phase": "next-phase",
         "undo": "undo", "force_morale": "force-morale", "initiative": "initiative",
         "keep_or_pass": "keep-or-pass"}  # fmt: skip


@pytest.fixture
def note(settings):
    with registered(settings) as kind:
        yield kind


def post(data: dict) -> QueryDict:
    found = QueryDict(mutable=True)
    for name, value in data.items():
        found.setlist(name, value if isinstance(value, list) else [value])
    return found


# -- the table ---------------------------------------------------------------------------------


def test_every_kind_is_at_its_forms_path_and_read_back_as_its_name(game):
    assert {k.name: k.path for k in kinds.KINDS.values()} == PATHS
    for name, path in PATHS.items():
        assert route(name, game) == f"/games/{game.pk}/{path}/"
        assert route(name, token="t0ken") == f"/g/t0ken/{path}/"
        assert resolve(f"/games/{game.pk}/{path}/").kwargs == {"game": game.pk, "op": name}


def test_a_path_no_kind_has_is_404_and_a_name_no_kind_has_is_never_a_url(game, owner_client):
    for path in ("note", "next_phase", "combat", "shout"):  # names are not paths
        answer = owner_client.post(f"/games/{game.pk}/{path}/", {"version": game.version})
        assert answer.status_code == 404, path
    with pytest.raises(NoReverseMatch):
        reverse("games:act", args=[game.pk, "shout"])
    assert not game.actions.exists()


def test_a_kind_is_registered_once_by_name_and_by_path():
    with pytest.raises(ValueError, match="rally"):
        kinds.register(kinds.Rally())

    class Shout(Note):
        name = "shout"  # at the note's path, taken by rally's: refused as well
        path = "rally"

    with pytest.raises(ValueError, match="shout"):
        kinds.register(Shout())
    Shout.path = "shout_out"  # not a path a URL of a kind matches
    with pytest.raises(ValueError, match="a path of"):
        kinds.register(Shout())
    Shout.name, Shout.path = "a_shout_longer_than_the_log_keeps", "shout"  # 33 characters
    with pytest.raises(ValueError, match="at most 32 characters"):
        kinds.register(Shout())
    assert not {"shout", "a_shout_longer_than_the_log_keeps"} & set(kinds.KINDS)


@pytest.mark.parametrize(
    ("name", "form", "value"),
    [
        ("combat",
         {"attacker": "a:1", "target": "b:1", "modifier": ["flank", "uphill"], "die": "4",
          "numbers": "figures=12", "seed": "ab" * 40},
         {"attacker": "a:1", "target": "b:1", "modifiers": ["flank", "uphill"], "die": "4",
          "numbers": "figures=12", "seed": "ab" * 32}),
        ("rally", {"unit": "a:1", "fact": ["fought"], "die": "5"},
         {"unit": "a:1", "facts": ["fought"], "die": "5", "seed": ""}),
        ("remove", {"unit": "a:1", "why": "fled"}, {"unit": "a:1", "why": "fled"}),
        ("next_phase", {"version": "3"}, {}),
        ("undo", {"version": "3"}, {"of": None, "number": None}),
    ],
)  # fmt: skip
def test_a_kinds_form_is_read_into_the_value_the_batch_parses(game, name, form, value):
    kind = kinds.KINDS[name]
    assert kind.parse(kind.from_form(post(form), game), "form") == value


def test_force_morales_form_counts_only_the_bonuses_the_source_offers(game):
    kind = kinds.KINDS["force_morale"]
    read = kind.from_form(post({"side": "a", "count": "2", "bonus": ["personality", "made_up"]}),
                          game)  # fmt: skip
    assert kind.parse(read, "form") == {"side": "a", "dice": "", "seed": "", "bonus": 1,
                                        "count": 2}  # fmt: skip
    with pytest.raises(kinds.Refused, match="how many dice"):
        kind.from_form(post({"side": "a", "count": "two"}), game)


def test_a_value_is_refused_by_the_field_at_fault():
    with pytest.raises(BadOperation, match=r"^v\.unit: text of 1 to 100"):
        kinds.KINDS["rally"].parse({"unit": ""}, "v")
    with pytest.raises(BadOperation, match=r'^v\.side: "a" or "b"'):
        kinds.KINDS["force_morale"].parse({"side": "c"}, "v")
    with pytest.raises(BadOperation, match=r"^v\.of: the key"):
        kinds.KINDS["undo"].parse({"of": "not a key!"}, "v")


def test_a_form_posted_as_no_page_draws_it_is_400_naming_the_field(game, owner_client):
    to_phase(game, "melee")
    answer = owner_client.post(route("remove", game), {"version": game.version, "unit": ""})
    page = answer.content.decode()
    assert answer.status_code == 400 and "This form was not sent as the page draws it" in page
    assert "form.unit: text of 1 to 100 characters" in page
    assert game.actions.count() == 2  # the phases only


# -- a kind added by one class -----------------------------------------------------------------


def test_a_registered_kind_is_drawn_on_the_page_by_its_partial_and_posted_by_its_form(
    game, owner_client, note
):
    page = owner_client.get(route("game", game)).content.decode()
    assert f'action="/games/{game.pk}/note/"' in page and "A note for the log, Turn 1" in page
    answer = owner_client.post(route("note", game), {"version": game.version, "text": "Hold!"})
    assert answer.status_code == 302 and answer["Location"] == route("game", game) + "#log"
    page = owner_client.get(answer["Location"]).content.decode()
    assert "Noted." in page and "Turn 1: note: Hold!" in page
    action = game.actions.get()
    assert (action.kind, action.payload["text"], action.key) == ("note", "Hold!", None)
    action.full_clean()  # a kind of the table is a kind the model takes, none listed twice
    stale = owner_client.post(route("note", game), {"version": game.version, "text": "Again"})
    assert stale.status_code == 409 and game.actions.count() == 1


def test_a_registered_kind_is_sent_in_a_batch_once_and_refused_in_its_own_words(
    game, owner_client, note
):
    made = operation("note", {"text": "The ford holds", "turn": 1, "phase": game.phase})
    assert [r["status"] for r in results(send(owner_client, url(game), made))] == ["applied"]
    again = results(send(owner_client, url(game), made))
    assert again == [{"key": made["key"], "status": "duplicate", "number": 1}]
    late = operation("note", {"text": "Late", "turn": 1, "phase": "melee"})
    said = results(send(owner_client, url(game), late))[0]
    assert said["status"] == "conflict" and "this note from Turn 1, Phase 3" in said["message"]
    bad = send(owner_client, url(game), operation("note", {"turn": 1, "phase": game.phase}))
    assert bad.status_code == 400
    assert bad.json()["error"] == "operations[0].value.text: text of 1 to 200 characters"
    taken = operation("undo", {"of": made["key"]})
    assert [r["status"] for r in results(send(owner_client, url(game), taken))] == ["applied"]
    page = owner_client.get(route("game", game)).content.decode()
    assert re.search(r"<del>Turn 1: note: The ford holds</del> \(undone\)", page)


def test_a_registered_kind_keeps_the_games_seats_and_links(game, owner_client, note):
    view, play = links(owner_client, game, "view"), links(owner_client, game, "play")
    assert signed_in("mallory").post(route("note", game), {"text": "x"}).status_code == 404
    assert Client().post(route("note", token=view), {"text": "x"}).status_code == 404
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(route("note", token=play), {"text": "x"}).status_code == 403
    opponent = Client()
    assert f'action="/g/{play}/note/"' in opponent.get(route("game", token=play)).content.decode()
    answer = opponent.post(route("note", token=play), {"text": "Theirs", "version": game.version})
    assert answer.status_code == 302 and answer["Location"] == route("game", token=play) + "#log"
    assert [a.payload["text"] for a in game.actions.all()] == ["Theirs"]


def test_a_kind_unregistered_is_gone_from_the_page_the_form_and_the_batch(game, owner_client):
    kinds.register(Note())
    kinds.unregister(Note.name)
    assert owner_client.post(route("next_phase", game), {"version": 1}).status_code == 302
    assert f"/games/{game.pk}/note/" not in owner_client.get(route("game", game)).content.decode()
    assert owner_client.post(f"/games/{game.pk}/note/", {"text": "x"}).status_code == 404
    refused = send(owner_client, url(game), operation("note", {"text": "x", "turn": 1,
                                                               "phase": "shoot"}))  # fmt: skip
    assert refused.status_code == 400 and "op: one of combat" in refused.json()["error"]
    assert Game.objects.get(pk=game.pk).actions.count() == 1


def test_the_game_files_description_names_a_registered_kind(note):
    log = game_schemas()["GameDocument"]["properties"]["log"]["items"]
    assert log["properties"]["kind"]["enum"] == [*PATHS, "note"]


def test_the_table_replays_a_kind_it_does_not_know_as_nothing_changed(game, note):
    before = selectors.state_of(game).to_json()
    Note().apply(game, {"text": "Hold"}, None)
    after = selectors.state_of(game)
    assert after.to_json() == before and after.of(unit(game, "a", "Knights")).damage == {}
