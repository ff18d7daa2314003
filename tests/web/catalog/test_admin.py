"""Army lists curated in the Django admin: saving runs the rule set's own validator."""

import json

import pytest
from django.core.exceptions import ValidationError

from armybuilder.catalog.models import ArmyList
from armybuilder.catalog.selectors import list_lookup

pytestmark = pytest.mark.django_db

ADD_URL = "/admin/catalog/armylist/add/"


def form(data, slug="angevin-test"):
    return {
        "ruleset": "feudal-2017",
        "slug": slug,
        "name": "Angevin test list",
        "period": "1154-1204",
        "source_note": "A test.",
        "data": json.dumps(data),
        "status": "published",
        # the revisions inline's management form (it shows revisions, adds none)
        "revisions-TOTAL_FORMS": "0",
        "revisions-INITIAL_FORMS": "0",
    }


def columns(**changes):
    base = {"core": "knights", "t1": "bowmen", "t2": "brigans", "t3": "freemen"}
    base.update(changes)
    return {"columns": base}


def test_a_list_with_an_unknown_unit_type_is_refused_with_a_message(admin_client):
    response = admin_client.post(ADD_URL, form(columns(t1="longbowmen")))
    assert response.status_code == 200  # the form again, with the error
    assert not ArmyList.objects.filter(slug="angevin-test").exists()
    page = response.content.decode()
    assert "columns.t1: &#x27;longbowmen&#x27; is not a unit type; allowed types: knights" in page


def test_a_replacement_to_an_unknown_type_is_refused(admin_client):
    data = columns()
    data["replacements"] = [{"from": "freemen", "to": "peasants", "max": None}]
    response = admin_client.post(ADD_URL, form(data))
    assert response.status_code == 200
    assert (
        "replacements[0].to: &#x27;peasants&#x27; is not a unit type" in response.content.decode()
    )
    assert not ArmyList.objects.filter(slug="angevin-test").exists()


def test_a_well_formed_list_saves_and_the_engine_can_use_it(admin_client):
    data = columns(t3="serjeants")
    data["replacements"] = [{"from": "serjeants", "to": "freemen", "max": 1}]
    response = admin_client.post(ADD_URL, form(data))
    assert response.status_code == 302
    saved = ArmyList.objects.get(ruleset="feudal-2017", slug="angevin-test")
    assert saved.data == data
    assert list_lookup("feudal-2017")["angevin-test"] == data


def test_editing_a_stored_list_into_a_malformed_one_is_refused(admin_client):
    north = ArmyList.objects.get(ruleset="feudal-2017", slug="north-welsh")
    url = f"/admin/catalog/armylist/{north.pk}/change/"
    bad = dict(north.data, columns=dict(north.data["columns"], core="spearmen"))
    response = admin_client.post(url, form(bad, slug="north-welsh") | {"name": north.name})
    assert response.status_code == 200
    north.refresh_from_db()
    assert north.data["columns"]["core"] == "freemen"


def test_the_model_validator_is_the_rule_sets(admin_client):
    army_list = ArmyList(ruleset="feudal-2017", slug="x", name="X", data=columns(core="archers"))
    with pytest.raises(ValidationError) as caught:
        army_list.full_clean()
    assert "allowed types" in str(caught.value.message_dict["data"])


def test_the_nine_feudal_lists_are_loaded_for_the_admin(admin_client):
    response = admin_client.get("/admin/catalog/armylist/?ruleset=feudal-2017")
    assert response.status_code == 200
    assert ArmyList.objects.filter(ruleset="feudal-2017").count() == 9
    assert "North Welsh" in response.content.decode()
