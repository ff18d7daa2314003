"""The opponent's links: one to watch (the page and the file, nothing that changes the
game) and one to play (every action the owner has, with the token in every form's URL),
each made anew or switched off by the owner only."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from armybuilder.games import selectors
from armybuilder.games.models import Game
from tests.web.games.conftest import route, to_phase, unit
from tests.web.routes import signed_in

pytestmark = pytest.mark.django_db
ACTIONS = ("work_out", "combat", "next_phase", "undo", "remove")


def links(owner: Client, game: Game, which: str, do: str = "new") -> str | None:
    answer = owner.post(reverse("games:links", args=[game.pk]), {"link": which, "do": do})
    assert answer.status_code == 302 and answer["Location"].endswith("#links")
    return getattr(Game.objects.get(pk=game.pk), f"{which}_token")


def shared(name: str, token: str) -> str:
    return route(name, token=token)


def test_the_owner_makes_both_links_and_sees_them(game, owner_client):
    page = owner_client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Your opponent's links" in page and "Make a link" in page
    view, play = links(owner_client, game, "view"), links(owner_client, game, "play")
    assert len(view) == len(play) == 32 and view != play
    page = owner_client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert f"http://testserver/g/{view}/" in page and f"http://testserver/g/{play}/" in page


def test_the_link_to_watch_shows_the_game_and_changes_nothing(game, owner_client):
    to_phase(game, "melee")
    view = links(owner_client, game, "view")
    watcher = Client()
    response = watcher.get(shared("game", view))
    page = response.content.decode()
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    assert "Turn 1, Phase 3: Mêlée" in page and "Serjeants" in page and "Summary" in page
    assert "<form" not in page and "You are watching this game" in page
    assert "Your opponent's links" not in page and f"/games/{game.pk}/" not in page
    assert watcher.get(shared("export", view)).json()["format"] == "muster.game/1"
    for name in ACTIONS:
        answer = watcher.post(shared(name, view), {"version": game.version, "die": "3"})
        assert answer.status_code == 404, name
    assert game.actions.count() == 2  # the two phases the owner went on


def test_the_link_to_play_does_what_the_owner_does_without_an_account(game, owner_client):
    to_phase(game, "melee")
    play = links(owner_client, game, "play")
    opponent = Client()
    page = opponent.get(shared("game", play)).content.decode()
    actions = set(re.findall(r'action="([^"]+)"', page))
    assert actions and all(a.startswith(f"/g/{play}/") for a in actions), actions
    assert f"/games/{game.pk}/" not in page and "Your opponent's links" not in page
    target = unit(game, "a", "Knights")
    combat = {"attacker": unit(game, "b", "Knights"), "target": target, "die": "3"}
    worked = opponent.post(shared("work_out", play), combat).content.decode()
    assert f'action="/g/{play}/apply/"' in worked
    applied = opponent.post(shared("combat", play), {**combat, "version": game.version})
    assert applied.status_code == 302 and applied["Location"] == shared("game", play) + "#log"
    assert selectors.state_of(game).of(target).damage == {"hits": 5}
    game.refresh_from_db()
    assert opponent.post(shared("undo", play), {"version": game.version}).status_code == 302
    assert selectors.state_of(game).of(target).damage == {}
    game.refresh_from_db()
    opponent.post(shared("remove", play), {"version": game.version, "unit": target})
    assert selectors.state_of(game).of(target).removed
    game.refresh_from_db()
    assert opponent.post(shared("next_phase", play), {"version": game.version}).status_code == 302
    assert Game.objects.get(pk=game.pk).phase == "rally"


def test_a_new_link_ends_the_old_one_and_off_ends_it(game, owner_client):
    old = links(owner_client, game, "play")
    new = links(owner_client, game, "play")
    visitor = Client()
    assert visitor.get(shared("game", old)).status_code == 404
    assert visitor.post(shared("next_phase", old), {"version": game.version}).status_code == 404
    assert visitor.get(shared("game", new)).status_code == 200
    assert links(owner_client, game, "play", "off") is None
    assert visitor.get(shared("game", new)).status_code == 404
    assert visitor.post(shared("next_phase", new), {"version": game.version}).status_code == 404
    assert game.actions.count() == 0


def test_only_the_owner_makes_or_ends_the_links(game, owner_client):
    play = links(owner_client, game, "play")
    url = reverse("games:links", args=[game.pk])
    for other in (signed_in("mallory"), Client()):
        assert other.post(url, {"link": "play", "do": "off"}).status_code == 404
    assert Game.objects.get(pk=game.pk).play_token == play
    bad = owner_client.post(url, {"link": "admin", "do": "new"})
    assert bad.status_code == 400 and "two links" in bad.content.decode()


def test_a_post_to_the_link_to_watch_is_404_before_the_csrf_check_and_to_play_is_checked(
    game, owner_client
):
    view, play = links(owner_client, game, "view"), links(owner_client, game, "play")
    strict = Client(enforce_csrf_checks=True)  # a browser's post without the page's token
    for name in ACTIONS:
        assert strict.post(shared(name, view), {"version": game.version}).status_code == 404
        assert strict.post(shared(name, "made-up-token"), {}).status_code == 404
        assert strict.post(shared(name, play), {"version": game.version}).status_code == 403
    assert not game.actions.exists()
