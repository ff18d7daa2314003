"""The link to play held by the first device to take its seat (a POST: opening the link, as a
chat app's link preview does, never claims): anyone else sees the game read-only and their
actions are 404; the owner sees who holds it and releases it; a new link or one
switched off is held by nobody; a solo game and the owner are never held."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from armybuilder.games import claims, services
from armybuilder.games.models import Game
from tests.web.games.conftest import route, take_seat, to_phase, unit

pytestmark = pytest.mark.django_db
HELD = "This seat is held by another phone. Ask the game&#x27;s owner to release it."
TAKE = "Take side Saxons's seat"
ONLY = "Only this phone will play this side until the game's owner releases it."


@pytest.fixture
def seated(user, feudal_armies):
    game = services.start_game(user, army_a=feudal_armies[0], army_b=feudal_armies[1])
    services.choose_seats(game, seated=True, first="b")  # side B's player turn: the link's
    to_phase(game, "melee")
    return game


@pytest.fixture
def play(seated):
    return services.set_link(seated, which="play", on=True)


def combat(game: Game) -> dict[str, str]:
    game.refresh_from_db()
    attacker, target = unit(game, "b", "Knights"), unit(game, "a", "Knights")
    return {"attacker": attacker, "target": target, "die": "3", "version": str(game.version)}


def test_opening_the_link_to_play_claims_nothing_and_offers_the_seat(seated, play):
    phone = Client()
    response = phone.get(route("game", token=play))
    page = response.content.decode()
    assert response.status_code == 200 and claims.COOKIE not in response.cookies
    assert TAKE in page and ONLY in page and HELD not in page
    assert f'action="{route("take_seat", token=play)}"' in page and "csrfmiddlewaretoken" in page
    assert 'aria-label="Attacker: ' not in page and 'data-op="next_phase"' not in page
    assert Game.objects.get(pk=seated.pk).play_claim == ""
    assert HELD not in Client().get(route("game", token=play)).content.decode()


def test_a_preview_between_two_real_opens_claims_nothing(seated, play):
    """A chat app's preview fetches the link with no cookies: the seat stays free for the
    opponent, who takes it after opening the link twice."""
    opponent = Client()
    assert TAKE in opponent.get(route("game", token=play)).content.decode()
    preview = Client(HTTP_USER_AGENT="WhatsApp/2.23.20.0")
    assert TAKE in preview.get(route("game", token=play)).content.decode()
    assert Game.objects.get(pk=seated.pk).play_claim == ""
    assert TAKE in opponent.get(route("game", token=play)).content.decode()
    assert take_seat(opponent, play).status_code == 302
    assert opponent.post(route("combat", token=play), combat(seated)).status_code == 302


def test_a_second_device_taking_the_seat_after_a_claim_is_told_it_is_held(seated, play):
    first, second = Client(), Client()
    assert TAKE in second.get(route("game", token=play)).content.decode()  # both see it
    assert take_seat(first, play).status_code == 302
    refused = take_seat(second, play)
    page = refused.content.decode()
    assert refused.status_code == 409 and HELD in page and TAKE not in page
    assert claims.COOKIE not in refused.cookies
    assert second.post(route("combat", token=play), combat(seated)).status_code == 404
    assert take_seat(first, play).status_code == 302  # its own seat: just its page


def test_taking_the_seat_is_csrf_checked_and_a_post_only(seated, play):
    guarded = Client(enforce_csrf_checks=True)
    assert guarded.post(route("take_seat", token=play)).status_code == 403
    assert guarded.get(route("take_seat", token=play)).status_code == 405
    assert guarded.head(route("take_seat", token=play)).status_code == 405
    assert Game.objects.get(pk=seated.pk).play_claim == ""
    view = services.set_link(seated, which="view", on=True)
    assert Client().post(route("take_seat", token=view)).status_code == 404
    assert Client().post(route("take_seat", token="made-up")).status_code == 404


def test_the_first_device_to_take_the_seat_holds_it_and_keeps_playing(seated, play):
    phone = Client()
    response = take_seat(phone, play)
    assert response.status_code == 302 and response["Location"] == route("game", token=play)
    cookie = response.cookies[claims.COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and cookie["path"] == f"/g/{play}/"
    assert play not in cookie.value  # an unguessable token of its own, signed
    seated.refresh_from_db()
    assert len(seated.play_claim) == 64 and seated.play_claim not in cookie.value
    assert phone.post(route("combat", token=play), combat(seated)).status_code == 302
    assert seated.actions.filter(kind="combat", seat="b").count() == 1
    again = phone.get(route("game", token=play)).content.decode()
    assert HELD not in again and 'action="/g/' in again


def test_another_device_sees_the_game_read_only_and_its_actions_are_404(seated, play):
    take_seat(Client(), play)
    other = Client()
    response = other.get(route("game", token=play))
    page = response.content.decode()
    assert response.status_code == 200 and HELD in page and "You are watching" in page
    assert "<form" not in page and claims.COOKIE not in response.cookies and TAKE not in page
    seated.refresh_from_db()
    version, count = seated.version, seated.actions.count()
    for name in ("work_out", "combat", "next_phase", "undo", "remove"):
        assert other.post(route(name, token=play), combat(seated)).status_code == 404, name
    answer = other.post(route("operations", token=play), b"{}", content_type="application/json")
    assert answer.status_code == 404
    seated.refresh_from_db()
    assert (seated.version, seated.actions.count()) == (version, count)
    assert other.get(route("version", token=play)).json() == {"version": version}


def test_a_signed_in_claimant_plays_from_another_device_of_the_same_account(seated, play):
    bob = get_user_model().objects.create_user("bob", password="a-long-Pass-123")
    first, second = Client(), Client()
    first.force_login(bob)
    second.force_login(bob)
    take_seat(first, play)
    page = second.get(route("game", token=play)).content.decode()
    assert HELD not in page
    assert second.post(route("combat", token=play), combat(seated)).status_code == 302
    assert Client().post(route("combat", token=play), combat(seated)).status_code == 404


def test_the_owner_sees_who_holds_the_seat_and_releases_it_for_the_next_device(
    seated, play, owner_client
):
    page = owner_client.get(reverse("games:game", args=[seated.pk])).content.decode()
    assert "Not held yet" in page
    first = Client()
    first.get(route("game", token=play))
    assert (
        "Not held yet" in owner_client.get(reverse("games:game", args=[seated.pk])).content.decode()
    )
    first.post(route("combat", token=play), combat(seated))  # an action posted claims it too
    page = owner_client.get(reverse("games:game", args=[seated.pk])).content.decode()
    assert "Held by a phone since" in page and "Release the seat" in page
    released = owner_client.post(reverse("games:release_seat", args=[seated.pk]))
    assert released.status_code == 302 and released["Location"].endswith("#links")
    assert seated.actions.filter(kind="combat", seat="b").count() == 1  # nothing lost
    nxt = Client()
    again = nxt.get(route("game", token=play)).content.decode()
    assert HELD not in again and TAKE in again  # the button again
    assert take_seat(nxt, play).status_code == 302
    assert nxt.post(route("combat", token=play), combat(seated)).status_code == 302
    assert first.post(route("combat", token=play), combat(seated)).status_code == 404


def test_the_owner_sees_the_account_that_holds_the_seat(seated, play, owner_client):
    bob = get_user_model().objects.create_user("bob", password="a-long-Pass-123")
    phone = Client()
    phone.force_login(bob)
    take_seat(phone, play)
    page = owner_client.get(reverse("games:game", args=[seated.pk])).content.decode()
    assert "Held by bob since" in page


def test_a_new_link_or_one_switched_off_is_held_by_nobody(seated, play):
    take_seat(Client(), play)
    renewed = services.set_link(seated, which="play", on=True)
    assert Game.objects.get(pk=seated.pk).play_claim == ""
    phone = Client()
    assert HELD not in phone.get(route("game", token=renewed)).content.decode()
    services.set_link(seated, which="play", on=False)
    fresh = Game.objects.get(pk=seated.pk)
    assert (fresh.play_claim, fresh.play_claim_user, fresh.play_claimed_at) == ("", None, None)


@pytest.mark.parametrize(
    "value", ["garbled", "x" * 5000, "abc:def:ghi", "\u00e9\u00e9", "", "a" * 64 + ":1x:zz"]
)
def test_a_forged_or_garbled_claim_cookie_is_read_only_never_an_error(seated, play, value):
    take_seat(Client(), play)
    forger = Client()
    forger.cookies[claims.COOKIE] = value
    response = forger.get(route("game", token=play))
    assert response.status_code == 200 and HELD in response.content.decode()
    assert forger.post(route("combat", token=play), combat(seated)).status_code == 404


def test_a_cookie_signed_for_another_game_does_not_hold_this_one(user, feudal_armies, seated, play):
    other = services.start_game(user, army_a=feudal_armies[0], army_b=feudal_armies[1])
    services.choose_seats(other, seated=True, first="a")
    other_play = services.set_link(other, which="play", on=True)
    phone = Client()
    held_there = take_seat(phone, other_play).cookies[claims.COOKIE].value
    take_seat(Client(), play)
    phone.cookies[claims.COOKIE] = held_there
    assert HELD in phone.get(route("game", token=play)).content.decode()


def test_releasing_is_the_owners_only_and_csrf_checked(seated, play):
    take_seat(Client(), play)
    url = reverse("games:release_seat", args=[seated.pk])
    assert Client().post(url).status_code == 404
    stranger = Client()
    stranger.force_login(get_user_model().objects.create_user("eve", password="a-long-Pass-123"))
    assert stranger.post(url).status_code == 404
    guarded = Client(enforce_csrf_checks=True)
    guarded.force_login(seated.owner)
    assert guarded.post(url).status_code == 403
    assert guarded.get(url).status_code == 405
    assert Game.objects.get(pk=seated.pk).play_claim != ""


def test_a_solo_game_and_the_owner_hold_no_claim(user, feudal_armies, owner_client):
    solo = services.start_game(user, army_a=feudal_armies[0], army_b=feudal_armies[1])
    services.choose_seats(solo, seated=False, first="a")
    play = services.set_link(solo, which="play", on=True)
    assert take_seat(Client(), play).status_code == 302  # nothing to take: just the page
    assert Game.objects.get(pk=solo.pk).play_claim == ""
    page = Client().get(route("game", token=play)).content.decode()
    assert HELD not in page and TAKE not in page and 'aria-label="Target: ' in page
    seated = services.start_game(user, army_a=feudal_armies[0], army_b=feudal_armies[1])
    services.choose_seats(seated, seated=True, first="a")
    link = services.set_link(seated, which="play", on=True)
    owner_client.get(route("game", token=link))
    take_seat(owner_client, link)
    assert Game.objects.get(pk=seated.pk).play_claim == ""


def test_a_get_or_head_request_to_the_link_to_play_claims_nothing(seated, play):
    assert Client().head(route("game", token=play)).status_code == 200
    for _ in range(2):
        assert Client().get(route("game", token=play)).status_code == 200
    assert Game.objects.get(pk=seated.pk).play_claim == ""
