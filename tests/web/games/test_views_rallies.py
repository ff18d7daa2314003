"""The rally form on the game page: offered in the source's rally phase with the engine's
questions, its result in the log, taken back by Undo; by the link to play too."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from armybuilder.games import selectors, services
from tests.web.games.conftest import route, to_phase, unit

pytestmark = pytest.mark.django_db


def url(name: str, game) -> str:
    return route(name, game)


def rally_form(page: str) -> str:
    """The rally form's opening tag (drawn in every phase, hidden outside the rally phase:
    offline the page's script shows it when its own Next phase gets there)."""
    return page[page.index('data-op="rally"') :].split(">", 1)[0]


def test_the_rally_form_is_offered_in_phase_4_only(game, owner_client):
    page = owner_client.get(url("game", game)).content.decode()
    assert "Units rally in Phase 4: Rally." in page
    assert 'data-rally-phase="rally"' in rally_form(page) and " hidden" in rally_form(page)
    to_phase(game, "rally")
    page = owner_client.get(url("game", game)).content.decode()
    assert 'action="' + url("rally", game) in page and " hidden" not in rally_form(page)
    assert "<p data-rally-later hidden>" in page
    assert 'name="fact" value="attacked"> Has an Attacked Marker' in page


def test_a_rally_from_the_page_is_logged_and_undone(game, owner_client):
    to_phase(game, "melee")
    target = unit(game, "b", "Knights")
    services.apply_combat(
        game,
        version=game.version,
        attacker_id=unit(game, "a", "Knights"),
        target_id=target,
        modifiers=[],
        die=1,
    )  # 3
    to_phase(game, "rally")
    answer = owner_client.post(url("rally", game), {"version": game.version, "unit": target,
                                                    "fact": ["attacked"]})  # fmt: skip
    assert answer.status_code == 302 and answer["Location"].endswith("#log")
    assert selectors.state_of(game).of(target).damage == {"hits": 2}  # 3 − 1 (4.1a)
    page = owner_client.get(url("game", game)).content.decode()
    assert "Phase 4: Rally: Knights rallies: Rallies 1: 2 hits" in page
    assert "No Attacked Marker" not in page and "4.1 Rallying" in page
    game.refresh_from_db()
    assert owner_client.post(url("undo", game), {"version": game.version}).status_code == 302
    assert selectors.state_of(game).of(target).damage == {"hits": 3}


def test_a_rally_refused_is_said_in_words(game, owner_client):
    target = unit(game, "b", "Knights")
    early = owner_client.post(url("rally", game), {"version": game.version, "unit": target})
    assert early.status_code == 400 and "Units rally in Phase 4: Rally" in early.content.decode()
    to_phase(game, "rally")
    for die in ("six", "3 4"):
        typo = owner_client.post(url("rally", game), {"version": game.version, "unit": target,
                                                      "die": die})  # fmt: skip
        assert typo.status_code == 400, die
    assert not game.actions.filter(kind="rally").exists()


def test_the_link_to_play_rallies(game, owner_client):
    play = services.set_link(game, which="play", on=True)
    to_phase(game, "rally")
    opponent = Client()
    page = opponent.get(reverse("games:shared", args=[play])).content.decode()
    assert f'action="/g/{play}/rally/"' in page
    target = unit(game, "a", "Serjeants")
    answer = opponent.post(route("rally", token=play),
                           {"version": game.version, "unit": target})  # fmt: skip
    assert answer.status_code == 302
    assert game.actions.filter(kind="rally").count() == 1


def test_a_priests_die_left_empty_on_the_form_is_rolled_and_its_seed_logged(game, owner_client):
    to_phase(game, "melee")
    target = unit(game, "b", "Knights")
    services.apply_combat(
        game,
        version=game.version,
        attacker_id=unit(game, "a", "Knights"),
        target_id=target,
        modifiers=[],
        die=5,
    )  # 7
    to_phase(game, "rally")
    page = owner_client.get(url("game", game)).content.decode()
    assert '<label for="rally-die">Die (leave empty to roll)</label>' in page
    answer = owner_client.post(url("rally", game), {"version": game.version, "unit": target,
                                                    "fact": ["priest"], "die": ""})  # fmt: skip
    assert answer.status_code == 302
    p = game.actions.get(kind="rally").payload
    assert p["dice"] == list(services.roll(p["seed"], range(1, 7), 1))
    page = owner_client.get(url("game", game)).content.decode()
    assert f"{p['die']} (rolled from seed {p['seed']})" in page
    game.refresh_from_db()
    refused = owner_client.post(url("rally", game), {"version": game.version, "unit": target,
                                                     "fact": ["priest"], "die": "9"})  # fmt: skip
    assert refused.status_code == 400 and "9 is not a face of the D6" in refused.content.decode()
