"""The games pages without JavaScript: starting a game, choosing a pair, working a combat
out, applying it and taking it back; owner-only; CSRF."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from armybuilder.armies.services import create_army, regenerate_share_token, stop_sharing
from armybuilder.games import selectors
from armybuilder.games.models import Game
from tests.support import army
from tests.web.games.conftest import route, to_phase, unit
from tests.web.routes import signed_in

pytestmark = pytest.mark.django_db


def url(name: str, game: Game) -> str:
    return route(name, game)


def test_starting_a_game_between_two_of_my_armies(owner_client, feudal_armies):
    mine, theirs = feudal_armies
    page = owner_client.get(reverse("games:mine")).content.decode()
    assert "Normans" in page and "Saxons" in page
    response = owner_client.post(reverse("games:mine"), {"army_a": mine.pk, "army_b": theirs.pk})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == url("game", game)
    assert "Normans v Saxons" in owner_client.get(reverse("games:mine")).content.decode()


def test_a_game_is_not_started_with_someone_elses_army_or_two_rule_sets(
    owner_client, user, feudal_armies
):
    bob = User.objects.create_user("bob")
    other = create_army(army("feudal-2017", [{"name": "K", "type": "knights"}]), owner=bob)
    refused = owner_client.post(reverse("games:mine"),
                                {"army_a": feudal_armies[0].pk, "army_b": other.pk})  # fmt: skip
    assert refused.status_code == 400 and "Choose two of your armies" in refused.content.decode()
    dark = create_army(army("into-the-dark", [{"name": "Spears"}]), owner=user)
    refused = owner_client.post(reverse("games:mine"),
                                {"army_a": feudal_armies[0].pk, "army_b": dark.pk})  # fmt: skip
    assert refused.status_code == 400
    assert "Both armies must be of one rule set" in refused.content.decode()
    assert not Game.objects.exists()


def test_another_player_and_a_visitor_get_404(game, client):
    mallory = signed_in("mallory")
    for name in ("game", "export"):
        assert mallory.get(url(name, game)).status_code == 404
        assert client.get(url(name, game)).status_code == 404
    for name in ("next_phase", "undo", "combat", "work_out", "remove"):
        assert mallory.post(url(name, game), {"version": game.version}).status_code == 404
    assert game.actions.count() == 0


def test_a_post_without_its_csrf_token_is_refused(game, owner_client):
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = owner_client.cookies
    assert strict.post(url("next_phase", game), {"version": game.version}).status_code == 403
    page = owner_client.get(url("game", game)).content.decode()
    assert page.count('name="csrfmiddlewaretoken"') >= 3
    assert game.actions.count() == 0


def test_the_pair_chosen_offers_only_the_engines_modifiers(game, owner_client):
    to_phase(game, "melee")
    pair = {"attacker": unit(game, "a", "Knights"), "target": unit(game, "b", "Serjeants")}
    page = owner_client.get(url("game", game), pair).content.decode()
    assert 'value="flank"' in page and 'value="rear"' in page
    assert 'value="woods_charged"' not in page  # serjeants do not enter woods
    assert "Armoured serjeants (applies by itself)" in page


def test_an_attacker_that_cannot_attack_in_this_phase_is_told_why(game, owner_client):
    pair = {"attacker": unit(game, "a", "Knights"), "target": unit(game, "b", "Serjeants")}
    page = owner_client.get(url("game", game), pair).content.decode()
    # the phase by its name, never its key
    assert "Knights do not shoot in Phase 1: Shoot" in page and "&#x27;shoot&#x27;" not in page
    assert 'id="die"' not in page  # no combat form (the rally form, hidden, has its own)


def test_work_out_apply_and_undo_without_javascript(game, owner_client):
    to_phase(game, "melee")
    target = unit(game, "b", "Knights")
    combat = {"attacker": unit(game, "a", "Knights"), "target": target, "modifier": ["flank"],
              "die": "3"}  # fmt: skip
    worked = owner_client.post(url("work_out", game), combat)
    page = worked.content.decode()
    assert worked.status_code == 200
    assert "Die 3 +2 knights = 5 hits (3.2a)" in page and "3.2 Resolving Mêlée" in page
    assert "10 hits" in page and 'action="' + url("combat", game) in page
    assert selectors.state_of(game).of(target).damage == {}  # nothing saved yet
    applied = owner_client.post(url("combat", game), {**combat, "version": game.version})
    assert applied.status_code == 302 and applied["Location"].endswith("#log")
    page = owner_client.get(url("game", game)).content.decode()
    assert "10 hits (10 in all)" in page and "<h3>Knights against Knights</h3>" not in page
    assert selectors.state_of(game).of(target).damage == {"hits": 10}
    game.refresh_from_db()
    assert owner_client.post(url("undo", game), {"version": game.version}).status_code == 302
    assert selectors.state_of(game).of(target).damage == {}
    assert "(undone)" in owner_client.get(url("game", game)).content.decode()


def test_a_rolled_die_shows_its_seed_and_applies_the_same_dice(game, owner_client):
    to_phase(game, "melee")
    combat = {"attacker": unit(game, "a", "Knights"), "target": unit(game, "b", "Knights")}
    page = owner_client.post(url("work_out", game), combat).content.decode()
    seed = re.search(r'name="seed" value="([0-9a-f]+)"', page).group(1)
    assert f"rolled from seed <code>{seed}</code>" in page
    owner_client.post(url("combat", game), {**combat, "seed": seed, "version": game.version})
    action = game.actions.get(kind="combat")
    assert action.payload["seed"] == seed


def test_a_refused_combat_is_said_at_the_form(game, owner_client):
    to_phase(game, "melee")
    combat = {"attacker": unit(game, "a", "Knights"), "target": unit(game, "b", "Knights"),
              "die": "9"}  # fmt: skip
    refused = owner_client.post(url("work_out", game), combat)
    assert refused.status_code == 400
    assert "9 is not a face of the D6" in refused.content.decode()
    typo = owner_client.post(url("work_out", game), {**combat, "die": "six"})
    assert typo.status_code == 400 and "Type the die as a number" in typo.content.decode()


def test_a_form_drawn_before_the_last_change_is_refused(game, owner_client):
    old = game.version
    assert owner_client.post(url("next_phase", game), {"version": old}).status_code == 302
    stale = owner_client.post(url("next_phase", game), {"version": old})
    assert stale.status_code == 409 and "moved on" in stale.content.decode()
    assert game.actions.count() == 1


def test_removing_a_unit_by_hand(game, owner_client):
    target = unit(game, "b", "Serjeants")
    owner_client.post(url("remove", game), {"version": game.version, "unit": target})
    assert selectors.state_of(game).of(target).removed
    page = owner_client.get(url("game", game)).content.decode()
    assert "Removed by the player" in page


def test_the_opponents_army_comes_from_its_share_link(owner_client, feudal_armies):
    bob = User.objects.create_user("bob")
    danes = create_army(army("feudal-2017", [{"name": "Huscarls", "type": "serjeants"}],
                             name="Danes"), owner=bob)  # fmt: skip
    token = regenerate_share_token(danes)
    link = f"https://muster.example/s/{token}/"
    started = owner_client.post(
        reverse("games:mine"),
        {"army_a": feudal_armies[0].pk, "army_b": feudal_armies[0].pk, "share_link": link},
    )
    game = Game.objects.get()
    assert started.status_code == 302 and game.name == "Normans v Danes"
    assert [c.name for c in selectors.side_view(game, key="b").cards] == ["Huscarls"]
    stop_sharing(danes)
    refused = owner_client.post(reverse("games:mine"),
                                {"army_a": feudal_armies[0].pk, "share_link": link})  # fmt: skip
    assert refused.status_code == 400 and "leads to no army" in refused.content.decode()


def test_each_card_offers_its_unit_as_the_attacker_or_the_target_keeping_the_other_half(
    game, owner_client
):
    to_phase(game, "melee")
    knights, target = unit(game, "a", "Knights"), unit(game, "b", "Serjeants")
    page = owner_client.get(reverse("games:game", args=[game.pk]), {"attacker": knights})
    text = page.content.decode()
    # the units come before the combat's forms, and the opponent's links after the log
    assert text.index('class="unit-cards"') < text.index('id="combat"') < text.index('id="log"')
    assert text.index('id="log"') < text.index('id="links-heading"')
    assert 'aria-label="Attacker: Knights" aria-pressed="true"' in text
    # a target's form keeps the attacker already chosen: one more tap draws the combat
    assert (f'<input type="hidden" name="attacker" value="{knights}"><input type="hidden" '
            f'name="target" value="{target}">') in text  # fmt: skip
    both = owner_client.get(reverse("games:game", args=[game.pk]),
                            {"attacker": knights, "target": target}).content.decode()  # fmt: skip
    assert 'data-op="work_out"' in both and "Work out" in both
