"""A player's list deleted by its author: gone for everyone at once, undone by them for
30 days (from the rule set's page: "Undo", then "Restore"), then gone for good, or kept
deleted for the armies built on it."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from armybuilder.catalog import list_lifecycle, selectors, services
from armybuilder.catalog.models import (
    DELETED,
    LINK,
    LIST_RESTORE_DAYS,
    PRIVATE,
    SUBMITTED,
    ArmyList,
    ArmyListRevision,
)
from rules.list_document import parse_list_document

pytestmark = pytest.mark.django_db

RULESET = "into-the-dark"


@pytest.fixture
def author(db):
    return User.objects.create(username="alice")


def own_list(author, status=PRIVATE, name="Wessex, my way") -> ArmyList:
    shipped = ArmyList.objects.get(ruleset=RULESET, slug="anglo-danish-1066")
    document = services.export_document(shipped)
    document["name"] = name
    made = services.create_list(author, listed=parse_list_document(document)).army_list
    if status != PRIVATE:
        services.set_status(author, army_list=made, status=status)
    made.refresh_from_db()
    return made


def later(days: float):
    return timezone.now() + timedelta(days=days)


def test_a_deleted_list_is_read_by_nobody_and_its_link_is_dead(author, client):
    shared = own_list(author, LINK)
    token = shared.share_token
    assert list_lifecycle.delete_list(author, shared) == ""
    shared.refresh_from_db()
    assert shared.status == DELETED and shared.share_token is None
    client.force_login(author)
    assert client.get(f"/rulesets/{RULESET}/lists/{shared.slug}/").status_code == 404
    assert client.get(f"/lists/shared/{token}/").status_code == 404
    assert shared not in selectors.lists_of_user(author, ruleset=RULESET)


@pytest.mark.parametrize(
    ("status", "restored"), [(PRIVATE, PRIVATE), (LINK, PRIVATE), (SUBMITTED, SUBMITTED)]
)
def test_its_author_restores_a_deleted_list_as_it_was_but_for_a_dead_link(author, status, restored):
    made = own_list(author, status)
    token = made.share_token
    revisions = list(ArmyListRevision.objects.filter(army_list=made).values_list("pk", "data"))
    list_lifecycle.delete_list(author, made)
    list_lifecycle.restore_list(author, made)
    made.refresh_from_db()
    assert made.status == restored and made.deleted_at is None
    assert made.share_token is None or made.share_token != token
    assert list(ArmyListRevision.objects.filter(army_list=made).values_list("pk", "data")) == (
        revisions
    )
    assert made in selectors.lists_of_user(author, ruleset=RULESET)


def test_nobody_but_its_author_restores_it_and_not_after_the_restore_days(author):
    made = own_list(author)
    list_lifecycle.delete_list(author, made)
    other = User.objects.create(username="bob")
    with pytest.raises(services.ListRefused):
        list_lifecycle.restore_list(other, made)
    ArmyList.objects.filter(pk=made.pk).update(deleted_at=later(-LIST_RESTORE_DAYS - 1))
    made.refresh_from_db()
    with pytest.raises(services.ListRefused):
        list_lifecycle.restore_list(author, made)


def test_past_the_restore_days_a_list_nothing_reads_goes_with_its_revisions(author):
    made = own_list(author)
    list_lifecycle.delete_list(author, made)
    assert list_lifecycle.purge_deleted_lists(later(LIST_RESTORE_DAYS - 1)) == 0
    assert ArmyList.objects.filter(pk=made.pk).exists()
    assert list_lifecycle.purge_deleted_lists(later(LIST_RESTORE_DAYS + 1)) == 1
    assert not ArmyList.objects.filter(pk=made.pk).exists()
    assert not ArmyListRevision.objects.filter(army_list_id=made.pk).exists()


def test_past_the_restore_days_a_list_an_army_is_built_on_stays_for_the_army(author):
    from armybuilder.armies.services import create_army
    from tests.support import army

    made = own_list(author)
    create_army(army(RULESET, [], army_list=made.slug), owner=author)
    assert list_lifecycle.delete_list(author, made) == "1 army is built on it"
    assert list_lifecycle.purge_deleted_lists(later(LIST_RESTORE_DAYS + 1)) == 0
    made.refresh_from_db()
    assert made.status == DELETED and made.deleted_at is None  # no longer restorable
    assert not list_lifecycle.restorable(made)
    assert ArmyListRevision.objects.filter(army_list=made).exists()


def test_the_rule_sets_page_offers_undo_then_restore_and_the_list_is_back(author, client):
    made = own_list(author, name="Wessex <b>my way</b>")
    client.force_login(author)
    page = client.post(f"/rulesets/{RULESET}/lists/{made.slug}/delete/", follow=True)
    text = page.content.decode()
    assert page.status_code == 200
    assert 'id="undo-delete"' in text and "Wessex &lt;b&gt;my way&lt;/b&gt;" in text
    assert f"/lists/{made.slug}/undelete/" in text
    # later on, no Undo: the list waits among those deleted, with the day it goes
    again = client.get(f"/rulesets/{RULESET}/").content.decode()
    assert 'id="undo-delete"' not in again and f'id="deleted-{made.slug}"' in again
    until = (made_deleted_at(made) + timedelta(days=LIST_RESTORE_DAYS)).strftime("%-d %B %Y")
    assert f"restorable until {until}" in again
    back = client.post(f"/rulesets/{RULESET}/lists/{made.slug}/undelete/", follow=True)
    assert back.status_code == 200 and back.request["PATH_INFO"].endswith(f"/{made.slug}/")
    assert "Restored Wessex &lt;b&gt;my way&lt;/b&gt;." in back.content.decode()
    assert f'id="deleted-{made.slug}"' not in client.get(f"/rulesets/{RULESET}/").content.decode()


def made_deleted_at(made: ArmyList):
    made.refresh_from_db()
    return timezone.localtime(made.deleted_at)


def test_restoring_is_404_for_another_player_a_visitor_and_past_the_restore_days(author, client):
    made = own_list(author)
    list_lifecycle.delete_list(author, made)
    url = f"/rulesets/{RULESET}/lists/{made.slug}/undelete/"
    assert client.post(url).status_code == 404
    client.force_login(User.objects.create(username="bob"))
    assert client.post(url).status_code == 404
    client.force_login(author)
    ArmyList.objects.filter(pk=made.pk).update(deleted_at=later(-LIST_RESTORE_DAYS - 1))
    assert client.post(url).status_code == 404
    assert client.get(url).status_code == 405
    made.refresh_from_db()
    assert made.status == DELETED
