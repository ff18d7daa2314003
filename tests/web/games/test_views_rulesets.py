"""Every rule set whose combat Muster works out, through the game page: each phase drawn
with a pair chosen, and a mêlée worked out and applied (or refused in words), never an
error page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from armybuilder.armies.services import create_army
from armybuilder.games import selectors, services
from rules.combat_request import combat_rulesets
from tests.support import army
from tests.web.games.conftest import route, unit

pytestmark = pytest.mark.django_db
# Dewitt's mêlée rolls the attacker's stand and the target's; Into the Dark a d6 per four
# of the 12 figures fighting; the others one die
DICE = {"dewitt-medieval": "4 4", "into-the-dark": "4 4 4"}
NUMBERS = {"into-the-dark": "figures=12"}  # the others ask for no number in a mêlée


@pytest.mark.parametrize("slug", [r.slug for r in combat_rulesets()])
def test_each_phase_draws_and_a_melee_is_worked_out(slug, user, owner_client):
    made = create_army(army(slug, [{"name": "A"}, {"name": "B"}], name="Host"), owner=user)
    game = services.start_game(user, army_a=made, army_b=made)
    pair = {"attacker": unit(game, "a", "A"), "target": unit(game, "b", "B")}
    page = reverse("games:game", args=[game.pk])
    for phase in selectors.phases(game):
        drawn = owner_client.get(page, pair)
        assert drawn.status_code == 200, (slug, phase.key)
        if phase.key == "melee":
            dice = DICE.get(slug, "4")
            worked = owner_client.post(reverse("games:work_out", args=[game.pk]),
                                       {**pair, "die": dice, "numbers": NUMBERS.get(slug, "")})  # fmt: skip
            text = worked.content.decode()
            assert worked.status_code == 200, (slug, re.findall(r'role="alert">([^<]*)', text))
            assert "<cite>" in text and "Apply" in text
            applied = owner_client.post(route("combat", game),
                                        {**pair, "die": dice, "numbers": NUMBERS.get(slug, ""),
                                         "version": game.version})  # fmt: skip
            assert applied.status_code == 302, slug
            game.refresh_from_db()
        services.next_phase(game, version=game.version)
    assert game.turn == 2


def melee_game(slug, user):
    made = create_army(army(slug, [{"name": "A"}, {"name": "B"}], name="Host"), owner=user)
    game = services.start_game(user, army_a=made, army_b=made)
    while game.phase != "melee":
        services.next_phase(game, version=game.version)
    return game, {"attacker": unit(game, "a", "A"), "target": unit(game, "b", "B")}


@pytest.mark.parametrize("typed", ["target_casualties=0", "foo=1", "figures=12 hits=5"])
def test_a_number_the_rules_do_not_ask_for_is_refused_at_the_field_naming_those_they_do(
    typed, user, owner_client
):
    game, pair = melee_game("into-the-dark", user)
    for view in ("work_out", "combat"):
        answer = owner_client.post(route(view, game), {
            **pair, "die": "4 4 4", "numbers": typed, "version": game.version})  # fmt: skip
        assert answer.status_code == 400
        field = re.search(r'<input[^>]*id="numbers"[^>]*>\s*<span[^>]*id="numbers-error"[^>]*>'
                          r"([^<]*)</span>", answer.content.decode())  # fmt: skip
        assert field is not None, "said at the field"
        said = field.group(1)
        assert said.startswith("Other numbers: ") and "the rules ask only for figures" in said
        if typed.startswith("target_"):
            assert "the game counts target_casualties itself" in said
    game.refresh_from_db()
    assert not game.actions.filter(kind="combat").exists()


def test_a_game_whose_rules_ask_no_number_has_no_field_for_one_and_refuses_one_typed(
    user, owner_client
):
    game, pair = melee_game("feudal-2017", user)
    page = owner_client.get(reverse("games:game", args=[game.pk]), pair).content.decode()
    assert 'id="numbers"' not in page
    answer = owner_client.post(reverse("games:work_out", args=[game.pk]),
                               {**pair, "die": "4", "numbers": "target_hits=0"})  # fmt: skip
    assert answer.status_code == 400
    assert ("Other numbers: the game counts target_hits itself, from the combats, rallies and "
            "removals recorded; the rules ask for no other number in this game."
            ) in answer.content.decode()  # fmt: skip
