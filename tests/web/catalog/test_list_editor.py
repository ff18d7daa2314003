"""The list editor: a player writes a list field by field, each change a revision the rule
set's validator accepted, with undo; controls come from the rule set's list shape."""

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from armybuilder.catalog.models import ArmyList
from tests.web.catalog.list_items import by_id, item_id
from tests.web.catalog.list_rebuild import THEN

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def author():
    user = User.objects.create_user("ann")
    client = Client()
    client.force_login(user)
    return user, client


def new_list(client: Client, name: str = "Saxon raiders") -> ArmyList:
    response = client.post(
        "/rulesets/into-the-dark/new-list/",
        {"name": name, "period": "c. 800", "source_note": "mine"},
    )
    assert response.status_code == 302, response.content[:300]
    return ArmyList.objects.get(name=name)


def edit(client: Client, army_list: ArmyList, **data):
    url = f"/rulesets/into-the-dark/lists/{army_list.slug}/edit/"
    return client.post(url, by_id(army_list, data), headers=HX)


def test_a_new_list_is_the_players_private_list_at_revision_one(author):
    user, client = author
    made = new_list(client)
    assert made.author == user and made.status == "private" and made.latest_revision == 1
    assert made.period == "c. 800" and made.source_note == "mine"
    page = client.get(f"/rulesets/into-the-dark/lists/{made.slug}/edit/").content.decode()
    assert 'name="op" value="values"' in page and "Try it" in page


def test_each_field_change_is_a_revision_and_undo_brings_the_last_back(author):
    _, client = author
    made = new_list(client)
    assert edit(client, made, op="set", section="entries", index="0", field="name",
                value="Thegns").status_code == 200  # fmt: skip
    elite = json.dumps("elite")
    assert edit(client, made, op="values", section="entries", index="0", field="quality",
                value=[elite]).status_code == 200  # fmt: skip
    made.refresh_from_db()
    assert made.latest_revision == 3
    assert made.data["entries"][0]["name"] == "Thegns"
    assert made.data["entries"][0]["match"] == {"quality": ["elite"]}
    edit(client, made, op="undo")
    made.refresh_from_db()
    assert made.latest_revision == 4 and "quality" not in made.data["entries"][0]["match"]


def test_a_refused_change_names_the_field_and_saves_nothing(author):
    _, client = author
    made = new_list(client)
    response = edit(client, made, op="set", section="entries", index="0", field="min", value="5")
    assert response.status_code == 400  # min 5 > max 1: the rule set's validator
    page = response.content.decode()
    assert "Entry 1, At least: at most 1 is fewer than at least 5." in page
    assert "entries[0]" not in page and 'value="5"' in page  # what was typed stays
    assert "Allowed here: 0 to 1." in page and "Use 1" in page  # the nearest valid value
    response = edit(client, made, op="set", section="entries", index="0", field="name", value="")
    assert response.status_code == 400
    assert "Entry 1, Name: required; it cannot be left empty." in response.content.decode()
    made.refresh_from_db()
    assert made.latest_revision == 1


def test_entries_are_added_and_removed_and_the_tiles_follow(author):
    _, client = author
    made = new_list(client)
    page = edit(client, made, op="add", section="entries").content.decode()
    made.refresh_from_db()
    assert [e["key"] for e in made.data["entries"]] == ["entry-1", "entry-2"]
    assert page.count("<li>1 × New entry</li>") == 2  # Try it: one unit of each
    edit(client, made, op="remove", section="entries", index="0")
    made.refresh_from_db()
    assert [e["key"] for e in made.data["entries"]] == ["entry-2"]
    response = edit(client, made, op="remove", section="entries", index="0")
    assert response.status_code == 400  # the last entry stays


def test_nobody_else_edits_the_list(author):
    _, client = author
    made = new_list(client)
    other = Client()
    other.force_login(User.objects.create_user("bob"))
    assert edit(other, made, op="meta", field="name", value="Mine now").status_code == 404
    made.refresh_from_db()
    assert made.name == "Saxon raiders"


def test_every_rule_set_has_a_list_editor_and_an_unknown_one_is_404(author):
    _, client = author
    for ruleset in rules.all_rulesets():
        assert ruleset.list_shape() is not None, ruleset.slug
        assert client.get(f"/rulesets/{ruleset.slug}/new-list/").status_code == 200
    assert client.get("/rulesets/no-such-rules/new-list/").status_code == 404


def test_a_dewitt_list_from_the_editor_restricts_the_armies_built_on_it(author):
    from armybuilder.armies.services import create_army
    from tests.support import army

    user, client = author
    response = client.post("/rulesets/dewitt-medieval/new-list/", {"name": "Free company"})
    made = ArmyList.objects.get(name="Free company")
    assert response["Location"] == f"/rulesets/dewitt-medieval/lists/{made.slug}/edit/"
    url = f"/rulesets/dewitt-medieval/lists/{made.slug}/edit/"
    page = client.get(url).content.decode()
    assert "Fewest stands" in page and "Longbow (+2)" in page
    client.post(url, by_id(made, {"op": "values", "section": "entries", "index": "0",
                                  "field": "weapons", "value": [json.dumps("longbow")]}),
                headers=HX)  # fmt: skip
    client.post(url, by_id(made, {"op": "set", "section": "entries", "index": "0",
                                  "field": "max", "value": "3"}), headers=HX)  # fmt: skip
    made.refresh_from_db()
    assert made.data["entries"][0]["match"] == {"weapons": ["longbow"]}
    bows = {"name": "Bows", "arm": "foot", "class": "light", "stands": 4, "weapons": ["longbow"]}
    built = create_army(
        army("dewitt-medieval", [bows, {**bows, "weapons": ["crossbow"]}], army_list=made.slug),
        owner=user,
    )
    page = client.get(f"/armies/{built.pk}/").content.decode()
    assert page.count('data-code="not-in-army-list"') == 1


def test_without_javascript_a_refusal_is_a_whole_page_keeping_what_was_typed(author):
    _, client = author
    made = new_list(client)
    url = f"/rulesets/into-the-dark/lists/{made.slug}/edit/"
    first = item_id(made, "entries", "0")
    response = client.post(url, {"op": "set", "section": "entries", "item": first,
                                 "field": "min", "value": "7"})  # fmt: skip
    page = response.content.decode()
    assert response.status_code == 400 and "<html" in page
    assert f'id="f-entries-{first}-min" name="value" value="7"' in page
    assert f'aria-describedby="f-entries-{first}-min-error"' in page
    saved = client.post(url, {"op": "set", "section": "entries", "item": first,
                              "field": "min", "value": "1"})  # fmt: skip
    assert saved.status_code == 302


def test_an_edit_reaches_its_entry_by_its_id_after_an_earlier_entry_is_removed(author):
    _, client = author
    made = new_list(client)
    edit(client, made, op="add", section="entries")
    first, second = item_id(made, "entries", "0"), item_id(made, "entries", "1")
    edit(client, made, op="remove", section="entries", item=first)
    # a page drawn before the removal posts the second entry's id; it is now the first
    edit(client, made, op="set", section="entries", item=second, field="name", value="Fyrd")
    made.refresh_from_db()
    assert [e["name"] for e in made.data["entries"]] == ["Fyrd"]
    gone = edit(client, made, op="set", section="entries", item=first, field="name",
                value="Lost")  # fmt: skip
    assert gone.status_code == 400 and "That entry is no longer there" in gone.content.decode()


def test_a_dark_ages_count_and_its_then_step_are_saved_as_one_revision(author):
    _, client = author
    client.post("/rulesets/dark-ages-d5/new-list/", {"name": "My Picts"})
    made = ArmyList.objects.get(name="My Picts")
    url = f"/rulesets/dark-ages-d5/lists/{made.slug}/edit/"
    change = by_id(made, {"op": "set", "section": "required", "index": "0",
                          "field": "count", "value": "3"})  # fmt: skip
    refused = client.post(url, change, headers=HX)
    page = refused.content.decode()
    assert refused.status_code == 400 and "a list has 6" in page
    step = "Then raise Support’s Units to pick from 2 to 3."
    assert step in page and "required[0]" not in page
    done = client.post(url, {**change, "then": "0", "then_text": step}, headers=HX)
    assert done.status_code == 200 and "Saved, and raise Support’s" in done.content.decode()
    made.refresh_from_db()
    assert made.latest_revision == 2
    assert (made.data["required"][0]["count"], made.data["choices"][0]["pick"]) == (3, 3)
    stale = client.post(url, {**change, "value": "2", "then": "0", "then_text": step},
                        headers=HX)  # fmt: skip
    assert stale.status_code == 400 and "choose again" in stale.content.decode()


def test_try_it_checks_a_sample_army_and_shows_its_points_and_problems(author):
    _, client = author
    made = new_list(client)
    edit(client, made, op="set", section="entries", index="0", field="min", value="1")
    edit(client, made, op="values", section="entries", index="0", field="missile_weapon",
         value=[json.dumps("javelin")])  # fmt: skip
    page = edit(client, made, op="set", section="entries", index="0", field="name",
                value="Javelinmen").content.decode()  # fmt: skip
    assert "1 × Javelinmen" in page and "The sample army is legal." in page
    assert 'class="trial-points">' in page
    edit(client, made, op="add", section="limits")
    page = edit(client, made, op="set", section="limits", index="0", field="max_share",
                value="0").content.decode()  # fmt: skip
    assert "New limit: " in page and "the list allows at most 0 of the points" in page


def test_a_new_feudal_replacement_starts_as_one_the_list_has_not_got(author):
    _, client = author
    client.post("/rulesets/feudal-2017/new-list/", {"name": "My Welsh"})
    made = ArmyList.objects.get(name="My Welsh")
    url = f"/rulesets/feudal-2017/lists/{made.slug}/edit/"
    assert client.post(url, {"op": "add", "section": "replacements"}, headers=HX).status_code == 200
    assert client.post(url, {"op": "add", "section": "replacements"}, headers=HX).status_code == 200
    made.refresh_from_db()
    pairs = [(r["from"], r["to"]) for r in made.data["replacements"]]
    assert len(set(pairs)) == 2 and pairs[0] == ("freemen", "brigans")


def test_a_dark_ages_unit_or_group_is_added_and_removed_each_in_one_step(author):
    _, client = author
    client.post("/rulesets/dark-ages-2015/new-list/", {"name": "My Saxons"})
    made = ArmyList.objects.get(name="My Saxons")
    url = f"/rulesets/dark-ages-2015/lists/{made.slug}/edit/"

    def with_step(form: dict, step: str) -> None:
        refused = client.post(url, form, headers=HX)
        offered = dict((text, n) for n, text in THEN.findall(refused.content.decode()))
        assert refused.status_code == 400 and step in offered, offered
        done = client.post(url, {**form, "then": offered[step], "then_text": step}, headers=HX)
        assert done.status_code == 200

    with_step({"op": "add", "section": "required"}, "Then lower Infantry’s How many from 4 to 3.")
    with_step({"op": "add", "section": "choices"}, "Then lower Infantry’s How many from 3 to 2.")
    made.refresh_from_db()
    assert [e["key"] for e in made.data["required"]] == ["infantry", "entry-1"]
    assert [g["key"] for g in made.data["choices"]] == ["support", "entry-2"]
    with_step(by_id(made, {"op": "remove", "section": "choices", "index": "1"}),
              "Then raise Infantry’s How many from 2 to 3.")  # fmt: skip
    with_step(by_id(made, {"op": "remove", "section": "required", "index": "0"}),
              "Then raise Support’s Units to pick from 2 to 5.")  # fmt: skip
    made.refresh_from_db()
    assert [e["key"] for e in made.data["required"]] == ["entry-1"]
    assert made.latest_revision == 5
    assert rules.get_ruleset("dark-ages-2015").validate_army_list(made.data) == []


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(
    ruleset=st.sampled_from(["into-the-dark", "dark-ages-d5", "feudal-2017", "dewitt-medieval"]),
    form=st.fixed_dictionaries(
        {
            "op": st.sampled_from(["set", "values", "add", "remove", "meta", "undo", "redo", "x"]),
            "section": st.sampled_from(
                [
                    "entries",
                    "limits",
                    "required",
                    "choices",
                    "options",
                    "columns",
                    "replacements",
                    "",
                    "nope",
                ]
            ),
            "index": st.sampled_from(["0", "1", "0.0", "9", "-1", "a", ""]),
            "item": st.sampled_from(["", "entry-1", "infantry", "support/skirmishers", "x/y"]),
            "field": st.sampled_from(
                [
                    "name",
                    "min",
                    "max",
                    "count",
                    "pick",
                    "key",
                    "core",
                    "notes",
                    "quality",
                    "type",
                    "fixed",
                    "nope",
                ]
            ),
            "value": st.one_of(st.text(max_size=12), st.sampled_from(['"elite"', "3", "-2"])),
            "then": st.sampled_from(["", "0", "7", "z"]),
        }
    ),  # fmt: skip
)
def test_any_post_to_the_editor_is_answered_or_refused_never_an_error(author, ruleset, form):
    _, client = author
    made = ArmyList.objects.filter(author__username="ann", ruleset=ruleset).first()
    if made is None:
        client.post(f"/rulesets/{ruleset}/new-list/", {"name": "Fuzzed"})
        made = ArmyList.objects.get(author__username="ann", ruleset=ruleset)
    url = f"/rulesets/{ruleset}/lists/{made.slug}/edit/"
    response = client.post(url, form, headers=HX)
    assert response.status_code in (200, 400)
    made.refresh_from_db()
    assert rules.get_ruleset(ruleset).validate_army_list(made.data) == []


@pytest.mark.parametrize("ruleset", ["dark-ages-d5", "dark-ages-2015"])
def test_try_it_builds_a_new_dark_ages_list_from_its_choice_groups_too(author, ruleset):
    _, client = author
    response = client.post(f"/rulesets/{ruleset}/new-list/", {"name": "Raiders"})
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "<li>4 × Infantry</li>" in page
    assert "<li>2 × Javelin skirmishers</li>" in page  # the choice group's pick of two
    assert "The army has 4 units" not in page and "The army has 5 units" not in page


def test_the_list_version_is_the_revision_the_editors_changes_name_and_304_while_unchanged(
    author, django_assert_max_num_queries
):
    _, client = author
    made = new_list(client)
    page = client.get(f"/rulesets/into-the-dark/lists/{made.slug}/edit/").content.decode()
    url = f"/rulesets/into-the-dark/lists/{made.slug}/version.json"
    assert f'data-version-url="{url}"' in page  # the editor's page names it
    first = client.get(url)
    assert first.json() == {"version": made.latest_revision} == {"version": 1}
    assert {"private", "no-store"} <= {d.strip() for d in first["Cache-Control"].split(",")}
    # an open editor asks every second: the session, the user, the list
    with django_assert_max_num_queries(3):
        unchanged = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert unchanged["ETag"] == first["ETag"] and "no-store" in unchanged["Cache-Control"]
    edit(client, made, op="meta", field="period", value="c. 900")
    moved = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    made.refresh_from_db()
    assert moved.status_code == 200 and moved.json() == {"version": made.latest_revision}
    assert made.latest_revision == 2
    assert moved["ETag"] != first["ETag"]


def test_the_list_version_is_not_found_for_anyone_who_may_not_edit_the_list(author):
    _, client = author
    made = new_list(client)
    url = f"/rulesets/into-the-dark/lists/{made.slug}/version.json"
    etag = client.get(url)["ETag"]
    other = Client()
    assert other.get(url).status_code == 404  # a visitor
    assert other.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404
    other.force_login(User.objects.create_user("bob"))
    assert other.get(url).status_code == 404
    assert other.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404
    assert other.get(f"/rulesets/into-the-dark/lists/{made.slug}/edit/").status_code == 404
    assert client.get("/rulesets/into-the-dark/lists/no-such-list/version.json").status_code == 404
    assert client.post(url).status_code == 405
