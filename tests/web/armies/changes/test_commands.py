"""The builder's change protocol: one field at a time, conflicts, revisions, undo, history."""

import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

import rules
from armybuilder.armies import services
from armybuilder.armies.models import Army, Revision
from armybuilder.catalog.selectors import get_list
from tests.support import army, builder_with_editors, item_id, item_url
from tests.web.armies.sending import QUERIES_PER_SET, send

HX = {"HX-Request": "true"}


def unit(name: str, **values: Any) -> dict[str, Any]:
    return {"name": name, "quality": "levy", **values}


def make(user: User, count: int = 3, ruleset: str = "into-the-dark", **top: Any) -> Army:
    units = [unit(f"Unit {i}") for i in range(count)]
    return services.create_army(army(ruleset, units, **top), owner=user)


def typed(value: str) -> Any:
    """A control's text as the page's script sends it: a number as a number."""
    return int(value) if value.lstrip("-").isdigit() else value


def change(
    client: Client,
    saved: Army,
    index: int | str,  # the unit's place now, or its id (a page drawn before other changes)
    field: str,
    value: str,
    made_from: Any,
    version: int = 1,
    kind: str = "units",
):
    unit_id = index if isinstance(index, str) else item_id(saved, index, kind)
    return send(client, saved, "set", unit_id, field, typed(value), made_from, version)


def undo(client: Client, saved: Army):
    """Undo as the builder page does: naming the change its Undo button shows."""
    page = client.get(f"/armies/{saved.pk}/").content.decode()
    shown = re.search(r'id="undo-revision" value="(\d*)"', page)
    assert shown is not None
    return client.post(f"/armies/{saved.pk}/undo/", {"revision": shown.group(1)}, headers=HX)


def setting(client: Client, saved: Army, field: str, value: str, made_from: Any):
    return send(client, saved, "set", "army", field, typed(value), made_from, 1)


def units_of(saved: Army) -> list[dict[str, Any]]:
    saved.refresh_from_db()
    return saved.document["units"]


def test_a_field_change_saves_that_field_and_answers_with_the_saved_value(owner_client, user):
    saved = make(user)
    response = change(owner_client, saved, 1, "figures", "24", 12)
    assert response.status_code == 200
    assert response.result["value"] == 24
    body = response.content.decode()
    assert f'id="unit-{item_id(saved, 1)}-summary" hx-swap-oob="true"' in body
    assert 'name="f.figures"' not in body  # the control being typed in is never redrawn
    assert [u["figures"] for u in units_of(saved)] == [12, 24, 12]
    revision = Revision.objects.get(army=saved)
    assert (revision.kind, revision.field, revision.before, revision.after) == (
        "field",
        "figures",
        12,
        24,
    )
    assert revision.document is None  # a field revision stores no whole document


def test_a_whole_form_keeps_another_tabs_change_of_a_field_the_player_left_alone(
    owner_client, user
):
    saved = make(user)
    assert change(owner_client, saved, 0, "figures", "20", 12).status_code == 200  # a tab
    data = {"version": 1, "f.name": "Huscarls", "f.figures": "12"}  # drawn at version 1
    response = owner_client.post(item_url(saved, 0), data)
    assert response.status_code == 302
    assert units_of(saved)[0]["name"] == "Huscarls"
    assert units_of(saved)[0]["figures"] == 20


def test_the_same_field_changed_since_gets_409_with_both_values_and_nothing_is_overwritten(
    owner_client, user
):
    saved = make(user)
    assert change(owner_client, saved, 0, "figures", "24", 12).status_code == 200  # tab one
    response = change(owner_client, saved, 0, "figures", "18", 12)  # tab two, made from 12
    assert response.status_code == 409
    body = response.content.decode()
    assert "<strong>24</strong>" in body and "<strong>18</strong>" in body
    assert 'data-conflict="mine"' in body and 'data-conflict="theirs"' in body
    assert (response.result["target"], response.result["field"]) == (item_id(saved, 0), "figures")
    assert response.result["theirs"] == 24
    assert units_of(saved)[0]["figures"] == 24
    # "Keep mine": the same value sent again, made from theirs, lands
    assert change(owner_client, saved, 0, "figures", "18", 24).status_code == 200
    assert units_of(saved)[0]["figures"] == 18


def test_changes_to_different_fields_from_two_tabs_both_land(owner_client, user):
    saved = make(user)
    assert setting(owner_client, saved, "name", "Odo's host", "Test army").status_code == 200
    assert change(owner_client, saved, 0, "figures", "24", 12).status_code == 200
    assert change(owner_client, saved, 0, "name", "Militia of Bern", "Unit 0").status_code == 200
    saved.refresh_from_db()
    assert saved.document["name"] == "Odo's host"
    assert units_of(saved)[0] == {**units_of(saved)[0], "figures": 24, "name": "Militia of Bern"}
    assert saved.version == 4


def test_a_change_follows_its_unit_when_another_tab_deleted_one_before_it(owner_client, user):
    saved = make(user)
    drawn = [u["id"] for u in units_of(saved)]  # the page's units
    services.delete_item(
        saved, kind="units", item_id=drawn[0]
    )  # another tab: "Unit 0" gone, version 2
    response = change(owner_client, saved, drawn[2], "figures", "30", 12, version=1)
    assert response.status_code == 200
    assert [(u["name"], u["figures"]) for u in units_of(saved)] == [
        ("Unit 1", 12),
        ("Unit 2", 30),
    ]


def test_a_change_to_a_unit_another_tab_deleted_changes_nothing(owner_client, user):
    saved = make(user)
    gone = item_id(saved, 1)
    services.delete_item(saved, kind="units", item_id=gone)
    before = units_of(saved)
    response = change(owner_client, saved, gone, "figures", "30", 12, version=1)
    assert response.status_code == 409
    assert response.result["status"] == "gone"
    assert "deleted elsewhere" in response.result["message"]
    assert units_of(saved) == before


@pytest.mark.parametrize(
    ("ops", "index"),
    [
        ([("add", 0)], 1),
        ([("move", 0)], 0),
        ([("move", 2)], 0),
        ([("delete", 0), ("add", 0)], 2),
        ([("duplicate", 1), ("move", 3)], 1),
    ],
)
def test_a_change_lands_on_its_unit_whatever_other_tabs_added_moved_or_deleted(
    owner_client, user, ops, index
):
    saved = make(user)
    target = item_id(saved, index)  # the unit as drawn on the page
    for op, at in ops:  # another tab
        if op == "add":
            saved = services.add_item(saved, kind="units", version=saved.version).army
        elif op == "move":
            saved = services.move_item(
                saved, kind="units", item_id=item_id(saved, at), delta=1
            ).army
        else:
            getattr(services, f"{op}_item")(saved, kind="units", item_id=item_id(saved, at))
            saved.refresh_from_db()
    assert change(owner_client, saved, target, "figures", "30", 12).status_code == 200
    changed = [u for u in units_of(saved) if u["figures"] == 30]
    assert [u["id"] for u in changed] == [target]
    assert changed[0]["name"] == f"Unit {index}"


def test_a_refused_value_is_shown_beside_its_field_and_nothing_is_saved(owner_client, user):
    saved = make(user)
    response = change(owner_client, saved, 0, "figures", "-5", 12)
    assert response.status_code == 400
    assert (response.result["target"], response.result["field"]) == (item_id(saved, 0), "figures")
    assert "Not saved:" in response.content.decode()
    assert units_of(saved)[0]["figures"] == 12
    assert not Revision.objects.filter(army=saved).exists()


def test_a_settings_change_updates_unit_points_out_of_band_and_a_new_list_redraws_the_builder(
    owner_client, user
):
    saved = make(user, 2)
    response = setting(owner_client, saved, "points_limit", "900", None)
    body = response.content.decode()
    assert response.status_code == 200
    assert f'id="unit-{item_id(saved, 0)}-summary" hx-swap-oob="true"' in body
    assert 'id="units"' not in body and 'name="f.figures"' not in body
    listed = setting(owner_client, saved, "army_list", "anglo-danish-1066", None).content
    assert '<div id="builder" hx-swap-oob="true"' in listed.decode()  # the picker changes
    assert "toast-undo" in listed.decode()  # changing the list acts at once and offers undo
    renamed = setting(owner_client, saved, "name", "New name", "Test army").content.decode()
    assert (
        f'id="unit-{item_id(saved, 0)}-summary"' not in renamed and '<h1 id="army-title"' in renamed
    )


def test_undo_after_delete_restores_the_army_exactly(owner_client, user):
    saved = make(user)
    before = dict(saved.document)
    response = owner_client.post(item_url(saved, 1, "units", "delete/"), {"version": 1}, headers=HX)
    assert (
        "Deleted Unit 1" in response.content.decode() and "toast-undo" in response.content.decode()
    )
    toast_revision = Revision.objects.get(army=saved, version=2)
    undone = owner_client.post(
        f"/armies/{saved.pk}/undo/", {"revision": toast_revision.pk}, headers=HX
    )
    assert undone.status_code == 200
    saved.refresh_from_db()
    assert saved.document == before
    assert Revision.objects.get(pk=toast_revision.pk).undone


def test_undo_steps_back_through_changes_one_at_a_time(owner_client, user):
    saved = make(user)
    states = [json.loads(json.dumps(saved.document))]
    change(owner_client, saved, 0, "figures", "20", 12)
    states.append(units_of(saved) and json.loads(json.dumps(saved.document)))
    owner_client.post(f"/armies/{saved.pk}/units/add/", {"version": 1}, headers=HX)
    saved.refresh_from_db()
    states.append(json.loads(json.dumps(saved.document)))
    setting(owner_client, saved, "points_limit", "500", None)
    for expected in reversed(states):
        assert undo(owner_client, saved).status_code == 200
        saved.refresh_from_db()
        assert saved.document == expected
    assert undo(owner_client, saved).status_code == 409


def test_undo_after_a_feudal_roll_restores_the_army_exactly(owner_client, user):
    saved = services.create_army(
        army("feudal-2017", [{"name": "Household", "type": "knights"}]), owner=user
    )
    before = json.loads(json.dumps(saved.document))
    rolled = owner_client.post(f"/armies/{saved.pk}/roll/", {"version": 1}, headers=HX)
    assert "toast-undo" in rolled.content.decode()
    saved.refresh_from_db()
    assert saved.document != before
    assert undo(owner_client, saved).status_code == 200
    saved.refresh_from_db()
    assert saved.document == before


def test_a_toast_undo_of_a_change_no_longer_latest_is_refused(owner_client, user):
    saved = make(user)
    services.delete_item(saved, kind="units", item_id=item_id(saved, 0))
    saved.refresh_from_db()
    deleted = Revision.objects.get(army=saved, version=2)
    change(owner_client, saved, 0, "figures", "20", 12, version=2)
    response = owner_client.post(f"/armies/{saved.pk}/undo/", {"revision": deleted.pk}, headers=HX)
    assert response.status_code == 409
    assert "open History" in response.content.decode()
    assert len(units_of(saved)) == 2


def test_history_lists_changes_and_restores_any_version_exactly(owner_client, user):
    saved = make(user)
    documents = {1: json.loads(json.dumps(saved.document))}
    change(owner_client, saved, 0, "figures", "20", 12)
    saved.refresh_from_db()
    documents[2] = json.loads(json.dumps(saved.document))
    owner_client.post(item_url(saved, 2, "units", "delete/"), {"version": 1}, headers=HX)
    setting(owner_client, saved, "name", "Renamed", "Test army")
    page = owner_client.get(f"/armies/{saved.pk}/history/").content.decode()
    assert "Unit 0: Figures 12 → 20" in page and "Deleted Unit 2" in page
    assert "Army name: Test army → Renamed" in page
    for version, expected in documents.items():
        response = owner_client.post(f"/armies/{saved.pk}/history/{version}/restore/")
        assert response.status_code == 302
        saved.refresh_from_db()
        assert saved.document == expected


def test_another_user_gets_404_for_changes_undo_history_and_restore(client, user, db):
    saved = make(user)
    User.objects.create_user("mallory", password="x-long-Pass-123")
    client.login(username="mallory", password="x-long-Pass-123")
    assert change(client, saved, 0, "figures", "20", 12).status_code == 404
    assert client.post(f"/armies/{saved.pk}/undo/").status_code == 404
    assert client.get(f"/armies/{saved.pk}/history/").status_code == 404
    assert client.post(f"/armies/{saved.pk}/history/1/restore/").status_code == 404
    assert units_of(saved)[0]["figures"] == 12


def test_changes_and_undo_need_the_csrf_token(user, db):
    saved = make(user)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    assert change(strict, saved, 0, "figures", "20", 12).status_code == 403
    assert strict.post(f"/armies/{saved.pk}/undo/").status_code == 403
    assert strict.post(f"/armies/{saved.pk}/history/1/restore/").status_code == 403


@pytest.mark.parametrize("size", [30, 300])
def test_queries_per_field_change_do_not_grow_with_the_army(
    owner_client, user, django_assert_max_num_queries, size
):
    saved = make(user, size)
    drawn = item_id(saved, size // 2 + 1)
    services.delete_item(
        saved, kind="units", item_id=item_id(saved, 0)
    )  # the page is older than the army
    with django_assert_max_num_queries(QUERIES_PER_SET):
        response = change(owner_client, saved, drawn, "figures", "20", 12, version=1)
    assert response.status_code == 200
    with django_assert_max_num_queries(QUERIES_PER_SET + 1):
        response = setting(owner_client, saved, "points_limit", "900", None)
    assert response.status_code == 200


def test_a_field_the_unit_does_not_have_is_refused_by_name_and_changes_nothing(owner_client, user):
    saved = make(user)
    response = change(owner_client, saved, 0, "name\r\nX-Evil: 1", "x", "nope")
    assert response.status_code == 400
    assert "no field" in response.result["message"]
    assert change(owner_client, saved, 0, "no_such_field", "x", "x").status_code == 400
    assert not Revision.objects.filter(army=saved).exists()


def test_the_d5_ally_is_a_menu_of_the_other_lists_names(owner_client, user):
    saved = services.create_army(
        army("dark-ages-d5", [{"name": "Spears", "type": "infantry"}], army_list="picts"),
        owner=user,
    )
    page = builder_with_editors(owner_client, saved)
    menu = page[page.index(f'<select id="u-{item_id(saved, 0)}-ally"') :]
    menu = menu[: menu.index("</select>")]
    assert '<option value="" selected>' in menu
    assert '<option value="north-welsh">' in menu and 'value="picts"' not in menu


def test_a_list_unit_is_offered_only_the_values_its_entry_allows_with_the_reason(
    owner_client, user
):
    saved = services.create_army(
        army("into-the-dark", [{"name": "Bondi", "quality": "average"}], army_list="viking"),
        owner=user,
    )
    ruleset = rules.get_ruleset("into-the-dark")
    rule = ruleset.allowed_values(
        get_list("into-the-dark", slug="viking").data, saved.document["units"][0]
    )
    field, allowed = next(
        (f, a) for f, a in rule.items() if "." not in f and ruleset.unit_field(f).kind == "choice"
    )
    page = builder_with_editors(owner_client, saved)
    control = page[page.index(f'id="u-{item_id(saved, 0)}-{field.replace("_", "-")}"') :]
    control = control[: control.index("</div>")]
    assert allowed.reason in control.replace("&#x27;", "'")
    assert "disabled" in control and "(not allowed)" in control


def test_the_error_count_jumps_to_the_first_problem_and_each_card_shows_its_own(owner_client, user):
    saved = services.create_army(
        army("into-the-dark", [unit("Fine"), unit("Bowmen", missile_weapon="foot_bow")]),
        owner=user,
    )
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    assert (
        f'<a class="jump" href="#unit-{item_id(saved, 1)}" data-open-target>1 error, 0 warnings</a>'
        in page
    )
    card = page[page.index(f'id="unit-{item_id(saved, 1)}-summary"') :]
    card = card[: card.index("</summary>")]
    assert "card-problem error" in card and "melee troops carry no missile weapon" in card
    first = page[
        page.index(f'id="unit-{item_id(saved, 0)}-summary"') : page.index(
            f'id="unit-{item_id(saved, 1)}-summary"'
        )
    ]
    assert "card-problem" not in first


def test_revisions_are_visible_in_the_admin(client, user):
    saved = make(user)
    services.delete_item(saved, kind="units", item_id=item_id(saved, 0))
    admin = User.objects.create_superuser("root", "root@example.com", "a-long-Pass-123")
    client.force_login(admin)
    page = client.get("/admin/armies/revision/").content.decode()
    assert "Deleted Unit 0" in page
    revision = Revision.objects.get(army=saved)
    assert client.get(f"/admin/armies/revision/{revision.pk}/change/").status_code == 200


def test_an_undo_from_an_older_pages_form_naming_no_change_is_refused_and_undoes_nothing(
    owner_client, user
):
    saved = make(user)
    assert change(owner_client, saved, 0, "figures", "20", 12).status_code == 200  # this tab
    assert change(owner_client, saved, 1, "figures", "30", 12).status_code == 200  # another tab
    before = units_of(saved)
    response = owner_client.post(f"/armies/{saved.pk}/undo/", {}, headers=HX)
    assert response.status_code == 409
    assert "did not say which change to undo, so nothing was undone" in response.content.decode()
    assert units_of(saved) == before
    assert not Revision.objects.filter(army=saved, undone=True).exists()
