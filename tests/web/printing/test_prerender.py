"""Printing ahead: an army's sheets are rendered once it is still, and Print then finds
them stored."""

from datetime import timedelta

import pytest
from django.tasks import default_task_backend
from django.tasks.base import TASK_MIN_PRIORITY
from django.utils import timezone

from armybuilder.armies import services
from armybuilder.armies.models import Army
from armybuilder.printing import prerender
from armybuilder.printing.models import Render
from armybuilder.printing.prerender import prerender_army
from tests.support import army, item_url

HX = {"HX-Request": "true"}
DUMMY = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
MILITIA = {"name": "Town Militia", "quality": "levy"}


@pytest.fixture
def queue(settings):
    """A queue that keeps what is enqueued (and runs nothing), as a worker would see it."""
    settings.TASKS = DUMMY
    default_task_backend.clear()
    prerender._queued.clear()  # what this process queued before: another test's armies
    return default_task_backend


def make(user):
    return services.create_army(army("into-the-dark", [dict(MILITIA)]), owner=user)


def edit(client, saved, name: str):
    saved.refresh_from_db()
    data = {"version": saved.version, "f.name": name}
    return client.post(item_url(saved, 0), data, headers=HX)


def prerenders(queue):
    return [r for r in queue.results if r.task.name == "prerender_army"]


def test_each_saved_version_queues_a_deferred_lowest_priority_prerender(
    owner_client, user, queue, settings, django_capture_on_commit_callbacks
):
    settings.MUSTER_PRERENDER_DELAY = 3
    with django_capture_on_commit_callbacks(execute=True):
        saved = make(user)
    with django_capture_on_commit_callbacks(execute=True):
        assert edit(owner_client, saved, "Fyrd").status_code == 200
    (created, edited) = prerenders(queue)
    assert created.args == [saved.pk, 1, ""]  # made outside a request: no site known
    assert edited.args == [saved.pk, 2, "http://testserver"]
    assert edited.task.priority == TASK_MIN_PRIORITY
    wait = (edited.task.run_after - timezone.now()).total_seconds()
    assert 1 < wait <= 3


def test_no_prerender_when_switched_off(
    owner_client, user, queue, settings, django_capture_on_commit_callbacks
):
    settings.MUSTER_PRERENDER_DELAY = -1
    with django_capture_on_commit_callbacks(execute=True):
        edit(owner_client, make(user), "Fyrd")
    assert prerenders(queue) == []


def test_a_prerendered_army_prints_from_the_store_at_once(owner_client, user):
    saved = make(user)
    assert prerender_army.call(saved.pk, 1, "http://testserver") == "roster ready, qrs ready"
    assert Render.objects.filter(status=Render.READY).count() == 2
    for sheet in ("roster", "qrs"):
        response = owner_client.get(f"/armies/{saved.pk}/print/", {"sheet": sheet}, headers=HX)
        assert response.status_code == 200
        assert "ready" in response.content.decode().lower()
    assert Render.objects.count() == 2  # nothing new was queued: both came from the store
    assert prerender_army.call(saved.pk, 1, "http://testserver") == "already rendered"


def test_a_shared_armys_roster_is_prerendered_with_the_link_print_would_use(owner_client, user):
    saved = make(user)
    saved.share_token = "tok-" + "x" * 30
    saved.save(update_fields=["share_token"])
    assert prerender_army.call(saved.pk, 1, "") == "no origin"
    assert not Render.objects.exists()
    prerender_army.call(saved.pk, 1, "http://testserver")
    before = Render.objects.count()
    response = owner_client.get(f"/armies/{saved.pk}/roster.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert Render.objects.count() == before


def test_an_army_edited_a_moment_ago_is_followed_to_its_newest_version(
    owner_client, user, queue, settings
):
    settings.MUSTER_PRERENDER_DELAY = 3
    saved = make(user)
    edit(owner_client, saved, "Fyrd")
    answer = prerender_army.call(saved.pk, 1, "http://testserver")
    assert answer == "moved on: queued for version 2"
    assert not Render.objects.exists()
    (again,) = prerenders(queue)
    assert again.args == [saved.pk, 2, "http://testserver"]
    saved.refresh_from_db()
    wait = (again.task.run_after - saved.updated).total_seconds()
    assert wait == pytest.approx(3)


def test_an_army_still_since_its_last_edit_is_rendered_at_its_newest_version(
    owner_client, user, settings
):
    settings.MUSTER_PRERENDER_DELAY = 3
    saved = make(user)
    edit(owner_client, saved, "Fyrd")
    Army.objects.filter(pk=saved.pk).update(updated=timezone.now() - timedelta(seconds=4))
    assert prerender_army.call(saved.pk, 1, "http://testserver") == "roster ready, qrs ready"
    assert Render.objects.filter(status=Render.READY).count() == 2


def test_a_burst_of_edits_queues_one_prerender_that_follows_the_army(
    owner_client, user, queue, settings, django_capture_on_commit_callbacks
):
    settings.MUSTER_PRERENDER_DELAY = 3
    saved = make(user)
    for name in ("Fyrd", "Thegns", "Huscarls"):
        with django_capture_on_commit_callbacks(execute=True):
            assert edit(owner_client, saved, name).status_code == 200
    (queued,) = prerenders(queue)
    assert queued.args == [saved.pk, 2, "http://testserver"]
    assert prerender_army.call(saved.pk, 2, "http://testserver").startswith("moved on")
