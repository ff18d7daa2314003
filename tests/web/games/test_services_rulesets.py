"""Another rule set's combat through the same services: Into the Dark counts casualties,
rolls a die per four figures and reads the figures fighting, typed by the player."""

from __future__ import annotations

import pytest

from armybuilder.armies.services import create_army
from armybuilder.games import selectors, services
from armybuilder.games.services import Refused
from tests.support import army
from tests.web.games.conftest import to_phase, unit

pytestmark = pytest.mark.django_db


@pytest.fixture
def dark_game(user):
    units = [{"name": "Knights", "quality": "fanatic", "mounted": True}, {"name": "Spears"}]
    picts = create_army(army("into-the-dark", units, name="Picts"), owner=user)
    return services.start_game(user, army_a=picts, army_b=picts)


def test_casualties_add_up_and_the_figures_are_read_from_what_the_player_typed(dark_game):
    to_phase(dark_game, "melee")
    knights, spears = unit(dark_game, "a", "Knights"), unit(dark_game, "b", "Spears")
    with pytest.raises(
        Refused, match=r"Type figures=<number> under Other numbers: the attacking figures"
    ):
        services.work_out(
            dark_game, attacker_id=knights, target_id=spears, modifiers=[], die=(6, 6, 6)
        )
    action = services.apply_combat(dark_game, version=dark_game.version, attacker_id=knights, target_id=spears, modifiers=[], die=(6, 6, 6),
                                   numbers={"figures": 12})  # fmt: skip
    result = action.payload["result"]
    assert (result["unit"], result["hits"]) == ("casualties", 3)  # a 6 always hits
    assert action.payload["numbers"]["figures"] == 12
    again = services.work_out(
        dark_game,
        attacker_id=knights,
        target_id=spears,
        modifiers=[],
        die=(1, 1, 1),
        numbers={"figures": 12},
    )
    assert again.numbers["target_casualties"] == 3  # the casualties so far, from the log
    assert selectors.state_of(dark_game).of(spears).damage == {"casualties": 3}
