"""Every builder change goes through one pipeline: the no-JS forms post operations and
redirect back (or show the refusal at the field), one refusal reads the same on every
path, and the operations endpoint answers only what the batch changed."""

import re
from html import escape
from typing import Any

import pytest

from armybuilder.armies import services
from armybuilder.armies.models import Army, Revision
from tests.support import army, item_id, item_url
from tests.web.armies.sending import HX, operation, send, send_batch

UNIT = {"quality": "levy", "figures": 12}


def make(user, count: int = 4, ruleset: str = "into-the-dark", **top: Any) -> Army:
    units = [{"name": f"Unit {i}", **UNIT} for i in range(count)]
    return services.create_army(army(ruleset, units, **top), owner=user)


def units_of(saved: Army) -> list[dict[str, Any]]:
    saved.refresh_from_db()
    return saved.document["units"]


def cards(html: str) -> list[str]:
    """The ids of the unit cards (``li.item``) in an answer."""
    return re.findall(r'<li class="item[^"]*" id="([^"]+)"', html)


# -- the forms without JavaScript ------------------------------------------------------------


def test_the_whole_unit_form_saves_the_changed_fields_and_redirects_to_the_card(owner_client, user):
    saved = make(user)
    unit = item_id(saved, 1)
    form = {"version": 1, "f.name": "Hird", "f.figures": "20", "f.quality": "levy"}
    response = owner_client.post(item_url(saved, 1), form)
    assert response.status_code == 302
    assert response["Location"] == f"/armies/{saved.pk}/#unit-{unit}"
    assert (units_of(saved)[1]["name"], units_of(saved)[1]["figures"]) == ("Hird", 20)
    kept = Revision.objects.filter(army=saved).order_by("version")
    assert sorted(r.field for r in kept) == ["figures", "name"]  # one set per changed field


def test_the_whole_unit_form_made_before_the_same_field_changed_elsewhere_is_a_conflict(
    owner_client, user
):
    saved = make(user)
    send(owner_client, saved, "set", item_id(saved, 0), "figures", 24, 12)  # another tab
    response = owner_client.post(item_url(saved, 0), {"version": 1, "f.figures": "18"})
    assert response.status_code == 409
    assert "changed somewhere else to 24" in response.content.decode()
    assert units_of(saved)[0]["figures"] == 24


@pytest.mark.parametrize(
    ("tail", "data", "expected"),
    [
        ("duplicate/", {}, ["Unit 0", "Unit 1", "Unit 1", "Unit 2", "Unit 3"]),
        ("move/", {"direction": "up"}, ["Unit 1", "Unit 0", "Unit 2", "Unit 3"]),
        ("delete/", {}, ["Unit 0", "Unit 2", "Unit 3"]),
    ],
)
def test_each_unit_button_without_javascript_changes_the_army_and_redirects_back(
    owner_client, user, tail, data, expected
):
    saved = make(user)
    response = owner_client.post(item_url(saved, 1, "units", tail), data)
    assert response.status_code == 302
    assert response["Location"].startswith(f"/armies/{saved.pk}/#")
    assert [u["name"] for u in units_of(saved)] == expected
    assert Revision.objects.filter(army=saved).count() == 1


def test_add_settings_and_undo_without_javascript_redirect_back_to_the_builder(owner_client, user):
    saved = make(user)
    added = owner_client.post(f"/armies/{saved.pk}/units/add/", {"version": 1})
    new = units_of(saved)[-1]["id"]
    assert added.status_code == 302
    assert added["Location"] == f"/armies/{saved.pk}/#unit-{new}"
    settings = {"version": 2, "name": "Odo's host", "points_limit": "600", "notes": ""}
    renamed = owner_client.post(f"/armies/{saved.pk}/settings/", settings)
    assert renamed.status_code == 302
    assert renamed["Location"] == f"/armies/{saved.pk}/#settings"
    saved.refresh_from_db()
    assert (saved.name, saved.document["points_limit"]) == ("Odo's host", 600)
    latest = Revision.objects.filter(army=saved).order_by("-version").first()
    undone = owner_client.post(f"/armies/{saved.pk}/undo/", {"revision": latest.pk})
    assert undone.status_code == 302
    saved.refresh_from_db()
    assert saved.version == latest.version + 1


def test_a_roll_without_javascript_replaces_the_units_and_redirects_to_them(owner_client, user):
    saved = services.create_army(
        army("feudal-2017", [{"name": "Household", "type": "knights"}]), owner=user
    )
    response = owner_client.post(f"/armies/{saved.pk}/roll/", {"version": 1})
    assert response.status_code == 302
    assert response["Location"] == f"/armies/{saved.pk}/#units"
    saved.refresh_from_db()
    assert saved.version == 2


def test_a_form_drawn_from_a_version_the_army_never_had_is_stale_and_changes_nothing(
    owner_client, user
):
    saved = make(user)
    response = owner_client.post(item_url(saved, 0), {"version": 9, "f.figures": "20"})
    assert response.status_code == 409
    assert "changed somewhere else" in response.content.decode()
    assert units_of(saved)[0]["figures"] == 12


# -- one refusal, the same words everywhere ---------------------------------------------------


def test_a_refused_value_reads_the_same_on_the_form_the_json_and_the_htmx_answer(
    owner_client, user
):
    saved = make(user)
    unit = item_id(saved, 0)
    as_json = send(owner_client, saved, "set", unit, "figures", 500, 12, hx=False)
    message = as_json.result["message"]
    assert as_json.result["status"] == "refused"
    assert "Figures" in message
    as_htmx = send(owner_client, saved, "set", unit, "figures", 500, 12)
    assert as_htmx.result["message"] == message
    assert f"Not saved: {message}" in as_htmx.result["html"]
    form = owner_client.post(item_url(saved, 0), {"version": 1, "f.figures": "500"})
    assert form.status_code == 400
    assert f"Not saved: {message}" in form.content.decode()
    htmx_form = owner_client.post(item_url(saved, 0), {"version": 1, "f.figures": "500"},
                                  headers=HX)  # fmt: skip
    assert htmx_form.status_code == 400
    assert htmx_form["HX-Retarget"] == f"#u-{unit}-figures-msg"
    assert f"Not saved: {message}" in htmx_form.content.decode()
    assert units_of(saved)[0]["figures"] == 12
    assert not Revision.objects.filter(army=saved).exists()


def test_letters_in_a_number_box_read_the_same_on_the_form_and_the_json(owner_client, user):
    saved = make(user)
    unit = item_id(saved, 0)
    as_json = send(owner_client, saved, "set", unit, "figures", "twelve", 12)
    form = owner_client.post(item_url(saved, 0), {"version": 1, "f.figures": "twelve"})
    assert form.status_code == 400
    assert escape(as_json.result["message"]) in form.content.decode()


# -- the operations endpoint's fragments ----------------------------------------------------


def test_adding_a_unit_to_a_30_unit_army_answers_only_the_new_card(owner_client, user):
    saved = make(user, 30)
    others = [u["id"] for u in units_of(saved)]
    added = send(owner_client, saved, "add", "army", "units", {"id": "fresh-1", "preset": "blank"})
    html = added.json["html"]
    assert added.result["status"] == "applied"
    assert cards(html) == ["unit-fresh-1"]
    assert [o for o in others if f'id="unit-{o}' in html] == []  # no other card or summary
    assert 'hx-swap-oob="afterend:#unit-' + others[-1] + '"' in html
    assert 'id="army-version" value="2" hx-swap-oob="true"' in html
    assert 'id="army-totals"' in html
    assert '<span class="count" id="units-count" hx-swap-oob="true">(31)</span>' in html
    assert len(html.encode()) < 30_000


def test_a_field_edit_answer_for_a_30_unit_army_is_small(owner_client, user):
    saved = make(user, 30)
    edited = send(owner_client, saved, "set", item_id(saved, 15), "figures", 20, 12)
    html = edited.json["html"]
    assert cards(html) == []
    assert f'id="unit-{item_id(saved, 15)}-summary" hx-swap-oob="true"' in html
    assert len(html.encode()) <= 5_000


def test_a_delete_answer_removes_the_card_and_sends_no_other(owner_client, user):
    saved = make(user)
    gone = item_id(saved, 1)
    html = send(owner_client, saved, "delete", gone).json["html"]
    assert f'<li id="unit-{gone}" hx-swap-oob="delete"></li>' in html
    assert cards(html) == []
    assert "toast-undo" in html  # a delete acts at once and offers undo
    count = len(units_of(saved))  # read after the delete
    assert f'<span class="count" id="units-count" hx-swap-oob="true">({count})</span>' in html


def test_a_duplicate_answer_puts_the_copy_right_after_its_source(owner_client, user):
    saved = make(user)
    source = item_id(saved, 1)
    html = send(owner_client, saved, "duplicate", source, value={"id": "copy-1"}).json["html"]
    assert cards(html) == ["unit-copy-1"]
    assert re.search(rf'<div hx-swap-oob="afterend:#unit-{source}">\s*<li class="item', html)


def test_a_move_answer_puts_the_moved_card_at_its_new_place_only(owner_client, user):
    saved = make(user)
    moved, before = item_id(saved, 2), item_id(saved, 0)
    html = send(owner_client, saved, "move", moved, value="up").json["html"]
    assert f'<li id="unit-{moved}" hx-swap-oob="delete"></li>' in html
    assert cards(html) == [f"unit-{moved}"]
    assert f'hx-swap-oob="afterend:#unit-{before}"' in html


def test_a_conflict_answer_carries_the_fields_choice(owner_client, user):
    saved = make(user)
    unit = item_id(saved, 0)
    send(owner_client, saved, "set", unit, "figures", 24, 12)
    answer = send(owner_client, saved, "set", unit, "figures", 18, 12)
    assert answer.result["status"] == "conflict"
    assert answer.result["theirs"] == 24
    assert 'data-conflict="mine"' in answer.result["html"]
    assert "<strong>24</strong>" in answer.result["html"]


def test_a_batch_answers_each_result_and_only_the_cards_it_touched(owner_client, user):
    saved = make(user, 6)
    first, third = item_id(saved, 0), item_id(saved, 2)
    batch = [
        operation(saved, "set", first, "figures", 20, 12),
        operation(saved, "set", third, "figures", 500, 12),
        operation(saved, "set", third, "name", "Hird", "Unit 2"),
    ]
    answer = send_batch(owner_client, saved, batch).json()
    assert [r["status"] for r in answer["results"]] == ["applied", "refused", "applied"]
    assert "html" in answer["results"][1]
    summaries = re.findall(r'id="(unit-[^"]+)-summary" hx-swap-oob="true"', answer["html"])
    assert sorted(summaries) == sorted([f"unit-{first}", f"unit-{third}"])
    assert answer["version"] == 3


def test_without_htmx_the_answer_has_no_html(owner_client, user):
    saved = make(user)
    answer = send(owner_client, saved, "set", item_id(saved, 0), "figures", 20, 12, hx=False)
    assert "html" not in answer.json
    assert answer.result["value"] == 20


def test_adding_from_the_lists_picker_redraws_the_picker_and_keeps_the_focus_there(
    owner_client, user
):
    saved = make(user, 2, army_list="anglo-danish-1066")
    value = {"id": "huscarls-1", "preset": "entry:huscarls"}
    html = send(owner_client, saved, "add", "army", "units", value).json["html"]
    assert cards(html) == ["unit-huscarls-1"]
    assert 'id="add-unit-panel" hx-swap-oob="true"' in html
    assert " autofocus" not in html
