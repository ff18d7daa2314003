"""The list editor for Into the Dark's share-of-points limits and for Feudal's force
matrix: each kind of control (a choice, a yes/no, a number, text, the values a limit
matches) saves exactly its value as a new revision, and a refusal names the field."""

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

import rules
from armybuilder.catalog.models import ArmyList
from armybuilder.catalog.selectors import army_lookup
from tests.web.catalog.list_items import by_id, without_ids

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def client_of_ann():
    client = Client()
    client.force_login(User.objects.create_user("ann"))
    return client


def new_list(client: Client, ruleset: str, name: str) -> ArmyList:
    response = client.post(f"/rulesets/{ruleset}/new-list/", {"name": name})
    assert response.status_code == 302, response.content[:300]
    return ArmyList.objects.get(name=name)


def edit(client: Client, made: ArmyList, **data):
    url = f"/rulesets/{made.ruleset}/lists/{made.slug}/edit/"
    response = client.post(url, by_id(made, data), headers=HX)
    made.refresh_from_db()
    return response


def test_into_the_darks_share_of_points_limits_are_written_in_the_editor(client_of_ann):
    made = new_list(client_of_ann, "into-the-dark", "Welsh raiders")
    page = client_of_ann.get(f"/rulesets/into-the-dark/lists/{made.slug}/edit/").content.decode()
    assert "Share-of-points limits" in page and "Add limit" in page
    assert edit(client_of_ann, made, op="add", section="limits").status_code == 200
    # a new limit starts legal: all troops, at most all of the points
    assert without_ids(made.data["limits"]) == [
        {"label": "New limit", "max_share": "1", "match": {}}
    ]
    edit(client_of_ann, made, op="set", section="limits", index="0", field="label", value="Bows")
    edit(client_of_ann, made, op="set", section="limits", index="0", field="max_share",
         value="1/3")  # fmt: skip
    edit(client_of_ann, made, op="values", section="limits", index="0",
         field="missile_weapon", value=[json.dumps("foot_bow")])  # fmt: skip
    assert without_ids(made.data["limits"]) == [
        {"label": "Bows", "max_share": "1/3", "match": {"missile_weapon": ["foot_bow"]}}
    ]
    assert made.latest_revision == 5
    # the rule set's validator is the judge: a share over one is refused, naming the field
    refused = edit(client_of_ann, made, op="set", section="limits", index="0",
                   field="max_share", value="3/2")  # fmt: skip
    assert refused.status_code == 400
    said = "Limit 1, At most this share of the points (e.g. 1/4): a fraction from 0 to 1"
    assert said in refused.content.decode() and made.latest_revision == 5
    # a list may have no limit at all
    assert edit(client_of_ann, made, op="remove", section="limits", index="0").status_code == 200
    assert made.data["limits"] == [] and made.latest_revision == 6


def test_a_limit_written_in_the_editor_limits_the_army(client_of_ann):
    from armybuilder.armies.services import create_army
    from tests.support import army

    made = new_list(client_of_ann, "into-the-dark", "Bowmen of Gwent")
    edit(client_of_ann, made, op="set", section="entries", index="0", field="max", value="9")
    edit(client_of_ann, made, op="add", section="limits")
    edit(client_of_ann, made, op="values", section="limits", index="0",
         field="missile_weapon", value=[json.dumps("foot_bow")])  # fmt: skip
    edit(client_of_ann, made, op="set", section="limits", index="0", field="max_share",
         value="1/4")  # fmt: skip
    bows = {"name": "Bows", "figures": 12, "missile_weapon": "foot_bow", "training": "missile"}
    saved = create_army(army("into-the-dark", [bows, bows], army_list=made.slug),
                        owner=made.author)  # fmt: skip
    report = rules.check_document(saved.document, army_lookup(saved))[1]
    assert "army-list-limit" in {issue.code for issue in report.issues}


def test_a_feudal_list_is_written_column_by_column_with_its_replacements_and_settings(
    client_of_ann,
):
    made = new_list(client_of_ann, "feudal-2017", "Marcher barons")
    assert made.data["columns"] == {"core": "knights", "t1": "bowmen", "t2": "brigans",
                                    "t3": "freemen"}  # fmt: skip
    page = client_of_ann.get(f"/rulesets/feudal-2017/lists/{made.slug}/edit/").content.decode()
    assert "Force matrix columns" in page and "<select" in page and "Add replacement" in page
    edit(client_of_ann, made, op="set", section="columns", field="t1",
         value=json.dumps("serjeants"))  # fmt: skip
    assert made.data["columns"]["t1"] == "serjeants"
    edit(client_of_ann, made, op="add", section="replacements")
    edit(client_of_ann, made, op="set", section="replacements", index="0", field="max",
         value="2")  # fmt: skip
    assert without_ids(made.data["replacements"]) == [
        {"from": "freemen", "to": "brigans", "max": 2}
    ]
    edit(client_of_ann, made, op="set", section="", field="schiltrons", value="true")
    edit(client_of_ann, made, op="set", section="", field="extra_terrain", value="a marsh")
    assert made.data["schiltrons"] is True and made.data["extra_terrain"] == "a marsh"
    assert made.latest_revision == 6
    feudal = rules.get_ruleset("feudal-2017")
    assert feudal.validate_army_list(made.data) == []
    assert any("Brigans" in label for label, _ in feudal.unit_presets(made.data))


def test_a_feudal_column_that_repeats_another_is_refused_naming_it(client_of_ann):
    made = new_list(client_of_ann, "feudal-2017", "Twice the knights")
    refused = edit(client_of_ann, made, op="set", section="columns", field="t1",
                   value=json.dumps("knights"))  # fmt: skip
    assert refused.status_code == 400
    assert "each column must name a different unit type" in refused.content.decode()
    assert made.latest_revision == 1 and made.data["columns"]["t1"] == "bowmen"
    unknown = edit(client_of_ann, made, op="set", section="columns", field="t1",
                   value=json.dumps("elephants"))  # fmt: skip
    assert unknown.status_code == 400 and "Column T1: one of Knights" in unknown.content.decode()


@pytest.mark.parametrize("slug", ["feudal", "north-welsh", "bretons"])
def test_the_feudal_shape_describes_every_key_of_a_shipped_list(slug):
    feudal = rules.get_ruleset("feudal-2017")
    data = ArmyList.objects.get(ruleset="feudal-2017", slug=slug).data
    shape = feudal.list_shape()
    described = {s.key for s in shape.sections if s.key} | {
        f.name for s in shape.sections if not s.key for f in s.fields
    }
    assert set(data) - {"notes"} <= described  # notes are kept as they are
    columns = shape.section("columns")
    assert {f.name for f in columns.fields} == set(data["columns"])
    for rep in data["replacements"]:
        # an item's id is the editor's own, never a field of the shape
        assert set(rep) <= {f.name for f in shape.section("replacements").fields} | {"id"}


@pytest.mark.parametrize("ruleset", ["dark-ages-2015", "dark-ages-d5"])
def test_a_dark_ages_list_is_written_with_required_units_and_choice_groups(client_of_ann, ruleset):
    made = new_list(client_of_ann, ruleset, "Men of the North")
    found = rules.get_ruleset(ruleset)
    assert found.validate_army_list(made.data) == []  # six units from the start
    page = client_of_ann.get(f"/rulesets/{ruleset}/lists/{made.slug}/edit/").content.decode()
    assert "Required units" in page and "Add option to Support" in page
    edit(client_of_ann, made, op="set", section="required", index="0", field="count", value="3")
    # five units now: the validator says so and nothing is saved
    assert made.latest_revision == 1 and made.data["required"][0]["count"] == 4
    edit(client_of_ann, made, op="set", section="choices", index="0", field="pick", value="3")
    assert made.latest_revision == 1  # seven units: refused too
    # a second option in the group, fixed to javelin cavalry, then the required count
    assert edit(client_of_ann, made, op="add", section="options", index="0").status_code == 200
    options = made.data["choices"][0]["options"]
    assert len(options) == 2 and len({o["key"] for o in options}) == 2
    edit(client_of_ann, made, op="set", section="options", index="0.1", field="name",
         value="Javelin horse")  # fmt: skip
    edit(client_of_ann, made, op="values", section="options", index="0.1", field="type",
         value=[json.dumps("cavalry")])  # fmt: skip
    edit(client_of_ann, made, op="values", section="options", index="0.1", field="missile",
         value=[json.dumps("javelin")])  # fmt: skip
    option = made.data["choices"][0]["options"][1]
    assert option["name"] == "Javelin horse"
    assert option["match"] == {"type": ["cavalry"], "missile": ["javelin"]}
    assert found.validate_army_list(made.data) == []
    assert any("Javelin horse" in label for label, _ in found.unit_presets(made.data))
    if found.allow_fixed:
        edit(client_of_ann, made, op="set", section="required", index="0", field="fixed",
             value="true")  # fmt: skip
        assert made.data["required"][0]["fixed"] is True
    else:
        assert 'value="fixed"' not in page
    # a group keeps at least one option
    edit(client_of_ann, made, op="remove", section="options", index="0.1")
    refused = edit(client_of_ann, made, op="remove", section="options", index="0.0")
    assert refused.status_code == 400 and len(made.data["choices"][0]["options"]) == 1


@pytest.mark.parametrize("ruleset", ["dark-ages-2015", "dark-ages-d5"])
def test_the_dark_ages_shape_describes_every_key_of_the_shipped_lists(ruleset):
    shape = rules.get_ruleset(ruleset).list_shape()
    names = {
        s.key: {f.name for f in s.fields} | {s.values_key, "key", "id"} for s in shape.sections
    }
    matchable = {v.name for v in shape.section("required").values}
    for shipped in ArmyList.objects.filter(ruleset=ruleset):
        for entry in shipped.data["required"]:
            assert set(entry) - {"unit"} <= names["required"], entry  # "unit" presets are kept
            assert set(entry["match"]) <= matchable
        for group in shipped.data["choices"]:
            assert set(group) <= names["choices"] | {"options"}, group
            for option in group["options"]:
                assert set(option) - {"unit"} <= names["options"], option
