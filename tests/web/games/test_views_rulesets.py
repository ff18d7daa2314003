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
from tests.web.games.conftest import unit

pytestmark = pytest.mark.django_db
# Dewitt's mêlée rolls the attacker's stand and the target's; Into the Dark a d6 per four
# of the 12 figures fighting; the others one die
DICE = {"dewitt-medieval": "4 4", "into-the-dark": "4 4 4"}


@pytest.mark.parametrize("slug", [r.slug for r in combat_rulesets()])
def test_each_phase_draws_and_a_melee_is_worked_out(slug, user, owner_client):
    made = create_army(army(slug, [{"name": "A"}, {"name": "B"}], name="Host"), owner=user)
    game = services.start_game(user, made, made)
    pair = {"attacker": unit(game, "a", "A"), "target": unit(game, "b", "B")}
    page = reverse("games:game", args=[game.pk])
    for phase in selectors.phases(game):
        drawn = owner_client.get(page, pair)
        assert drawn.status_code == 200, (slug, phase.key)
        if phase.key == "melee":
            dice = DICE.get(slug, "4")
            worked = owner_client.post(reverse("games:work_out", args=[game.pk]),
                                       {**pair, "die": dice, "numbers": "figures=12"})  # fmt: skip
            text = worked.content.decode()
            assert worked.status_code == 200, (slug, re.findall(r'role="alert">([^<]*)', text))
            assert "<cite>" in text and "Apply" in text
            applied = owner_client.post(reverse("games:apply", args=[game.pk]),
                                        {**pair, "die": dice, "numbers": "figures=12",
                                         "version": game.version})  # fmt: skip
            assert applied.status_code == 302, slug
            game.refresh_from_db()
        services.next_phase(game, game.version)
    assert game.turn == 2
