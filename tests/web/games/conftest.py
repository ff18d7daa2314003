"""Games between armies of alice's, made through the armies' own services."""

from __future__ import annotations

import pytest
from django.urls import reverse

from armybuilder.armies.services import create_army
from armybuilder.games import kinds, services
from tests.support import army

KNIGHTS = {"name": "Knights", "type": "knights"}
SERJEANTS = {"name": "Serjeants", "type": "serjeants"}
BOWMEN = {"name": "Bowmen", "type": "bowmen"}


@pytest.fixture
def feudal_armies(user):
    """Two Feudal armies of alice's: knights and serjeants each."""
    mine = create_army(army("feudal-2017", [KNIGHTS, SERJEANTS], name="Normans"), owner=user)
    theirs = create_army(army("feudal-2017", [SERJEANTS, KNIGHTS], name="Saxons"), owner=user)
    return mine, theirs


@pytest.fixture
def game(user, feudal_armies):
    return services.start_game(user, army_a=feudal_armies[0], army_b=feudal_armies[1])


@pytest.fixture
def archers_game(user):
    """Normans (bowmen, knights) v Saxons (knights, bowmen): both sides shoot and fight."""
    first = create_army(army("feudal-2017", [BOWMEN, KNIGHTS], name="Normans"), owner=user)
    second = create_army(army("feudal-2017", [KNIGHTS, BOWMEN], name="Saxons"), owner=user)
    return services.start_game(user, army_a=first, army_b=second)


def unit(game, side: str, name: str) -> str:
    """A unit's name in the game: its side and its id in the army document."""
    document = game.side(side)["document"]
    found = [u["id"] for u in document["units"] if u["name"] == name]
    assert len(found) == 1, found
    return f"{side}:{found[0]}"


def to_phase(game, key: str) -> None:
    while game.phase != key:
        services.next_phase(game, version=game.version)


def route(name: str, game=None, token: str = "") -> str:
    """A game's route by its name, the owner's (``game``) or by a link (``token``); a kind
    of action's form by the kind's name (``games.kinds``: "combat" is the Apply form)."""
    acting = name in kinds.KINDS
    if token:
        named = "games:shared" if name == "game" else f"games:shared_{name}"
        return reverse("games:shared_act" if acting else named, args=[token, name][: 1 + acting])
    return reverse("games:act" if acting else f"games:{name}", args=[game.pk, name][: 1 + acting])


def take_seat(client, token: str):
    """This client takes the link to play's seat (the page's button): its answer."""
    return client.post(route("take_seat", token=token))
