"""An app above the catalog may grant a user more lists to read and build on
(``LIST_GRANTS``): the catalog then answers for them everywhere it decides access, for
reading only, never for copying, editing or passing on."""

import pytest
from django.contrib.auth.models import User
from django.db.models import Q

from armybuilder.catalog import selectors, services
from armybuilder.catalog.models import LINK, ArmyList
from armybuilder.catalog.selectors import LIST_GRANTS, readable_lists
from tests.web.catalog.test_services_access import player_list

pytestmark = pytest.mark.django_db


@pytest.fixture
def granted(monkeypatch):
    author = User.objects.create_user("ann")
    reader = User.objects.create_user("eve")
    army_list = services.set_status(author, army_list=player_list(author), status=LINK)
    other = services.set_status(
        author, army_list=player_list(author, name="Not granted"), status=LINK
    )

    def grant(user_pk):
        return Q(pk=army_list.pk) if user_pk == reader.pk else Q(pk__in=[])

    monkeypatch.setattr("armybuilder.catalog.selectors.LIST_GRANTS", [*LIST_GRANTS, grant])
    monkeypatch.setattr("armybuilder.catalog.services.LIST_GRANTS", [*LIST_GRANTS, grant])
    return reader, army_list, other


def test_a_granted_list_is_read_and_built_on_but_not_copied_or_edited(granted):
    reader, army_list, other = granted
    assert services.can(reader, action="view", army_list=army_list) and services.can(
        reader, action="export", army_list=army_list
    )
    for action in ("copy", "edit", "delete", "publish"):
        assert not services.can(reader, action=action, army_list=army_list)
    assert not services.can(reader, action="view", army_list=other)
    readable = set(ArmyList.objects.filter(readable_lists(reader.pk)).values_list("pk", flat=True))
    assert army_list.pk in readable and other.pk not in readable
    assert army_list.slug in selectors.lookup_for(reader)(army_list.ruleset)
    assert [a.pk for a in selectors.lists_shared_with(reader, ruleset=army_list.ruleset)] == [
        army_list.pk
    ]


def test_a_grant_is_never_passed_on(granted):
    reader, army_list, _ = granted
    passable = ArmyList.objects.filter(readable_lists(reader.pk, granted=False))
    assert not passable.filter(pk=army_list.pk).exists()


def test_a_deleted_list_is_granted_to_nobody(granted):
    reader, army_list, _ = granted
    ArmyList.objects.filter(pk=army_list.pk).update(status="deleted")
    army_list.refresh_from_db()
    assert not services.can(reader, action="view", army_list=army_list)
    assert not ArmyList.objects.filter(readable_lists(reader.pk), pk=army_list.pk).exists()
