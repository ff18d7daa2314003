"""Every URL the resolver serves is declared public, owner-only, token-only, signed-in or
staff in tests/web/routes.py, and answers as declared.

The armies are made through the pages (import, delete, share off), as a player makes them,
so the checks hold whatever the services behind those pages are called.
"""

from __future__ import annotations

import uuid

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import reverse

from armybuilder.armies.models import Army
from armybuilder.badinput import UNDECLARED, allowed_methods
from armybuilder.catalog.models import ArmyList
from armybuilder.games.models import Game, GameSeat
from tests.web.routes import (
    AUTHOR,
    GAME,
    GAME_LINK,
    LIST_UNDELETE,
    OWNER,
    PUBLIC,
    ROUTES,
    SEAT,
    SIGNED_IN,
    STAFF,
    TOKEN,
    UNDELETE,
    Route,
    Samples,
    all_routes,
    ids,
    make_samples,
    routes_of,
    rule_for,
    sample_kwargs,
    signed_in,
    token_for,
    undeclared,
    url_for,
)

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def owner():
    return signed_in("owner")


@pytest.fixture
def samples(owner) -> Samples:
    return make_samples(owner)


def request(client: Client, method: str, url: str, **headers) -> int:
    return getattr(client, method)(url, headers=headers).status_code


def answered(client: Client, url: str) -> tuple[str, object]:
    """GET, or POST for a route that only takes POST: (the method, the response)."""
    response = client.get(url)
    if response.status_code == 405:
        return "post", client.post(url)
    return "get", response


# -- the declaration ----------------------------------------------------------------------------


def test_every_route_the_resolver_serves_is_declared():
    missing = undeclared()
    assert not missing, (
        "routes with no access rule: declare each in tests/web/routes.py ROUTES: " + str(missing)
    )


def test_every_declaration_names_a_route_that_exists():
    keys = {r.key for r in all_routes()}
    namespaces = {r.namespace for r in all_routes()}
    stale = [
        k
        for k in ROUTES
        if (k.endswith(":*") and k[:-2] not in namespaces)
        or (not k.endswith(":*") and k not in keys)
    ]
    assert not stale, f"declared routes the resolver does not serve (moved or renamed?): {stale}"


# -- owner-only ---------------------------------------------------------------------------------


def refused_to_others_but_not_to_the_owner(url: str, owner, client, row) -> None:
    """GET and POST of ``url`` are 404 (or 405) for another user, with or without htmx, and
    for a visitor; the row ``row()`` reads is unchanged; the same URL is not 404 for
    ``owner``, so the 404 was the access rule."""
    before = row()
    intruder = signed_in("mallory")
    refused = []
    for method in ("get", "post"):
        answers = {
            request(intruder, method, url),
            request(intruder, method, url, **HX),
            request(client, method, url),
        }
        assert answers <= {404, 405}, (method, url, answers)
        if answers == {404}:
            refused.append(method)
    assert refused, f"{url} answers neither GET nor POST"
    assert row() == before, "changed by someone else"
    for method in refused:
        assert request(owner, method, url) != 404, (method, url)


@pytest.mark.parametrize("route", routes_of(OWNER), ids=ids(routes_of(OWNER)))
def test_an_owner_route_is_404_for_another_user_and_for_a_visitor(route, owner, samples, client):
    if route.route == UNDELETE:
        owner.post(reverse("armies:delete", args=[samples.army_pk]))
    url = url_for(route, sample_kwargs(route, samples))
    refused_to_others_but_not_to_the_owner(
        url, owner, client, lambda: Army.objects.values().get(pk=samples.army_pk)
    )


def test_owner_routes_include_every_builder_change_and_page():
    declared = {r.key for r in routes_of(OWNER)}
    assert {"armies:roll", "armies:restore", "armies:builder", "printing:army_print"} <= declared


# -- a list's author only ----------------------------------------------------------------------


@pytest.mark.parametrize("route", routes_of(AUTHOR), ids=ids(routes_of(AUTHOR)))
def test_an_author_route_is_404_for_another_user_and_for_a_visitor(route, owner, samples, client):
    url = url_for(route, sample_kwargs(route, samples))
    if route.key == LIST_UNDELETE:
        owner.post(url.replace("/undelete/", "/delete/"))
    refused_to_others_but_not_to_the_owner(
        url, owner, client, lambda: ArmyList.objects.values().get(pk=samples.list_pk)
    )


# -- a game's owner only ------------------------------------------------------------------------


@pytest.mark.parametrize("route", routes_of(GAME), ids=ids(routes_of(GAME)))
def test_a_game_route_is_404_for_another_user_and_for_a_visitor(route, owner, samples, client):
    url = url_for(route, sample_kwargs(route, samples))
    refused_to_others_but_not_to_the_owner(
        url, owner, client, lambda: Game.objects.values().get(pk=samples.game_pk)
    )


# -- a game by an opponent's link -----------------------------------------------------------------


def game_link(route: Route, samples: Samples, token: str) -> str:
    return url_for(route, {**sample_kwargs(route, samples), "token": token})


@pytest.mark.parametrize("route", routes_of(GAME_LINK), ids=ids(routes_of(GAME_LINK)))
def test_a_game_link_route_is_404_for_a_made_up_renewed_or_switched_off_link(
    route, owner, samples, client
):
    assert "token" in route.params, f"{route} takes no token"
    live = game_link(route, samples, samples.game_play_token)
    method, response = answered(client, live)
    assert response.status_code != 404, (method, live)
    assert "no-store" in response["Cache-Control"], live

    def refused(url: str) -> bool:
        return request(client, method, url) == request(client, method, url, **HX) == 404

    assert refused(game_link(route, samples, "made-up-token-that-nobody-issued"))
    assert refused(game_link(route, samples, samples.game_play_token[:-1]))
    links = reverse("games:links", args=[samples.game_pk])
    owner.post(links, {"link": "play", "do": "new"})
    assert refused(live), "a renewed link to play still works"
    renewed = Game.objects.get(pk=samples.game_pk).play_token
    assert request(client, method, game_link(route, samples, renewed)) != 404
    owner.post(links, {"link": "play", "do": "off"})
    assert refused(game_link(route, samples, renewed)), "a link switched off still works"


@pytest.mark.parametrize("route", routes_of(GAME_LINK), ids=ids(routes_of(GAME_LINK)))
def test_the_link_to_watch_reads_but_never_acts(route, samples, client):
    """Its POSTs are 404 (the safe routes 405: they take no POST from anyone), and the
    game is unchanged; a GET route answers it, never stored."""
    url = game_link(route, samples, samples.game_view_token)
    before = Game.objects.values().get(pk=samples.game_pk)
    takes_post = "POST" in (allowed_methods(route.view) or UNDECLARED)
    for headers in ({}, HX):
        answer = client.post(url, {"version": before["version"]}, headers=headers)
        assert answer.status_code == (404 if takes_post else 405), (url, answer.status_code)
    assert Game.objects.values().get(pk=samples.game_pk) == before
    if not takes_post:
        response = client.get(url)
        assert response.status_code == 200 and "no-store" in response["Cache-Control"], url


# -- a game in a player's My games by a link ---------------------------------------------------


@pytest.mark.parametrize("route", routes_of(SEAT), ids=ids(routes_of(SEAT)))
def test_a_seat_route_is_404_for_anyone_but_the_player_whose_seat_it_is(
    route, owner, samples, client
):
    url = url_for(route, sample_kwargs(route, samples))
    # the game's owner holds the game, not this seat: 404 as for anyone else
    assert (request(owner, "get", url), request(owner, "post", url)) == (405, 404)
    holder = Client()
    holder.force_login(User.objects.get(pk=samples.seat_user_pk))
    refused_to_others_but_not_to_the_owner(
        url, holder, client, lambda: GameSeat.objects.values().get(pk=samples.seat_pk)
    )


# -- token-only ---------------------------------------------------------------------------------


def with_token(route: Route, samples: Samples, token: str) -> str:
    kwargs = sample_kwargs(route, samples)
    if "token" in kwargs:
        kwargs["token"] = token
    if "render_id" in kwargs:
        kwargs["render_id"] = uuid.UUID(int=0) if token != samples.token else samples.render_id
    return url_for(route, kwargs)


@pytest.mark.parametrize("route", routes_of(TOKEN), ids=ids(routes_of(TOKEN)))
def test_a_token_route_is_404_for_a_made_up_or_revoked_token(route, owner, samples, client):
    assert {"token", "render_id"} & set(route.params), f"{route} takes no token"
    token = token_for(route, samples)
    live = with_token(route, samples, token)
    method, response = answered(client, live)
    assert response.status_code != 404, (method, live)

    def refused(url: str) -> bool:
        return request(client, method, url) == request(client, method, url, **HX) == 404

    assert refused(with_token(route, samples, "made-up-token-that-nobody-issued"))
    assert refused(with_token(route, samples, token[:-1]))
    if "token" not in route.params:
        return
    if rule_for(route).token_of == "list":
        revoke, stop, again, delete = list_link_steps(owner, samples)
    else:
        revoke, stop, again, delete = army_link_steps(owner, samples)
    renewed = revoke()
    assert refused(live), "a regenerated share link still works"
    assert request(client, method, with_token(route, samples, renewed)) != 404
    stop()
    assert refused(with_token(route, samples, renewed)), "a link still works with sharing off"
    last = again()
    delete()
    assert refused(with_token(route, samples, last)), "a deleted object's link still works"


def army_link_steps(owner: Client, samples: Samples):
    """Regenerate, switch off, share again and delete the sample army, through its pages;
    the first and third answer the army's new token."""
    pk = samples.army_pk

    def renew() -> str:
        owner.post(reverse("armies:share_regenerate", args=[pk]))
        return Army.objects.get(pk=pk).share_token

    return (
        renew,
        lambda: owner.post(reverse("armies:share_off", args=[pk])),
        renew,
        lambda: owner.post(reverse("armies:delete", args=[pk])),
    )


def list_link_steps(owner: Client, samples: Samples):
    """The same for the owner's list shared by link, through its list page's buttons."""
    army_list = ArmyList.objects.get(pk=samples.list_pk)

    def status(to: str):
        return lambda: owner.post(list_url("catalog:list_status", army_list), {"status": to})

    def renew() -> str:
        owner.post(list_url("catalog:list_revoke", army_list))
        return ArmyList.objects.get(pk=army_list.pk).share_token

    def share_again() -> str:
        status("link")()
        return ArmyList.objects.get(pk=army_list.pk).share_token

    return (
        renew,
        status("private"),
        share_again,
        lambda: owner.post(list_url("catalog:list_delete", army_list)),
    )


def list_url(name: str, army_list: ArmyList) -> str:
    return reverse(name, args=[army_list.ruleset, army_list.slug])


# -- public, signed-in, staff -------------------------------------------------------------------


def log_in_url() -> str:
    return resolve_url(settings.LOGIN_URL)  # wherever the accounts pages live


@pytest.mark.parametrize("route", routes_of(PUBLIC), ids=ids(routes_of(PUBLIC)))
def test_a_public_route_answers_a_visitor(route, samples, client):
    url = url_for(route, sample_kwargs(route, samples))
    method, response = answered(client, url)
    assert response.status_code not in (403, 404), (method, url, response.status_code)
    assert not response.get("Location", "").startswith(log_in_url()), (method, url)


@pytest.mark.parametrize("route", routes_of(SIGNED_IN), ids=ids(routes_of(SIGNED_IN)))
def test_a_signed_in_route_sends_a_visitor_to_log_in(route, samples, client):
    url = url_for(route, sample_kwargs(route, samples))
    if route.namespace == "api":  # a JSON change: a visitor is refused, not redirected
        assert client.post(url, content_type="application/json").status_code == 403
        answer = signed_in("player").post(url, content_type="application/json")
        assert answer.status_code not in (302, 403, 404), (url, answer.status_code)
        return
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(log_in_url() + "?next=")
    assert signed_in("player").get(url).status_code == 200


# staff routes that answer a script, not a person: django-rq's queue statistics (JSON)
STAFF_JSON = {"admin:django_rq_home_json"}


@pytest.mark.parametrize("route", routes_of(STAFF), ids=ids(routes_of(STAFF)))
def test_a_staff_route_keeps_out_everyone_but_staff(route, samples, client):
    url = url_for(route, sample_kwargs(route, samples))
    admin_login = reverse("admin:login")
    # asked with a method the view takes (another is a 405 for anyone, badinput.py)
    takes_get = "GET" in (allowed_methods(route.view) or UNDECLARED)
    for visitor in (client, signed_in("player")):
        response = visitor.get(url) if takes_get else visitor.post(url)
        if route.key in STAFF_JSON:  # a script's address: no page to send it to, a 401
            assert response.status_code == 401, (url, response.status_code)
            continue
        # the admin's own wrapper answers everyone but staff alike: off to its log-in page
        assert response.status_code == 302, (url, response.status_code)
        assert response["Location"].startswith(admin_login), (url, response["Location"])


def test_staff_get_into_the_admin(client):
    assert (
        signed_in("boss", is_staff=True, is_superuser=True).get(reverse("admin:index")).status_code
        == 200
    )
    assert client.get(reverse("admin:index")).status_code == 302
