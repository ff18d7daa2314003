"""A shipped list of each rule set is written again from an empty list through the list
editor's form posts, and the result is the shipped list, compared as documents."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

import rules
from armybuilder.catalog import services
from armybuilder.catalog.models import ArmyList
from tests.web.catalog.list_items import without_ids
from tests.web.catalog.list_rebuild import Rebuild

pytestmark = pytest.mark.django_db


def as_document(army_list: ArmyList) -> dict:
    """The exported document as written: slug, revision and the items' ids (each list's
    own, given as its items were made) left out."""
    document = services.export_document(army_list)
    document.pop("slug"), document.pop("revision")
    return {**document, "data": without_ids(document["data"])}


@pytest.mark.parametrize(
    ("ruleset", "slug"),
    [
        ("into-the-dark", "swiss"),
        ("feudal-2017", "north-welsh"),
        ("dark-ages-d5", "picts"),
        ("dark-ages-2015", "viking"),
    ],
)
def test_a_shipped_list_is_rebuilt_from_an_empty_list_through_the_editor(ruleset, slug):
    client = Client()
    client.force_login(User.objects.create_user("ann"))
    response = client.post(f"/rulesets/{ruleset}/new-list/", {"name": "Empty"})
    assert response.status_code == 302
    made = ArmyList.objects.get(author__username="ann")
    shipped = ArmyList.objects.get(ruleset=ruleset, slug=slug)
    assert made.data != shipped.data
    rebuild = Rebuild(client, made, rules.get_ruleset(ruleset).list_shape())
    rebuild.run(shipped)
    made.refresh_from_db()
    assert as_document(made) == as_document(shipped)
