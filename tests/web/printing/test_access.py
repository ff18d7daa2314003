"""A render's id answers only while what led to it holds: a sheet reached through a share
link dies with the link (regenerated, switched off, army deleted), and a sheet of a
private army is its owner's alone. Every route that serves a render by id is tried."""

import uuid

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from armybuilder.armies.models import Army, new_share_token
from armybuilder.printing.models import Render
from tests.support import army, query_shapes

pytestmark = pytest.mark.django_db

PDF = b"%PDF-1.7 a stand-in for the rendered sheet"


@pytest.fixture(autouse=True)
def _renders_wait_in_the_queue(settings):
    """Nothing renders: the test marks each render ready itself, so every route has a PDF."""
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}


def _ready(render_id) -> None:
    Render.objects.filter(pk=render_id).update(status=Render.READY, pdf=PDF)


def render_routes(render_id) -> list[str]:
    return [
        reverse("printing:status", args=[render_id]),
        reverse("printing:download", args=[render_id]),
        reverse("printing:api_status", args=[render_id]),
    ]


def answers(client: Client, render_id) -> list[int]:
    return [client.get(url).status_code for url in render_routes(render_id)]


def asked_through(client: Client, url: str):
    """The render id a sheet request led to (its progress page's address), made ready."""
    response = client.get(url)
    assert response.status_code == 302, response.content[:300]
    render_id = response["Location"].split("/")[2]
    _ready(render_id)
    return render_id


@pytest.fixture
def shared(user) -> Army:
    doc = army("into-the-dark", [{"name": "Knights", "quality": "fanatic", "mounted": True}])
    # new armies are private: its owner shares this one by link
    return Army.objects.create(owner=user, document=doc, share_token=new_share_token())


SHEETS = ["roster", "qrs"]


@pytest.mark.parametrize("sheet", SHEETS)
def test_a_shared_render_answers_while_its_link_works_and_not_after_a_new_link(
    owner_client, shared, sheet
):
    holder = Client()
    render_id = asked_through(holder, f"/s/{shared.share_token}/{sheet}.pdf")
    assert answers(holder, render_id) == [200, 200, 200]
    assert holder.get(reverse("printing:download", args=[render_id])).content == PDF

    owner_client.post(reverse("armies:share_regenerate", args=[shared.pk]))
    assert answers(holder, render_id) == [404, 404, 404]
    assert answers(Client(), render_id) == [404, 404, 404]


def test_a_shared_render_is_gone_once_sharing_is_switched_off(owner_client, shared):
    holder = Client()
    render_id = asked_through(holder, f"/s/{shared.share_token}/roster.pdf")
    owner_client.post(reverse("armies:share_off", args=[shared.pk]))
    assert answers(holder, render_id) == [404, 404, 404]


def test_a_shared_render_is_gone_once_the_army_is_deleted(owner_client, shared):
    holder = Client()
    render_id = asked_through(holder, f"/s/{shared.share_token}/qrs.pdf")
    owner_client.post(reverse("armies:delete", args=[shared.pk]))
    assert answers(holder, render_id) == [404, 404, 404]
    assert answers(owner_client, render_id) == [404, 404, 404]


def test_a_render_of_a_private_army_is_its_owners_alone(owner_client, shared):
    owner_client.post(reverse("armies:share_off", args=[shared.pk]))
    render_id = asked_through(owner_client, f"/armies/{shared.pk}/roster.pdf")
    assert answers(owner_client, render_id) == [200, 200, 200]

    intruder = Client()
    intruder.force_login(User.objects.create_user("mallory"))
    staff = Client()
    staff.force_login(User.objects.create_user("moderator", is_staff=True))
    for other in (Client(), intruder, staff):
        assert answers(other, render_id) == [404, 404, 404]


def test_the_print_panels_render_is_the_owners_alone(owner_client, shared):
    response = owner_client.get(f"/armies/{shared.pk}/print/?sheet=qrs&paper=letter")
    render_id = response["Location"].split("/")[2]
    _ready(render_id)
    assert answers(owner_client, render_id) == [200, 200, 200]
    assert answers(Client(), render_id) == [404, 404, 404]


def test_one_sheet_reached_by_the_owner_and_by_a_link_outlives_the_link_for_the_owner_only(
    owner_client, shared
):
    holder = Client()
    render_id = asked_through(holder, f"/s/{shared.share_token}/roster.pdf")
    # the owner's print of the same army is the very same stored sheet, served at once
    assert owner_client.get(f"/armies/{shared.pk}/roster.pdf").content == PDF
    assert list(Render.objects.values_list("pk", flat=True)) == [uuid.UUID(render_id)]
    owner_client.post(reverse("armies:share_regenerate", args=[shared.pk]))
    assert answers(owner_client, render_id) == [200, 200, 200]
    assert answers(holder, render_id) == [404, 404, 404]


def test_a_visitors_draft_render_is_that_visitors_alone():
    visitor = Client()
    made = visitor.post("/armies/new/", {"ruleset": "into-the-dark", "name": "Draft"})
    pk = int(made["Location"].strip("/").split("/")[1])
    render_id = asked_through(visitor, f"/armies/{pk}/roster.pdf")
    assert answers(visitor, render_id) == [200, 200, 200]
    assert answers(Client(), render_id) == [404, 404, 404]


def test_a_rule_sets_sheet_and_an_api_render_answer_anyone_holding_the_id(client):
    render_id = asked_through(client, "/rulesets/into-the-dark/qrs.pdf")
    assert answers(Client(), render_id) == [200, 200, 200]
    doc = army("into-the-dark", [{"name": "Knights", "quality": "fanatic", "mounted": True}])
    accepted = client.post("/api/v1/roster.pdf", doc, content_type="application/json")
    assert accepted.status_code == 202
    api_id = accepted.json()["status_url"].rsplit("/", 1)[1]
    _ready(api_id)
    assert answers(Client(), api_id) == [200, 200, 200]


def test_a_hidden_render_id_costs_the_queries_a_made_up_one_does(owner_client, shared):
    """A render of someone's private army, asked for by a stranger, answers as an id that
    never existed would: the same 404 page after the very same queries."""
    owner_client.post(reverse("armies:share_off", args=[shared.pk]))
    hidden = asked_through(owner_client, f"/armies/{shared.pk}/roster.pdf")
    stranger = Client()
    stranger.force_login(User.objects.create_user("mallory"))
    made_up = uuid.uuid4()
    hidden_answers, hidden_queries = query_shapes(stranger, render_routes(hidden))
    made_up_answers, made_up_queries = query_shapes(stranger, render_routes(made_up))
    assert hidden_answers == made_up_answers == [404, 404, 404]
    assert hidden_queries == made_up_queries
    for hidden_url, made_up_url in zip(render_routes(hidden), render_routes(made_up), strict=True):
        pages = [stranger.get(url) for url in (hidden_url, made_up_url)]
        assert [t.name for t in pages[0].templates] == [t.name for t in pages[1].templates]
        assert pages[0].get("Content-Type") == pages[1].get("Content-Type")
