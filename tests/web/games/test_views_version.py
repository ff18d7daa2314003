"""The game's version alone, for the other phone's page to follow the game: the owner's,
and either link's; 404 where the page is."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from armybuilder.games import services
from tests.web.games.test_views_links import links, shared
from tests.web.routes import signed_in

pytestmark = pytest.mark.django_db


def test_the_owner_and_both_links_read_the_version(game, owner_client):
    view, play = links(owner_client, game, "view"), links(owner_client, game, "play")
    game.refresh_from_db()
    start = game.version
    for client, url in (
        (owner_client, reverse("games:version", args=[game.pk])),
        (Client(), shared("version", view)),
        (Client(), shared("version", play)),
    ):
        answer = client.get(url)
        assert answer.status_code == 200 and "no-store" in answer["Cache-Control"]
        assert answer["Content-Type"] == "application/json"
        assert answer.json() == {"version": start}
    services.next_phase(game, version=game.version)
    assert Client().get(shared("version", view)).json() == {"version": start + 1}


def test_the_page_names_its_version_and_where_to_ask_it(game, owner_client):
    page = owner_client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert f'data-version="{game.version}"' in page
    assert f'data-version-url="/games/{game.pk}/version"' in page
    assert "js/game-follow.js" in page


def test_the_version_is_404_where_the_page_is(game, owner_client):
    stranger = signed_in("mallory")
    assert stranger.get(reverse("games:version", args=[game.pk])).status_code == 404
    assert Client().get(reverse("games:shared_version", args=["x" * 32])).status_code == 404
    view = links(owner_client, game, "view")
    links(owner_client, game, "view", "off")
    assert Client().get(shared("version", view)).status_code == 404
