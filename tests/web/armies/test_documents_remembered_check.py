"""A builder edit is checked from this process's last check of the army (armies.documents),
and never from an old one: another process's save, an admin edit and reloaded army lists
all reach the next edit's answer."""

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

import rules
from armybuilder.armies import documents, services
from armybuilder.armies.models import Army
from armybuilder.catalog import services as catalog_services
from armybuilder.catalog.models import ArmyList
from tests.support import army, item_id
from tests.web.armies.sending import QUERIES_PER_SET, send

HX = {"HX-Request": "true"}
ITD = type(rules.get_ruleset("into-the-dark"))


def make(user: User, count: int = 4, **top: Any) -> Army:
    units = [{"name": f"Unit {i}", "quality": "levy"} for i in range(count)]
    return services.create_army(army("into-the-dark", units, **top), owner=user)


def change(
    client: Client, saved: Army, index: int | str, figures: int, made_from: Any, version: int
):
    """A figures change of the unit at ``index`` now, or of the unit with that id."""
    unit = index if isinstance(index, str) else item_id(saved, index)
    return send(client, saved, "set", unit, "figures", figures, made_from, version)


@pytest.fixture
def unit_checks(monkeypatch) -> list[int]:
    """The index of every unit of a saved army Into the Dark's check_unit is asked about
    (not the trial units ``allowed_values`` asks about in an army of their own)."""
    calls: list[int] = []
    original = ITD.check_unit

    def counting(self, unit, index, army):
        if army.units and army.units[index] is unit:
            calls.append(index)
        return original(self, unit, index, army)

    monkeypatch.setattr(ITD, "check_unit", counting)
    return calls


def test_an_edit_after_the_page_checks_only_the_edited_unit_and_reads_no_document(
    owner_client, user, unit_checks, monkeypatch
):
    saved = make(user, 30)
    assert owner_client.get(f"/armies/{saved.pk}/").status_code == 200
    decoded: list[Any] = []
    monkeypatch.setattr(documents, "readable_document", lambda doc: decoded.append(doc) or doc)
    unit_checks.clear()
    for version, (figures, before) in enumerate([(2, 12), (20, 2), (3, 20)], start=1):
        response = change(owner_client, saved, 7, figures, before, version)
        assert response.status_code == 200
    assert unit_checks == [7, 7, 7]
    assert decoded == []  # the remembered document, not the stored text decoded again
    assert 'data-code="too-few-figures"' in response.content.decode()
    saved.refresh_from_db()
    assert saved.version == 4 and saved.document["units"][7]["figures"] == 3


def test_a_first_edit_this_process_does_not_remember_is_checked_whole(
    owner_client, user, unit_checks
):
    saved = make(user, 5)
    documents.forget_checks()
    unit_checks.clear()
    assert change(owner_client, saved, 2, 20, 12, 1).status_code == 200
    assert unit_checks == [0, 1, 2, 3, 4]


def test_an_edit_after_another_processs_save_is_checked_on_the_saved_document(owner_client, user):
    saved = make(user)
    assert owner_client.get(f"/armies/{saved.pk}/").status_code == 200  # remembered at v1
    # another process saves a version this one never saw: unit 0 down to 2 figures
    document = json.loads(json.dumps(saved.document))
    document["units"][0]["figures"] = 2
    Army.objects.filter(pk=saved.pk).update(document=document, version=2, updated=timezone.now())
    response = change(owner_client, saved, 3, 20, 12, 2)
    assert response.status_code == 200
    assert 'data-code="too-few-figures"' in response.content.decode()  # unit 0's, as saved
    saved.refresh_from_db()
    assert [u["figures"] for u in saved.document["units"]] == [2, 12, 12, 20]


def test_an_admin_edit_is_never_answered_from_the_remembered_check(owner_client, user):
    saved = make(user)
    assert owner_client.get(f"/armies/{saved.pk}/").status_code == 200
    admin_copy = Army.objects.get(pk=saved.pk)
    admin_copy.document["units"][1]["figures"] = 1
    admin_copy.save()  # the admin's save: the version stays, ``updated`` moves
    assert admin_copy.version == 1
    response = change(owner_client, saved, 3, 20, 12, 1)
    assert response.status_code == 200
    assert 'data-code="too-few-figures"' in response.content.decode()
    saved.refresh_from_db()
    assert [u["figures"] for u in saved.document["units"]] == [12, 1, 12, 20]


def test_a_newer_list_revision_changes_the_check_only_once_the_army_accepts_it(owner_client, user):
    viking = ArmyList.objects.get(ruleset="into-the-dark", slug="viking")
    entry = rules.get_ruleset("into-the-dark").list_entries(viking.data, None)[0]
    units = [dict(entry.values, name=f"Unit {i}") for i in range(3)]
    doc = army("into-the-dark", units, army_list="viking")
    saved = services.create_army(doc, owner=user)
    page = owner_client.get(f"/armies/{saved.pk}/")
    assert 'data-code="not-in-army-list"' not in page.content.decode()
    # a reload writes revision 2, without the entry every unit was made from
    catalog_services.save_list(viking, data={**viking.data, "entries": viking.data["entries"][1:]})
    figures = saved.document["units"][1]["figures"]
    response = change(owner_client, saved, 1, figures + 1, figures, 1)
    assert response.status_code == 200
    assert 'data-code="not-in-army-list"' not in response.content.decode()  # still pinned
    services.accept_upgrade(Army.objects.get(pk=saved.pk))
    response = change(owner_client, saved, 1, figures, figures + 1, 2)
    assert response.status_code == 200
    assert response.content.decode().count('data-code="not-in-army-list"') == 3


def test_an_edit_from_the_remembered_check_costs_the_same_queries_as_one_without(
    owner_client, user, django_assert_num_queries
):
    saved = make(user, 40)
    assert owner_client.get(f"/armies/{saved.pk}/").status_code == 200
    unit = item_id(saved, 20)
    with django_assert_num_queries(QUERIES_PER_SET):
        assert change(owner_client, saved, unit, 20, 12, 1).status_code == 200
    documents.forget_checks()
    with django_assert_num_queries(QUERIES_PER_SET):
        assert change(owner_client, saved, unit, 21, 20, 2).status_code == 200


def test_the_process_remembers_a_bounded_number_of_units_the_oldest_armies_going_first(
    user, monkeypatch
):
    monkeypatch.setattr(documents, "MAX_UNITS", 10)
    documents.forget_checks()
    armies = [make(user, 4) for _ in range(3)]
    for saved in armies:
        services.check_army(saved)
    assert [documents.recall_check(a) is not None for a in armies] == [False, True, True]
    services.check_army(armies[1])  # used again: now the newest
    services.check_army(armies[0])
    assert [documents.recall_check(a) is not None for a in armies] == [True, True, False]


@pytest.mark.parametrize("size", [30, 300])
def test_a_field_edit_outside_any_test_transaction_is_at_most_eleven_statements(
    transactional_db, owner_client, user, django_assert_max_num_queries, size
):
    """As the bench counts them: the session, the user, the rate limit's count, the army,
    its lists, and the save in the operation kernel's transaction: BEGIN, the army's row
    locked with whether the operation's key was applied, the versioned UPDATE, the
    revision, the key in the ledger, COMMIT. Nothing grows with the army."""
    saved = make(user, size)
    assert owner_client.get(f"/armies/{saved.pk}/").status_code == 200
    unit = item_id(saved, size // 2)
    assert change(owner_client, saved, unit, 20, 12, 1).status_code == 200
    with django_assert_max_num_queries(11):
        assert change(owner_client, saved, unit, 21, 20, 2).status_code == 200
