"""Who is at a game's page: the owner's page plays side A on two phones, the link to play
side B, the link to watch none; on one phone nobody holds a seat; a link that cannot act
is 404 before anything else."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from django.test import RequestFactory

from armybuilder.games import services
from armybuilder.games.access import Seat, claim_if_free, seat_of

pytestmark = pytest.mark.django_db


def test_on_two_phones_the_owner_plays_a_and_the_link_to_play_b(user, feudal_armies):
    game = services.start_game(user, army_a=feudal_armies[0], army_b=feudal_armies[1], seated=True)
    assert Seat(game).side == "a"
    assert Seat(game, "some-token").side == "b"
    assert Seat(game, "some-token", acts=False).side is None  # the link to watch


def test_on_one_phone_nobody_holds_a_seat(game):
    assert Seat(game).side is None and Seat(game, "some-token").side is None


def test_acting_through_the_link_to_watch_is_404(game):
    view = services.set_link(game, which="view", on=True)
    request = RequestFactory().post("/")
    assert seat_of(request, None, view, acting=False).acts is False
    with pytest.raises(Http404):
        seat_of(request, None, view, acting=True)
    with pytest.raises(Http404):
        seat_of(request, None, "made-up", acting=False)


def test_acting_through_the_link_to_play_held_by_another_device_is_404(user, feudal_armies):
    game = services.start_game(user, army_a=feudal_armies[0], army_b=feudal_armies[1], seated=True)
    play = services.set_link(game, which="play", on=True)
    first = RequestFactory().post("/")
    first.user = AnonymousUser()
    opened = seat_of(first, None, play, acting=False)  # a page opened: nobody's seat yet
    assert (opened.acts, opened.held, opened.free) == (False, False, True)
    assert claim_if_free(opened, first) == ""  # opening never claims
    seat = seat_of(first, None, play, acting=True)
    assert claim_if_free(seat, first) and seat.acts
    assert seat_of(first, None, play, acting=True).side == "b"  # the claimant, at once
    other = RequestFactory().post("/")
    other.user = AnonymousUser()
    held = seat_of(other, None, play, acting=False)
    assert (held.acts, held.held, held.side) == (False, True, None)
    assert claim_if_free(held, other) == ""
    with pytest.raises(Http404):
        seat_of(other, None, play, acting=True)
