"""Importing a copy's exported document makes a list of the shipped list's family (never
a copy of the copy) whether the document names its family, names none, or names the
copy's own slug; and the items keep their ids through export and import."""

import pytest
from django.contrib.auth.models import User

import rules
from armybuilder.catalog import services
from armybuilder.catalog.models import ArmyList
from rules.list_ids import items_in

pytestmark = pytest.mark.django_db
SHIPPED = ("into-the-dark", "swiss")


@pytest.fixture
def copied():
    """ann's copy of a shipped list, and its exported document."""
    ann = User.objects.create_user("ann")
    shipped = ArmyList.objects.get(ruleset=SHIPPED[0], slug=SHIPPED[1])
    copy = services.copy_list(ann, army_list=shipped).army_list
    assert copy.family == shipped.slug and copy.slug != shipped.slug
    return ann, copy, services.export_document(copy)


def imported(user, document):
    made = services.import_list(user, raw=document).army_list
    assert made.pk is not None and made.author == user
    return made


def test_a_copys_document_naming_its_family_imports_into_the_shipped_lists_family(copied):
    ann, copy, document = copied
    assert document["family"] == SHIPPED[1]
    made = imported(ann, document)
    assert made.family == SHIPPED[1] and made.family_slug == SHIPPED[1]


def test_a_copys_document_without_its_family_imports_into_the_shipped_lists_family(copied):
    ann, copy, document = copied
    del document["family"]  # then the document is the copy itself: its slug is the copy's
    made = imported(ann, document)
    assert made.family == SHIPPED[1] and made.family != copy.slug


def test_a_copys_document_naming_the_copys_own_slug_imports_into_the_shipped_family(copied):
    ann, copy, document = copied
    document["family"] = copy.slug
    made = imported(ann, document)
    assert made.family == SHIPPED[1] and made.family != copy.slug


def test_an_imported_document_keeps_its_items_ids(copied):
    ann, copy, document = copied
    ids = [item["id"] for item in items_in(document["data"])]
    assert ids and len(set(ids)) == len(ids)
    made = imported(ann, document)
    assert [item["id"] for item in items_in(made.data)] == ids


def test_a_document_without_ids_gets_one_for_every_item_on_import(copied):
    ann, _, document = copied
    for item in items_in(document["data"]):
        del item["id"]
    made = imported(ann, document)
    given = [item.get("id") for item in items_in(made.data)]
    assert all(isinstance(i, str) and i for i in given) and len(set(given)) == len(given)


def test_a_document_with_an_item_id_used_twice_is_refused_naming_it(copied):
    ann, _, document = copied
    first, second = list(items_in(document["data"]))[:2]
    second["id"] = first["id"]
    with pytest.raises(rules.MalformedDocument, match="used by two items of the list"):
        services.import_list(ann, raw=document)
