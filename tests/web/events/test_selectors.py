"""Nothing of a submitted army leaks before the reveal: every URL of the events app (and
the API's event routes), walked from the resolver, with each kind of visitor, before and
after the reveal time (a frozen clock)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from freezegun import freeze_time

from armybuilder.armies.models import Army
from armybuilder.events import services
from armybuilder.events.models import Entrant, Pack, Submission
from armybuilder.events.tasks import make_pack
from tests.web.events.helpers import DEADLINE, REVEAL, make_event, player, saved_army
from tests.web.routes import EVENT, all_routes, rule_for, url_for

pytestmark = pytest.mark.django_db

SECRET = "Secret Saxon Host"
BEFORE, AFTER = REVEAL - timedelta(hours=1), REVEAL + timedelta(seconds=1)


def event_routes():
    return [r for r in all_routes() if (rule := rule_for(r)) is not None and rule.access == EVENT]


ROUTES = event_routes()


@pytest.fixture
def world():
    organiser, co, alice, bob = (player(n) for n in ("org", "co", "alice", "bob"))
    other, staff = player("other"), player("staff", is_staff=True, is_superuser=True)
    event = make_event(organiser)
    event.co_organisers.add(co)
    secret_entry = services.join(event, user=alice)
    own_entry = services.join(event, user=bob)
    with freeze_time(DEADLINE - timedelta(hours=1)):
        army = saved_army(alice, name=SECRET)
        Army.objects.filter(pk=army.pk).update(share_token="alice-share-token-abcdefghijklmnop")
        secret = services.submit(secret_entry, army=army, by=alice)
        services.submit(own_entry, army=saved_army(bob, name="Bob's own"), by=bob)
    Submission.objects.filter(pk=secret.pk).update(state=Submission.APPROVED)
    return {
        "pack": ready_pack(event, organiser),
        "event": event,
        "secret": secret,
        "secret_entry": secret_entry,
        "users": {
            "organiser": organiser,
            "co-organiser": co,
            "entrant": bob,
            "other": other,
            "staff": staff,
        },
    }


_PACK: dict[str, object] = {}


def ready_pack(event, organiser) -> int:
    """A ready pack holding the secret army. Rendered by the worker's task the first time in
    this process (run at once in tests); every later world is the same event and army, so
    its pack stores the same PDF rather than rendering it again (tests/web/events/
    test_pack.py is where packs are rendered and read)."""
    pack = Pack.objects.create(event=event, requested_by=organiser)
    if _PACK:
        Pack.objects.filter(pk=pack.pk).update(**_PACK, finished=timezone.now())
    else:
        make_pack.enqueue(pack.pk)
        pack.refresh_from_db()
        assert pack.status == Pack.READY, pack.error
        _PACK.update(status=pack.status, pdf=bytes(pack.pdf), total=pack.total, done=pack.done)
    return pack.pk


def client_of(user):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def answer(client, url):
    response = client.get(url)
    if response.status_code == 405:
        response = client.post(url)
    return response


def kwargs_for(route, world, *, submission=None):
    values = {
        "code": world["event"].code,
        "submission": submission if submission is not None else world["secret"].pk,
        "entrant": world["secret_entry"].pk,
        "action": "note",
        "pack": world["pack"],
    }
    return {p: values[p] for p in route.params}


ACTORS = ["anonymous", "entrant", "other", "staff", "organiser", "co-organiser"]
RUNS = {"organiser", "co-organiser"}


def body(response) -> str:
    if response.get("Content-Type", "").startswith("application/pdf"):
        import io

        from pypdf import PdfReader

        return "".join(
            page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages
        )
    return response.content.decode(errors="replace")


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("moment", ["before", "after"])
def test_no_route_shows_another_players_army_before_the_reveal(world, actor, moment):
    user = None if actor == "anonymous" else world["users"][actor]
    revealed = moment == "after"
    with freeze_time(AFTER if revealed else BEFORE):
        client = client_of(user)  # signed in on the frozen day: its session is live then
        for route in ROUTES:
            url = url_for(route, kwargs_for(route, world))
            response = answer(client, url)
            assert "ETag" not in response, url
            if response.status_code != 404:  # the site's one 404 page, the same for all
                assert "no-store" in response.get("Cache-Control", ""), url
            text = body(response)
            may_see = actor in RUNS or (revealed and actor == "entrant")
            if not may_see:
                assert SECRET not in text, (actor, moment, url)
            if "submission" in route.params:
                # the secret submission and a made-up id answer alike to whoever may not see it
                made_up = url_for(
                    route, kwargs_for(route, world, submission=world["secret"].pk + 1000)
                )
                if not may_see:
                    assert response.status_code == 404, (actor, moment, url)
                    assert answer(client, made_up).status_code == 404
                elif route.key.endswith(("submission", "submission_file")):
                    assert response.status_code == 200 and SECRET in text, (actor, moment, url)
            if "entrant" in route.params and actor not in RUNS:
                assert response.status_code == 404, (actor, url)


@pytest.mark.parametrize("moment", ["before", "after"])
def test_the_event_page_lists_approved_armies_only_to_whom_may_see_them(world, moment):
    with freeze_time(AFTER if moment == "after" else BEFORE):
        url = reverse("events:event", args=[world["event"].code])
        for actor in ACTORS:
            user = None if actor == "anonymous" else world["users"][actor]
            page = client_of(user).get(url).content.decode()
            shown = actor in RUNS or (moment == "after" and actor == "entrant")
            assert (SECRET in page) is shown, (actor, moment)
            assert "2 players entered" in page


def test_a_public_event_shows_approved_armies_to_anyone_after_the_reveal(world):
    event = world["event"]
    event.public_after_reveal = True
    event.save()
    url = reverse("events:submission", args=[event.code, world["secret"].pk])
    with freeze_time(BEFORE):
        assert Client().get(url).status_code == 404
    with freeze_time(AFTER):
        assert SECRET in Client().get(url).content.decode()


def test_a_submission_not_approved_stays_hidden_after_the_reveal(world):
    Submission.objects.filter(pk=world["secret"].pk).update(state=Submission.NEEDS_CHANGES)
    url = reverse("events:submission", args=[world["event"].code, world["secret"].pk])
    with freeze_time(AFTER):
        assert client_of(world["users"]["entrant"]).get(url).status_code == 404


def test_a_withdrawn_entrant_no_longer_sees_the_revealed_armies(world):
    Entrant.objects.filter(user=world["users"]["entrant"]).update(state=Entrant.WITHDRAWN)
    url = reverse("events:submission", args=[world["event"].code, world["secret"].pk])
    with freeze_time(AFTER):
        assert client_of(world["users"]["entrant"]).get(url).status_code == 404


def test_the_armys_own_share_link_hides_it_until_the_reveal(world):
    token = "alice-share-token-abcdefghijklmnop"
    urls = [
        reverse("armies:shared", args=[token]),
        reverse("armies:shared_json", args=[token]),
        reverse("printing:shared_roster", args=[token]),
    ]
    with freeze_time(BEFORE):
        for url in urls:
            assert Client().get(url).status_code == 404, url
    with freeze_time(AFTER):
        for url in urls:
            assert Client().get(url).status_code == 200, url


@pytest.fixture
def rolled_world():
    organiser, co, bob, other = (player(n) for n in ("org", "co", "bob", "other"))
    staff = player("staff", is_staff=True, is_superuser=True)
    event = make_event(
        organiser,
        ruleset="feudal-2017",
        lists=["north-welsh"],
        points_limit=None,
        restrictions=[],
        forces_rolled=True,
    )
    event.co_organisers.add(co)
    entrant = services.join(event, user=bob)
    with freeze_time(DEADLINE - timedelta(hours=1)):
        rolled = services.roll_force(entrant, army_list=event.allowed_lists.get().army_list, by=bob)
    Submission.objects.filter(pk=rolled.pk).update(state=Submission.APPROVED)
    pack = Pack.objects.create(event=event, requested_by=organiser)
    make_pack.enqueue(pack.pk)
    users = {"organiser": organiser, "co-organiser": co, "entrant": bob, "other": other}
    users["staff"] = staff
    world = {"pack": pack.pk, "event": event, "secret": rolled, "secret_entry": entrant}
    return {**world, "users": users}


@pytest.mark.parametrize("actor", ACTORS)
def test_a_rolled_forces_seed_is_on_no_route_before_the_reveal(rolled_world, actor):
    """Its own player and the organisers included: page, export, API and PDF."""
    seed = str(rolled_world["secret"].roll_seed)
    user = None if actor == "anonymous" else rolled_world["users"][actor]
    with freeze_time(BEFORE):
        client = client_of(user)
        for route in ROUTES:
            url = url_for(route, kwargs_for(route, rolled_world))
            assert seed not in body(answer(client, url)), (actor, url)
    with freeze_time(AFTER):
        client = client_of(rolled_world["users"]["entrant"])
        url = reverse(
            "events:submission", args=[rolled_world["event"].code, rolled_world["secret"].pk]
        )
        assert f"seed {seed}" in client.get(url + "army.json").content.decode()


def test_a_render_id_learnt_through_the_share_link_answers_no_one_else_after_submission():
    from armybuilder.printing.models import RenderGrant

    organiser, alice, bob = player("org"), player("alice"), player("bob")
    event = make_event(organiser)
    alice_entry, bob_entry = services.join(event, user=alice), services.join(event, user=bob)
    army = saved_army(alice, name=SECRET)
    token = "alice-share-token-abcdefghijklmnop"
    Army.objects.filter(pk=army.pk).update(share_token=token)
    with freeze_time(DEADLINE - timedelta(hours=2)):
        bob_client = client_of(bob)
        bob_client.get(reverse("printing:shared_roster_pdf", args=[token]))
        render_id = RenderGrant.objects.get(share_token=token).render_id
        urls = [
            reverse("printing:status", args=[render_id]),
            reverse("printing:download", args=[render_id]),
            reverse("printing:api_status", args=[render_id]),
        ]
        assert bob_client.get(urls[0]).status_code == 200  # the link holds: not submitted
        army.refresh_from_db()
        services.submit(alice_entry, army=army, by=alice)
        for url in urls:
            for client in (bob_client, Client()):
                assert client.get(url).status_code == 404, url
        assert client_of(alice).get(urls[0]).status_code != 404  # her own army's sheet
    assert bob_entry.pk
    with freeze_time(AFTER):
        assert client_of(bob).get(urls[0]).status_code == 200  # revealed: the link holds again


def test_a_render_id_under_embargo_costs_the_queries_a_made_up_one_does():
    """Learnt through the share link before the army was submitted, the render id answers
    another entrant after submission as a made-up id does: the same queries, the same 404."""
    import uuid

    from armybuilder.printing.models import RenderGrant
    from tests.support import query_shapes

    organiser, alice, bob = player("org"), player("alice"), player("bob")
    event = make_event(organiser)
    alice_entry = services.join(event, user=alice)
    services.join(event, user=bob)
    army = saved_army(alice, name=SECRET)
    token = "alice-share-token-abcdefghijklmnop"
    Army.objects.filter(pk=army.pk).update(share_token=token)
    names = ("printing:status", "printing:download", "printing:api_status")
    with freeze_time(DEADLINE - timedelta(hours=2)):
        bob_client = client_of(bob)
        bob_client.get(reverse("printing:shared_roster_pdf", args=[token]))
        hidden = RenderGrant.objects.get(share_token=token).render_id
        army.refresh_from_db()
        services.submit(alice_entry, army=army, by=alice)
        for client in (bob_client, Client()):
            answers = [
                query_shapes(client, [reverse(name, args=[render_id]) for name in names])
                for render_id in (hidden, uuid.uuid4())
            ]
            assert answers[0] == answers[1]
            assert answers[0][0] == [404, 404, 404]


PRIVATE_NAME = "Viking (Great Army)"


def withdraw_viking(how: str, author=None):
    """The author of the (published) Viking list makes it private or deletes it."""
    from armybuilder.catalog import list_lifecycle
    from armybuilder.catalog.models import ArmyList

    author = author or player("author")
    found = ArmyList.objects.filter(ruleset="into-the-dark", slug="viking")
    found.update(author=author, status="published")
    if how == "private":
        found.update(status="private")
    else:
        list_lifecycle.delete_list(author, found.get())


@pytest.mark.parametrize("how", ["private", "deleted"])
@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("moment", ["before", "after"])
def test_a_list_made_private_or_deleted_after_it_was_pinned_is_read_by_no_route(
    world, actor, moment, how
):
    """Its author published the list, the event pinned it, then the author made it
    private or deleted it: every route, for everyone, shows it no more (the submissions
    made on it keep their own copy: only their pages and the pack name it), and nothing
    new is built or pinned on it."""
    withdraw_viking(how)
    user = None if actor == "anonymous" else world["users"][actor]
    with freeze_time(AFTER if moment == "after" else BEFORE):
        client = client_of(user)
        for route in ROUTES:
            url = url_for(route, kwargs_for(route, world))
            response = answer(client, url)
            assert response.status_code < 500, url
            if "submission" in route.params or route.key.startswith(
                ("events:pack", "events:desk_csv")
            ):
                continue  # a submission made on it keeps its copy (its page, pack, CSV row)
            text = body(response)
            assert PRIVATE_NAME not in text and '"slug": "viking"' not in text, (actor, url)
    rules = json.loads(
        Client().get(reverse("events:rules_file", args=[world["event"].code])).content
    )
    assert [item["slug"] for item in rules["lists"]] == ["anglo-danish-1066"]


@pytest.mark.parametrize("how", ["private", "deleted"])
def test_nothing_new_is_pinned_or_submitted_on_a_list_made_private_or_deleted(world, how):
    bob = world["users"]["entrant"]
    entry = Entrant.objects.get(user=bob)
    with freeze_time(DEADLINE - timedelta(hours=2)):
        army = saved_army(bob, name="On the list before it went private")
    withdraw_viking(how)
    with freeze_time(DEADLINE - timedelta(hours=2)):
        client = client_of(bob)
        pinned = client.post(
            reverse("events:pin", args=[world["event"].code]),
            {"army": army.pk, "list": "viking"},
            follow=True,
        )
        assert "one of the event&#x27;s lists" in pinned.content.decode()
        with pytest.raises(services.Refused):
            services.submit(entry, army=army, by=bob)


def test_submit_on_behalf_takes_no_army_the_entrant_never_offered_nor_of_another_rule_set(
    world,
):
    """The organiser posts ids of the entrant's other armies: a private one never offered,
    and one of another rule set. Both are refused, and neither is then served anywhere."""
    from armybuilder.armies.making.lifecycle import create_army
    from tests.support import example

    bob = world["users"]["entrant"]
    entry = Entrant.objects.get(user=bob)
    private = saved_army(bob, name="Bob's private host")
    other_ruleset = create_army(example("dewitt-medieval-lance-and-bow.json"), owner=bob)
    before = set(entry.submissions.values_list("pk", flat=True))
    with freeze_time(DEADLINE - timedelta(hours=2)):
        client = client_of(world["users"]["organiser"])
        url = reverse("events:entrant_action", args=[world["event"].code, entry.pk, "submit"])
        for army in (private, other_ruleset):
            client.post(url, {"army": army.pk})
    assert set(entry.submissions.values_list("pk", flat=True)) == before
    with freeze_time(AFTER):
        client = client_of(world["users"]["organiser"])
        for route in ROUTES:
            text = body(answer(client, url_for(route, kwargs_for(route, world))))
            assert "Bob's private host" not in text and other_ruleset.name not in text
