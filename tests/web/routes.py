"""Who may use each URL Muster serves: one declaration per route, read by the route tests.

The route tests (tests/web/test_routes_access.py, tests/web/test_routes_csrf.py) walk every
URL pattern the resolver knows and look each one up here by its ``namespace:name``. A route
missing from ``ROUTES`` fails the suite, so a new view cannot ship without someone saying who
may use it. The table lives in the tests, not as a decorator on the views, on purpose: the
views keep no test-only bookkeeping, and a route moved to another app or module only changes
its key here.

Access classes:

- ``PUBLIC``: anyone, signed in or not (a visitor's own drafts are found through the session).
- ``OWNER``: one army, named by ``pk``: its owner (or the visitor whose draft it is) only;
  another user and an anonymous visitor get 404, never 403 or a log-in page, so a URL does
  not tell whether the army exists.
- ``TOKEN``: a capability in the URL (a share token, a render id): anyone holding it; a
  made-up, regenerated, switched-off or deleted army's (or army list's) token is 404, and
  so is a render id once what led to it no longer holds (``printing.access``; the sample
  render was reached through the sample army's share link).
- ``AUTHOR``: one army list of a player's, named by ``slug`` and ``list_slug``: its author
  (and staff) only; anyone else gets 404, as for ``OWNER``.
- ``SIGNED_IN``: the visitor's own account: anonymous visitors are sent to log in.
- ``STAFF``: the admin: everyone but staff is sent to the admin's log-in page.
- ``EVENT``: one club event, named by its ``code``: what each visitor may see depends on who
  they are to the event and on its reveal time; tests/web/events/test_selectors.py walks
  every such route with each kind of visitor before and after the reveal.
- ``GAME``: one game at the table, named by ``game``: its owner only; anyone else, signed in
  or not, gets 404, as for ``OWNER``.
- ``GAME_LINK``: one game by an opponent's link (``token``): anyone holding it, account or
  not; a made-up, renewed or switched-off token is 404. The link to play answers every
  route; the link to watch only the safe ones (its POSTs are 404). The sample is the link
  to play.
- ``SEAT``: a game in a player's My games by a link (``seat``): that player only; anyone
  else, the game's owner too, signed in or not, gets 404. The sample is the seat another
  player (``Samples.seat_user_pk``) took by opening the sample game's link to watch.

To add a route: one line in ``ROUTES`` (and, if its URL takes a parameter whose name is new,
a sample value in ``sample_kwargs``).
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from django.urls.resolvers import RoutePattern
from django.utils import timezone
from django.utils.regex_helper import normalize

from armybuilder.armies.models import Army
from armybuilder.catalog import services
from armybuilder.catalog.models import ArmyList
from armybuilder.games.models import Game, GameSeat
from armybuilder.printing.models import Render, RenderGrant
from tests.support import army

PUBLIC, OWNER, TOKEN, SIGNED_IN, STAFF = "public", "owner", "token", "signed-in", "staff"
AUTHOR = "author"
EVENT = "event"
GAME = "game"
GAME_LINK = "game-link"
SEAT = "seat"


@dataclass(frozen=True)
class Rule:
    access: str
    # Why this route takes a POST without a CSRF token (empty: it must not).
    csrf_exempt: str = ""
    # Whose share token a TOKEN route's ``token`` is: an army's or an army list's (a
    # GAME_LINK route's is a game's link to play).
    token_of: str = "army"


STATELESS_API = "stateless JSON API: reads no cookies or session, changes nothing stored"
READ_ONLY_API = "read-only JSON API: GET only, so another method is 405, not a CSRF refusal"

ROUTES: dict[str, Rule] = {
    # catalog: the rule sets and their army lists
    "catalog:home": Rule(PUBLIC),
    "catalog:ruleset": Rule(PUBLIC),
    "catalog:army_list": Rule(PUBLIC),
    "catalog:shared_list": Rule(TOKEN, token_of="list"),
    "catalog:shared_list_copy": Rule(TOKEN, token_of="list"),
    "catalog:list_copy": Rule(SIGNED_IN),
    "catalog:list_status": Rule(AUTHOR),
    "catalog:list_revoke": Rule(AUTHOR),
    "catalog:list_delete": Rule(AUTHOR),
    "catalog:list_undelete": Rule(AUTHOR),  # its list is one its author deleted
    "catalog:list_edit": Rule(AUTHOR),
    "catalog:list_operations": Rule(AUTHOR),
    "catalog:list_version": Rule(AUTHOR),
    "catalog:list_history": Rule(AUTHOR),
    "catalog:list_compare": Rule(AUTHOR),
    "catalog:list_restore": Rule(AUTHOR),
    "catalog:list_new": Rule(SIGNED_IN),
    # JSON API
    "api:check": Rule(PUBLIC, csrf_exempt=STATELESS_API),
    "api:hits": Rule(PUBLIC, csrf_exempt=STATELESS_API),
    "api:rulesets": Rule(PUBLIC, csrf_exempt=READ_ONLY_API),
    "api:ruleset": Rule(PUBLIC, csrf_exempt=READ_ONLY_API),
    "api:roster_pdf": Rule(PUBLIC, csrf_exempt=STATELESS_API),
    "api:qrs_pdf": Rule(PUBLIC, csrf_exempt=STATELESS_API),
    "api:openapi": Rule(PUBLIC, csrf_exempt=READ_ONLY_API),
    "api:list": Rule(PUBLIC),
    "api:list_import": Rule(SIGNED_IN),
    "api:list_copy": Rule(SIGNED_IN),
    "api:event": Rule(EVENT),
    "api:event_entrants": Rule(EVENT),
    "api:event_armies": Rule(EVENT),
    "api:event_army": Rule(EVENT),
    "api:game": Rule(GAME),
    # printing: an army's sheets, a shared army's sheets, a rule set's QRS, background renders
    "printing:army_roster_pdf": Rule(OWNER),
    "printing:army_qrs_pdf": Rule(OWNER),
    "printing:army_roster": Rule(OWNER),
    "printing:army_qrs": Rule(OWNER),
    "printing:army_print": Rule(OWNER),
    "printing:shared_roster_pdf": Rule(TOKEN),
    "printing:shared_qrs_pdf": Rule(TOKEN),
    "printing:shared_roster": Rule(TOKEN),
    "printing:shared_qrs": Rule(TOKEN),
    "printing:ruleset_qrs_pdf": Rule(PUBLIC),
    "printing:ruleset_qrs": Rule(PUBLIC),
    "printing:status": Rule(TOKEN),
    "printing:download": Rule(TOKEN),
    "printing:api_status": Rule(TOKEN, csrf_exempt=READ_ONLY_API),
    # armies: my armies, new, import (a visitor gets drafts), then one army's pages and changes
    "armies:list": Rule(PUBLIC),
    "armies:new": Rule(PUBLIC),
    "armies:list_options": Rule(PUBLIC),
    "armies:start": Rule(PUBLIC),
    "armies:find": Rule(PUBLIC),
    "armies:import": Rule(PUBLIC),
    "armies:builder": Rule(OWNER),
    "armies:export": Rule(OWNER),
    "armies:version": Rule(OWNER),
    "armies:duplicate": Rule(OWNER),
    "armies:delete": Rule(OWNER),
    "armies:list_upgrade": Rule(OWNER),
    "armies:list_upgrade_accept": Rule(OWNER),
    "armies:list_upgrade_undo": Rule(OWNER),
    # two routes share this name: undoing a delete, and going back to an earlier version
    "armies:restore": Rule(OWNER),
    "armies:settings": Rule(OWNER),
    "armies:roll": Rule(OWNER),
    "armies:undo": Rule(OWNER),
    "armies:history": Rule(OWNER),
    "armies:compare": Rule(OWNER),
    "armies:name_snapshot": Rule(OWNER),
    "armies:restore_snapshot": Rule(OWNER),
    "armies:share_regenerate": Rule(OWNER),
    "armies:share_off": Rule(OWNER),
    "armies:add_item": Rule(OWNER),
    "armies:edit_item": Rule(OWNER),
    "armies:editor": Rule(OWNER),
    "armies:operations": Rule(OWNER),
    "armies:duplicate_item": Rule(OWNER),
    "armies:move_item": Rule(OWNER),
    "armies:delete_item": Rule(OWNER),
    "armies:shared": Rule(TOKEN),
    "armies:shared_json": Rule(TOKEN),
    "armies:copy": Rule(TOKEN),
    # club events: the organiser's and the players' pages of one event, by its code
    "events:mine": Rule(SIGNED_IN),
    "events:new": Rule(SIGNED_IN),
    "events:join": Rule(PUBLIC),
    "events:event": Rule(EVENT),
    "events:edit": Rule(EVENT),
    "events:enter": Rule(EVENT),
    "events:games": Rule(EVENT),
    "events:entry": Rule(EVENT),
    "events:submit": Rule(EVENT),
    "events:pin": Rule(EVENT),
    "events:roll": Rule(EVENT),
    "events:reply": Rule(EVENT),
    "events:desk": Rule(EVENT),
    "events:reopen": Rule(EVENT),
    "events:desk_csv": Rule(EVENT),
    "events:entrant_action": Rule(EVENT),
    "events:submission": Rule(EVENT),
    "events:submission_file": Rule(EVENT),
    "events:rules_file": Rule(EVENT),
    "events:flyer": Rule(EVENT),
    "events:pack": Rule(EVENT),
    "events:pack_pdf": Rule(EVENT),
    # games at the table: my games (and starting one), one game's page, forms and file
    "games:mine": Rule(SIGNED_IN),
    "games:game": Rule(GAME),
    "games:work_out": Rule(GAME),
    "games:export": Rule(GAME),
    "games:version": Rule(GAME),
    "games:summary_pdf": Rule(GAME),
    "games:links": Rule(GAME),
    "games:release_seat": Rule(GAME),
    "games:offers": Rule(GAME),
    # every kind of action's form, one route (games.kinds)
    "games:act": Rule(GAME),
    "games:operations": Rule(GAME),
    "games:shared": Rule(GAME_LINK),
    "games:shared_take_seat": Rule(GAME_LINK),
    "games:shared_work_out": Rule(GAME_LINK),
    "games:shared_operations": Rule(GAME_LINK),
    "games:shared_act": Rule(GAME_LINK),
    "games:shared_export": Rule(GAME_LINK),
    "games:shared_version": Rule(GAME_LINK),
    "games:shared_offers": Rule(GAME_LINK),
    "games:shared_summary_pdf": Rule(GAME_LINK),
    "games:forget_seat": Rule(SEAT),
    # accounts
    "signup": Rule(PUBLIC),
    "login": Rule(PUBLIC),
    "logout": Rule(PUBLIC),
    "password_change": Rule(SIGNED_IN),
    "password_change_done": Rule(SIGNED_IN),
    # operations
    "healthz": Rule(PUBLIC),
    "healthz-redis": Rule(PUBLIC),
    "healthz-workers": Rule(PUBLIC),
    "manifest": Rule(PUBLIC),
    "service_worker": Rule(PUBLIC),
    "favicon": Rule(PUBLIC),
    # the admin: every route of its namespace is staff-only, but for its own log-in page
    "admin:*": Rule(STAFF),
    "admin:login": Rule(PUBLIC),
    # signs out whoever asks (nobody signed in: sent to the admin's front page)
    "admin:logout": Rule(PUBLIC),
}

# The undelete route (it shares its name): its army is a deleted one the owner may restore.
UNDELETE = "/armies/<int:pk>/restore/"
# Likewise a list's: the sample list must be deleted first for its author to reach it.
LIST_UNDELETE = "catalog:list_undelete"


@dataclass(frozen=True)
class Route:
    """One URL pattern as the resolver serves it."""

    key: str  # namespace:name, or namespace:<route> for an unnamed pattern
    namespace: str
    named: bool
    route: str  # the whole pattern, prefixes included
    pattern: URLPattern
    params: tuple[str, ...]

    @property
    def view(self) -> Any:
        return self.pattern.callback

    def __str__(self) -> str:
        return f"{self.key} ({self.route})"


def _params(pattern: Any) -> tuple[str, ...]:
    if isinstance(pattern, RoutePattern):  # a path() route
        return tuple(pattern.converters)
    return tuple(pattern.regex.groupindex)  # a re_path() regex


def _walk(patterns: list[Any], namespace: str, prefix: str, params: tuple[str, ...]):
    for entry in patterns:
        route = prefix + str(entry.pattern).lstrip("^").rstrip("$")
        here = params + _params(entry.pattern)
        if isinstance(entry, URLResolver):
            inner = namespace
            if entry.namespace:
                inner = f"{namespace}:{entry.namespace}" if namespace else entry.namespace
            yield from _walk(entry.url_patterns, inner, route, here)
        elif isinstance(entry, URLPattern):
            name = entry.name or f"<{route}>"
            key = f"{namespace}:{name}" if namespace else name
            yield Route(key, namespace, entry.name is not None, route, entry, here)


def all_routes() -> list[Route]:
    """Every URL pattern of the project, walked from the root resolver."""
    return list(_walk(get_resolver().url_patterns, "", "/", ()))


def rule_for(route: Route) -> Rule | None:
    """The route's own declaration, else its namespace's (``ns:*``), else None."""
    if route.key in ROUTES:
        return ROUTES[route.key]
    return ROUTES.get(f"{route.namespace}:*") if route.namespace else None


def routes_of(access: str) -> list[Route]:
    return [r for r in all_routes() if (rule := rule_for(r)) is not None and rule.access == access]


@dataclass
class Samples:
    """The objects a route's parameters point at (see ``sample_kwargs``)."""

    army_pk: int
    token: str
    render_id: uuid.UUID
    list_slug: str
    user_pk: int
    list_pk: int  # the owner's own list, shared by link
    list_token: str
    own_list_slug: str
    snapshot_pk: int
    unit_id: str = ""  # the army's unit, by its stable id
    game_pk: int = 0  # a game of the owner's, the sample army on both sides
    game_view_token: str = ""  # the game's links, both on
    game_play_token: str = ""
    ruleset: str = "into-the-dark"
    seat_pk: int = 0  # the sample game in another player's My games, by the link to watch
    seat_user_pk: int = 0


def sample_kwargs(route: Route, samples: Samples) -> dict[str, Any]:
    """A value for each of the route's parameters that names a real object."""
    values: dict[str, Any] = {
        "pk": samples.army_pk,
        "kind": "units",
        "item_id": samples.unit_id,
        "version": 1,
        "token": token_for(route, samples),
        "slug": samples.ruleset,
        "list_slug": (samples.own_list_slug if rule_access(route) == AUTHOR else samples.list_slug),
        "render_id": samples.render_id,
        "snapshot": samples.snapshot_pk,
        "number": 1,  # a list's first revision
        # an event's routes (EVENT) are walked by tests/web/events with real events
        "code": "NOEVENTCODE",
        "entrant": 1,
        "action": "checkin",
        "submission": 1,
        "pack": 1,
        "game": samples.game_pk,
        "op": "next_phase",  # a kind of game action (games.kinds)
        "seat": samples.seat_pk,
    }
    if "ruleset" in route.params:  # the API names a list by its rule set and its own slug
        values.update(ruleset=samples.ruleset, slug=samples.list_slug)
    if route.namespace == "admin":
        # the admin's own and its plug-ins' parameters (queue and job ids...): any value will
        # do, the test only shows that nobody but staff gets past the admin's log-in
        admin = {"app_label": "auth", "object_id": str(samples.user_pk)}
        return {p: admin.get(p, "1") for p in route.params}
    missing = [p for p in route.params if p not in values]
    assert not missing, f"{route}: add a sample value for {missing} in tests/web/routes.py"
    return {p: values[p] for p in route.params}


def rule_access(route: Route) -> str:
    rule = rule_for(route)
    return rule.access if rule is not None else ""


def token_for(route: Route, samples: Samples) -> str:
    """The live share token a route's ``token`` parameter takes (an army's or a list's)."""
    rule = rule_for(route)
    if rule is not None and rule.access == GAME_LINK:
        return samples.game_play_token
    return samples.list_token if rule is not None and rule.token_of == "list" else samples.token


_PARAM = re.compile(r"<(?:\w+:)?(\w+)>")


def url_for(route: Route, kwargs: dict[str, Any]) -> str:
    """The route's URL with ``kwargs`` (a sample for each parameter)."""
    if route.named:
        return reverse(route.key, kwargs=kwargs)
    if "(" in route.route:  # a regex: written out the way reverse() does it
        (template, _), *_ = normalize(route.route)
        return template % {k: str(v) for k, v in kwargs.items()}
    return _PARAM.sub(lambda m: str(kwargs[m.group(1)]), route.route)


def undeclared() -> list[str]:
    return sorted({str(r) for r in all_routes() if rule_for(r) is None})


def ids(routes: list[Route]) -> list[str]:
    return [str(r) for r in routes]


# -- the objects the sample URLs name (a database is needed from here on) ------------------------


def signed_in(username: str, **extra: Any) -> Client:
    client = Client()
    client.force_login(User.objects.create_user(username, **extra))  # no password: no hashing
    return client


def import_army(client: Client) -> Army:
    """An Into the Dark army with one unit, imported through the import page as a player
    would, so the route tests hold whatever the services behind the pages are called."""
    doc = army("into-the-dark", [{"name": "Knights", "quality": "fanatic", "mounted": True}])
    upload = SimpleUploadedFile("army.json", json.dumps(doc).encode(), "application/json")
    response = client.post(reverse("armies:import"), {"document": upload})
    assert response.status_code == 302, response.content[:500]
    return Army.objects.get(pk=resolve(response["Location"].split("#")[0]).kwargs["pk"])


def make_samples(owner: Client) -> Samples:
    """An army of ``owner``'s (shared, with a named snapshot), a render in the queue reached
    through its share link, and an army list."""
    saved = import_army(owner)
    assert owner.post(reverse("armies:share_regenerate", args=[saved.pk])).status_code < 400
    saved.refresh_from_db()
    assert saved.share_token
    render = Render.objects.create(
        key="route-test", spec={}, filename="test.pdf", queued=timezone.now()
    )
    # reached through the army's share link: its id answers while that link works
    RenderGrant.objects.create(render=render, army=saved, share_token=saved.share_token)
    army_list = ArmyList.objects.filter(ruleset="into-the-dark").first()
    assert army_list is not None
    own = services.copy_list(saved.owner, army_list=army_list).army_list
    own = services.set_status(saved.owner, army_list=own, status=services.LINK)
    assert own.share_token
    snapshot = saved.snapshots.create(name="sample", version=1, document=saved.document)
    started = owner.post(reverse("games:mine"), {"army_a": saved.pk, "army_b": saved.pk})
    assert started.status_code == 302, started.content[:500]
    game_pk = int(resolve(started["Location"].split("#")[0]).kwargs["game"])
    for which in ("view", "play"):
        made = owner.post(reverse("games:links", args=[game_pk]), {"link": which, "do": "new"})
        assert made.status_code == 302, made.content[:500]
    links = Game.objects.values("view_token", "play_token").get(pk=game_pk)
    # another player opens the link to watch: the game is in their My games (a seat)
    watcher = User.objects.create_user("seat-holder")
    seated = Client()
    seated.force_login(watcher)
    assert seated.get(reverse("games:shared", args=[links["view_token"]])).status_code == 200
    seat = GameSeat.objects.get(game_id=game_pk, user=watcher)
    return Samples(
        army_pk=saved.pk,
        token=saved.share_token,
        render_id=render.pk,
        list_slug=army_list.slug,
        user_pk=saved.owner_id,
        list_pk=own.pk,
        list_token=own.share_token,
        own_list_slug=own.slug,
        snapshot_pk=snapshot.pk,
        unit_id=saved.document["units"][0]["id"],
        game_pk=game_pk,
        game_view_token=links["view_token"],
        game_play_token=links["play_token"],
        seat_pk=seat.pk,
        seat_user_pk=watcher.pk,
    )
