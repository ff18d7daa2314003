"""Whole-army delete acts at once and can be undone for 30 days, then it is purged."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from armybuilder.armies import services
from armybuilder.armies.models import Army
from tests.support import army, example, shared_army

HX = {"HX-Request": "true"}


@pytest.fixture
def saved(user):
    return shared_army(example("into-the-dark-source-examples.json"), owner=user)


def army_rows(page: str) -> list[str]:
    return re.findall(r'<tr id="army-(\d+)">', page)


def test_delete_from_my_armies_acts_at_once_and_offers_undo(owner_client, saved):
    page = owner_client.get("/armies/").content.decode()
    # a POST button on My armies: no confirmation page in between
    assert f'<form method="post" action="/armies/{saved.pk}/delete/">' in page
    response = owner_client.post(f"/armies/{saved.pk}/delete/")
    assert response["Location"] == "/armies/"
    page = owner_client.get("/armies/").content.decode()
    assert army_rows(page) == []
    toast = re.search(r'<div class="toast" id="undo-delete" role="status">(.*?)</div>', page, re.S)
    assert "Deleted <strong>Worked examples from Into the Dark</strong>." in toast.group(1)
    assert f'action="/armies/{saved.pk}/restore/"' in toast.group(1)
    assert ">Undo</button>" in toast.group(1)


def test_the_undo_toast_shows_once_but_recently_deleted_stays(owner_client, saved):
    owner_client.post(f"/armies/{saved.pk}/delete/")
    owner_client.get("/armies/")
    page = owner_client.get("/armies/").content.decode()
    assert 'id="undo-delete"' not in page
    section = page[page.index('<section class="recently-deleted"') :]
    assert "Worked examples from Into the Dark" in section
    assert f'action="/armies/{saved.pk}/restore/"' in section
    assert "can be restored for 30 days" in section


def test_undo_brings_back_the_army_its_builder_and_its_share_link(owner_client, saved, client):
    token = saved.share_token
    owner_client.post(f"/armies/{saved.pk}/delete/")
    assert owner_client.get(f"/armies/{saved.pk}/").status_code == 404
    assert client.get(f"/s/{token}/").status_code == 404
    response = owner_client.post(f"/armies/{saved.pk}/restore/")
    assert response["Location"] == f"/armies/#army-{saved.pk}"
    page = owner_client.get("/armies/").content.decode()
    assert army_rows(page) == [str(saved.pk)]
    assert "Restored Worked examples from Into the Dark." in page
    assert "Recently deleted" not in page
    assert owner_client.get(f"/armies/{saved.pk}/").status_code == 200
    assert client.get(f"/s/{token}/").status_code == 200
    restored = Army.objects.get(pk=saved.pk)
    assert restored.document == saved.document and restored.share_token == token


@pytest.mark.parametrize(
    "path",
    [
        "/armies/{pk}/",
        "/armies/{pk}/export.json",
        "/armies/{pk}/roster/",
        "/s/{token}/",
        "/s/{token}/army.json",
        "/s/{token}/roster/",
        "/s/{token}/copy/",
    ],
)
def test_a_deleted_army_answers_404_everywhere(owner_client, saved, path):
    services.delete_army(saved)
    assert owner_client.get(path.format(pk=saved.pk, token=saved.share_token)).status_code == 404


def test_a_deleted_army_takes_no_edits(owner_client, saved):
    services.delete_army(saved)
    response = owner_client.post(f"/armies/{saved.pk}/settings/", {"version": 1, "name": "X"})
    assert response.status_code == 404
    assert owner_client.post(f"/armies/{saved.pk}/delete/").status_code == 404


def test_nobody_else_can_restore_or_see_a_deleted_army(saved, client):
    services.delete_army(saved)
    other = User.objects.create_user("mallory", password="a-long-Pass-123")
    client.force_login(other)
    assert client.post(f"/armies/{saved.pk}/restore/").status_code == 404
    assert "Worked examples" not in client.get("/armies/").content.decode()
    assert Army.objects.get(pk=saved.pk).deleted_at is not None
    assert Client().post(f"/armies/{saved.pk}/restore/").status_code == 404


def test_restore_needs_a_post(owner_client, saved):
    services.delete_army(saved)
    assert owner_client.get(f"/armies/{saved.pk}/restore/").status_code == 405


def test_htmx_delete_redirects_to_my_armies_with_the_undo(owner_client, saved):
    response = owner_client.post(f"/armies/{saved.pk}/delete/", headers=HX)
    assert response.status_code == 204 and response["HX-Redirect"] == "/armies/"
    assert 'id="undo-delete"' in owner_client.get("/armies/").content.decode()


def test_after_30_days_an_army_cannot_be_restored_and_is_purged(owner_client, user, saved):
    old = services.create_army(army("into-the-dark", [], name="Old"), owner=user)
    recent = services.create_army(army("into-the-dark", [], name="Recent"), owner=user)
    now = timezone.now()
    Army.objects.filter(pk=old.pk).update(deleted_at=now - timedelta(days=30, minutes=1))
    Army.objects.filter(pk=recent.pk).update(deleted_at=now - timedelta(days=29, hours=23))
    page = owner_client.get("/armies/").content.decode()
    assert f'id="deleted-{recent.pk}"' in page and f'id="deleted-{old.pk}"' not in page
    assert owner_client.post(f"/armies/{old.pk}/restore/").status_code == 404

    assert services.purge_deleted_armies() == 1
    assert set(Army.objects.values_list("pk", flat=True)) == {saved.pk, recent.pk}
    # the worker may pass its own clock: two days on, the recent one goes too
    assert services.purge_deleted_armies(now=now + timedelta(days=2)) == 1
    assert list(Army.objects.values_list("pk", flat=True)) == [saved.pk]


def test_the_purge_command_reports_what_it_removed(user, capsys):
    gone = services.create_army(army("into-the-dark", []), owner=user)
    Army.objects.filter(pk=gone.pk).update(deleted_at=timezone.now() - timedelta(days=31))
    call_command("purge_deleted_armies")
    assert capsys.readouterr().out.strip() == "purged 1 deleted army"
    assert not Army.objects.filter(pk=gone.pk).exists()


def test_a_visitor_deletes_and_restores_a_draft(client, db):
    client.post("/armies/new/", {"ruleset": "feudal-2017", "name": "Draft host"})
    draft = Army.objects.get()
    client.post(f"/armies/{draft.pk}/delete/")
    page = client.get("/armies/").content.decode()
    assert "Deleted <strong>Draft host</strong>." in page
    client.post(f"/armies/{draft.pk}/restore/")
    assert army_rows(client.get("/armies/").content.decode()) == [str(draft.pk)]


def test_deleted_drafts_do_not_count_against_the_draft_cap(client, db, settings):
    settings.MUSTER_MAX_DRAFTS = 1
    client.post("/armies/new/", {"ruleset": "feudal-2017"})
    first = Army.objects.get()
    client.post(f"/armies/{first.pk}/delete/")
    response = client.post("/armies/new/", {"ruleset": "feudal-2017"})
    assert response.status_code == 302
    assert Army.objects.filter(deleted_at=None).count() == 1


def test_my_armies_queries_do_not_grow_with_deleted_armies(
    owner_client, user, django_assert_max_num_queries
):
    for i in range(8):
        made = services.create_army(example("into-the-dark-source-examples.json"), owner=user)
        if i % 2:
            services.delete_army(made)
    with django_assert_max_num_queries(6):
        page = owner_client.get("/armies/").content.decode()
    assert len(army_rows(page)) == 4 and len(re.findall(r'id="deleted-\d+"', page)) == 4
