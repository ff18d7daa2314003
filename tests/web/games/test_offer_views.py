"""Every combat the page may offer, kept on the phone to choose one offline: the same
modifiers the page's form offers for each pair and phase, for the owner and either link
(it tells nothing the armies do not); 404 for everyone else."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from armybuilder.games import selectors, services
from tests.web.games.conftest import to_phase, unit
from tests.web.games.test_views_links import links, shared
from tests.web.routes import signed_in

pytestmark = pytest.mark.django_db


def offers_of(client, game) -> dict:
    answer = client.get(reverse("games:offers", args=[game.pk]))
    assert answer.status_code == 200 and "no-store" in answer["Cache-Control"]
    return answer.json()


def test_each_pair_and_phase_offers_what_the_form_offers(game, owner_client):
    data = offers_of(owner_client, game)
    assert data["game"] == game.pk
    assert list(data["phases"]) == [p.key for p in selectors.phases(game)]
    checked = 0
    for phase in data["phases"]:
        to_phase(game, phase)
        for attacker, pairs in data["phases"][phase].items():
            for target in (unit(game, s, n) for s in "ab" for n in ("Knights", "Serjeants")):
                if target[0] == attacker[0]:
                    continue
                try:
                    offered = services.offered_modifiers(
                        game, attacker_id=attacker, target_id=target
                    )
                except services.Refused as exc:
                    assert pairs == exc.message
                    continue
                got = data["sets"][pairs if isinstance(pairs, int) else pairs[target]]
                assert [m["key"] for m in got] == [m.key for m in offered]
                assert [m["label"] for m in got] == [m.label for m in offered]
                checked += 1
    assert checked > 0


def test_a_melee_offers_the_modifiers_the_page_offers_for_it(game, owner_client):
    knights, serjeants = unit(game, "a", "Knights"), unit(game, "b", "Serjeants")
    data = offers_of(owner_client, game)
    offered = data["phases"]["melee"][knights]
    melee = data["sets"][offered if isinstance(offered, int) else offered[serjeants]]
    to_phase(game, "melee")
    page = owner_client.get(
        reverse("games:game", args=[game.pk]), {"attacker": knights, "target": serjeants}
    ).content.decode()
    for m in melee:
        assert f'value="{m["key"]}"' in page


def test_the_links_read_the_offers_and_others_get_404(game, owner_client):
    play, view = links(owner_client, game, "play"), links(owner_client, game, "view")
    assert Client().get(shared("offers", play)).json() == offers_of(owner_client, game)
    assert Client().get(shared("offers", view)).json() == offers_of(owner_client, game)
    assert signed_in("mallory").get(reverse("games:offers", args=[game.pk])).status_code == 404
    assert Client().get(reverse("games:shared_offers", args=["x" * 32])).status_code == 404


def test_the_offers_carry_the_games_table_and_the_page_where_the_game_stands(game, owner_client):
    """What the page's engine works the phone's actions out from: each side's units as the
    engine read them (kept with the offers), and each unit's hits at the page's drawing."""
    knights, serjeants = unit(game, "a", "Knights"), unit(game, "b", "Serjeants")
    table = offers_of(owner_client, game)["table"]
    assert table["ruleset"] == "feudal-2017" and table["options"]["dice"] == "d6"
    units = {u["key"]: u for side in table["sides"].values() for u in side["units"]}
    assert units[knights]["name"] == "Knights" and units[knights]["unit"]["type"] == "knights"
    assert table["sides"]["b"]["name"] == "Saxons"
    to_phase(game, "melee")
    services.apply_combat(
        game, version=game.version, attacker_id=knights, target_id=serjeants, modifiers=[], die=3
    )
    page = owner_client.get(reverse("games:game", args=[game.pk])).content.decode()
    found = re.search(r'data-table="([^"]*)"', page)
    state = json.loads(html.unescape(found.group(1)))
    assert state["phase"] == "melee"
    assert state["units"][serjeants]["damage"] == selectors.state_of(game).of(serjeants).damage
