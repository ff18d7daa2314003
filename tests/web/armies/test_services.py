"""Saved armies: every change goes through the engine's parser; versions guard saves."""

import html
import json
from typing import Any

import pytest
from django.http import QueryDict
from django.urls import reverse
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rules
from armybuilder.armies import services
from armybuilder.armies.builder.controls import Control, controls_for
from armybuilder.armies.field_values import values_from_post
from armybuilder.armies.history.revisions import ItemGone
from armybuilder.armies.models import Army
from rules.document import parse_document
from rules.fields import Field
from tests.support import army, example, fixture_lists, item_id

MILITIA = {"name": "Town Militia", "quality": "levy"}
KNIGHTS = {
    "name": "Knights",
    "quality": "fanatic",
    "density": "loose",
    "armour": "mailed",
    "mounted": True,
}
ARCHERS = {
    "name": "Combat Archers",
    "quality": "elite",
    "density": "loose",
    "armour": "protected",
    "training": "cross_trained",
    "missile_weapon": "foot_bow",
}


def itd(units: list[dict[str, Any]], **top: Any) -> dict[str, Any]:
    return army("into-the-dark", units, **top)


def post_card(client, saved, kind: str, item: str, data: Any, version: int):
    """A unit's (or general's) whole form posted without JavaScript, as the card sends it;
    the answer's text unescaped."""
    fields = dict(data.lists()) if isinstance(data, QueryDict) else dict(data)
    response = client.post(
        reverse("armies:edit_item", args=[saved.pk, kind, item]), {"version": version, **fields}
    )
    return response, html.unescape(response.content.decode())


def test_a_new_army_is_private_until_its_owner_shares_it_with_one_tap(client, user):
    saved = services.create_army(itd([MILITIA]), owner=user)
    assert saved.share_token is None
    client.force_login(user)
    assert "Sharing is off" in client.get(f"/armies/{saved.pk}/").content.decode()
    panel = client.post(f"/armies/{saved.pk}/share/regenerate/", HTTP_HX_REQUEST="true")
    saved.refresh_from_db()
    assert saved.share_token and saved.share_token in panel.content.decode()
    assert "Sharing is on" in panel.content.decode()
    client.logout()
    assert client.get(f"/s/{saved.share_token}/").status_code == 200


def test_turning_sharing_off_says_it_once(client, user):
    saved = services.create_army(itd([MILITIA]), owner=user)
    services.regenerate_share_token(saved)
    client.force_login(user)
    panel = client.post(f"/armies/{saved.pk}/share/off/", HTTP_HX_REQUEST="true")
    assert panel.content.decode().count("Sharing is off") == 1


def test_create_army_stores_the_parsers_normalised_document(user):
    saved = services.create_army(itd([MILITIA]), owner=user)
    saved.refresh_from_db()
    unit = saved.document["units"][0]
    assert unit["figures"] == 12 and unit["armour"] == "unarmoured" and unit["division"] is None
    assert saved.document["army_list"] is None and saved.document["notes"] == ""
    assert saved.version == 1 and saved.share_token is None  # private until shared


def test_malformed_document_never_saves(user):
    with pytest.raises(rules.MalformedDocument) as caught:
        services.create_army(itd([{"name": "Bad", "armour": "plate"}]), owner=user)
    assert "units[0].armour" in caught.value.message
    assert Army.objects.count() == 0


def test_illegal_but_well_formed_army_saves_and_shows_its_problems(user):
    saved = services.create_army(itd([{**MILITIA, "missile_weapon": "foot_bow"}]), owner=user)
    checked = services.check_army(saved)
    assert [i.code for i in checked.report.errors] == ["melee-with-missile-weapon"]


def test_a_second_tabs_card_of_the_same_value_is_refused_and_nothing_is_overwritten(
    user, owner_client
):
    saved = services.create_army(itd([MILITIA]), owner=user)
    unit = item_id(saved, 0)
    first, _ = post_card(owner_client, saved, "units", unit, {"f.figures": "20"}, version=1)
    assert first.status_code == 302
    second, text = post_card(owner_client, saved, "units", unit, {"f.figures": "6"}, version=1)
    assert second.status_code == 409
    assert "Figures was changed somewhere else to 20" in text
    saved.refresh_from_db()
    assert saved.document["units"][0]["figures"] == 20 and saved.version == 2


def test_concurrent_write_between_read_and_update_is_caught_by_the_version_filter(user):
    saved = services.create_army(itd([MILITIA]), owner=user)
    stale = Army.objects.get(pk=saved.pk)
    Army.objects.filter(pk=saved.pk).update(version=5)  # another request won the race
    with pytest.raises(services.StaleVersion) as caught:
        services.save_document(stale, raw=itd([KNIGHTS]), version=1)
    assert caught.value.army.version == 5
    saved.refresh_from_db()
    assert saved.document["units"][0]["name"] == "Town Militia"


def test_an_unchanged_card_writes_nothing_and_keeps_the_version(user, owner_client):
    saved = services.create_army(itd([MILITIA]), owner=user)
    data = {"f.name": "  Town Militia  "}
    response, _ = post_card(owner_client, saved, "units", item_id(saved, 0), data, version=1)
    assert response.status_code == 302
    saved.refresh_from_db()
    assert saved.version == 1


def test_a_card_converts_form_strings_by_field_kind(user, owner_client):
    saved = services.create_army(itd([MILITIA]), owner=user)
    post = QueryDict(mutable=True)
    post.update({"f.figures": "24", "f.missile_weapon": "", "f.division": " "})
    post.setlist("f.mounted", ["0", "1"])
    post.setlist("f.shieldwall", ["0"])
    response, _ = post_card(owner_client, saved, "units", item_id(saved, 0), post, version=1)
    assert response.status_code == 302
    saved.refresh_from_db()
    unit = saved.document["units"][0]
    assert (unit["figures"], unit["mounted"], unit["shieldwall"]) == (24, True, False)
    assert unit["missile_weapon"] is None and unit["division"] is None


def test_letters_in_a_number_box_are_refused_naming_unit_and_field(user, owner_client):
    saved = services.create_army(itd([MILITIA]), owner=user)
    data = {"f.figures": "twelve"}
    response, text = post_card(owner_client, saved, "units", item_id(saved, 0), data, 1)
    assert response.status_code == 400
    assert "Not saved: Town Militia (unit 1), Figures: must be a whole number, not 'twelve'" in text
    saved.refresh_from_db()
    assert saved.version == 1


def test_out_of_range_value_gives_the_parsers_message_in_player_terms(user, owner_client):
    saved = services.create_army(itd([MILITIA]), owner=user)
    data = {"f.figures": "500"}
    response, text = post_card(owner_client, saved, "units", item_id(saved, 0), data, 1)
    assert response.status_code == 400
    assert "Town Militia (unit 1), Figures: 500 is above the maximum 400" in text


def test_a_value_the_rule_set_lacks_is_refused_with_the_allowed_values(user, owner_client):
    saved = services.create_army(itd([MILITIA]), owner=user)
    data = {"f.armour": "plate"}
    response, text = post_card(owner_client, saved, "units", item_id(saved, 0), data, 1)
    assert response.status_code == 400
    assert "'plate' is not one of unarmoured, protected" in text


def test_add_duplicate_move_and_delete_units(user):
    saved = services.create_army(itd([MILITIA, KNIGHTS]), owner=user)
    services.add_item(saved, kind="units", version=1)
    assert [u["name"] for u in saved.document["units"]] == ["Town Militia", "Knights", "Unit 3"]
    services.duplicate_item(saved, kind="units", item_id=item_id(saved, 1))
    names = [u["name"] for u in saved.document["units"]]
    assert names == ["Town Militia", "Knights", "Knights", "Unit 3"]
    services.move_item(saved, kind="units", item_id=item_id(saved, 3), delta=-1)
    services.move_item(
        saved, kind="units", item_id=item_id(saved, 0), delta=-1
    )  # already first: stays put, nothing written
    names = [u["name"] for u in saved.document["units"]]
    assert names == ["Town Militia", "Knights", "Unit 3", "Knights"]
    services.delete_item(saved, kind="units", item_id=item_id(saved, 0))
    saved.refresh_from_db()
    assert [u["name"] for u in saved.document["units"]] == ["Knights", "Unit 3", "Knights"]
    assert saved.version == 5


def test_a_unit_id_the_army_does_not_hold_is_gone_for_a_delete_and_for_an_edit(user, owner_client):
    saved = services.create_army(itd([MILITIA]), owner=user)
    with pytest.raises(ItemGone):  # deleted elsewhere: nothing to delete
        services.delete_item(saved, kind="units", item_id="gone-unit")
    data = {"f.figures": "3"}
    response, _ = post_card(owner_client, saved, "units", "gone-unit", data, version=1)
    assert response.status_code == 409
    saved.refresh_from_db()
    assert saved.version == 1


def test_add_unit_from_an_army_list_entry_takes_the_entrys_values(user):
    saved = services.create_army(itd([], army_list="anglo-danish-1066"), owner=user)
    listed = {p.key: p for p in services.presets(
        rules.get_ruleset("into-the-dark"), fixture_lists("into-the-dark")["anglo-danish-1066"]
    )}  # fmt: skip
    assert listed["entry:huscarls"].label == "Huscarls"
    checked = services.add_item(saved, kind="units", version=1, preset_key="entry:huscarls")
    unit = checked.army.document["units"][0]
    assert (unit["name"], unit["quality"], unit["armour"]) == ("Huscarls", "elite", "armoured")
    assert not [i for i in checked.report.issues if i.code == "not-in-army-list"]


def test_add_unit_offers_the_rule_sets_unit_types():
    feudal = rules.get_ruleset("feudal-2017")
    keys = {p.key for p in services.presets(feudal, None)}
    assert {"blank", "type:knights", "type:bowmen", "type:freemen"} <= keys


def test_dark_ages_list_required_and_choice_units_are_offered():
    ruleset = rules.get_ruleset("dark-ages-2015")
    data = next(iter(fixture_lists("dark-ages-2015").values()))
    labels = [p.label for p in services.presets(ruleset, data) if p.key.startswith("entry:")]
    assert labels and len(labels) >= 3


def test_an_unknown_preset_is_not_found(user):
    saved = services.create_army(itd([]), owner=user)
    with pytest.raises(services.ItemNotFound):
        services.add_item(saved, kind="units", version=1, preset_key="entry:99")


def test_renaming_a_general_keeps_the_units_in_their_division(user, owner_client):
    doc = example("into-the-dark-source-examples.json")
    saved = services.create_army(doc, owner=user)
    general = item_id(saved, 0, "generals")
    data = {"f.name": "Duke William"}
    response, _ = post_card(owner_client, saved, "generals", general, data, version=1)
    assert response.status_code == 302
    saved.refresh_from_db()
    assert {u["division"] for u in saved.document["units"]} == {"Duke William"}
    checked = services.check_army(saved)
    assert not [i for i in checked.report.issues if i.code == "unknown-division"]


def test_settings_change_name_limit_options_and_notes(user):
    saved = services.create_army(itd([MILITIA, KNIGHTS]), owner=user)
    post = QueryDict(mutable=True)
    post.update({"name": "Hastings", "points_limit": "250", "notes": "line one\r\nline two"})
    post.setlist("f.command_and_control", ["0"])
    post.update({"f.figure_scale": "15mm"})
    checked = services.update_settings(saved, data=post, version=1)
    doc = checked.army.document
    assert (doc["name"], doc["points_limit"], doc["notes"]) == (
        "Hastings",
        250,
        "line one\nline two",
    )
    assert doc["options"] == {
        "command_and_control": False,
        "figure_scale": "15mm",
    }
    assert [i.code for i in checked.report.errors] == ["over-points-limit"]
    assert checked.report.units[0].stats["move"] == '3"'


def test_points_limit_in_a_rule_set_without_points_is_ignored(user):
    saved = services.create_army(army("feudal-2017", []), owner=user)
    checked = services.update_settings(saved, data={"points_limit": "500"}, version=1)
    assert checked.army.document["points_limit"] is None


def test_roll_a_force_fields_a_row_of_the_force_matrix(user):
    saved = services.create_army(army("feudal-2017", [{"name": "Old"}], notes=""), owner=user)
    checked = services.roll_force(saved, version=1, seed=4)
    assert len(checked.army.document["units"]) == 6
    assert checked.report.composition["matrix_rows"]
    assert checked.report.valid
    assert checked.army.document["name"] == "Test army"  # the player's name is kept


def test_roll_is_refused_for_a_rule_set_without_a_force_matrix(user):
    saved = services.create_army(itd([]), owner=user)
    with pytest.raises(services.ItemNotFound):
        services.roll_force(saved, version=1, seed=1)


def test_duplicate_army_is_a_new_private_army_even_of_a_shared_one(user):
    saved = services.create_army(itd([MILITIA]), owner=user)
    services.regenerate_share_token(saved)
    copy = services.duplicate_army(saved, owner=user)
    assert copy.pk != saved.pk and saved.share_token and copy.share_token is None
    assert copy.document["name"] == "Copy of Test army"
    assert copy.document["units"] == saved.document["units"]


def test_claim_drafts_moves_a_visitors_armies_into_the_account(user):
    draft = services.create_army(itd([MILITIA]), session_key="visitor-key")
    other = services.create_army(itd([MILITIA]), session_key="someone-else")
    assert services.claim_drafts(user, ["visitor-key"]) == 1
    draft.refresh_from_db()
    other.refresh_from_db()
    assert draft.owner == user and draft.session_key == ""
    assert other.owner is None


def test_database_refuses_an_army_that_is_both_owned_and_a_draft(user):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Army.objects.create(owner=user, session_key="abc", document=itd([]))
    with pytest.raises(IntegrityError), transaction.atomic():
        Army.objects.create(session_key="", document=itd([]))
    with pytest.raises(IntegrityError), transaction.atomic():
        Army.objects.create(owner=user, document=itd([]), share_token="")


def test_model_clean_refuses_a_malformed_document(user):
    from django.core.exceptions import ValidationError

    bad = Army(owner=user, document=itd([{"name": "X", "figures": 0}]))
    with pytest.raises(ValidationError) as caught:
        bad.full_clean()
    assert "units[0].figures" in str(caught.value)


# -- the controls: built from the vocabulary, read back exactly -------------------------------


def browser_post(controls: list[Control]) -> QueryDict:
    """What a browser submits for these controls (hidden markers, ticked boxes...)."""
    post = QueryDict(mutable=True)

    def emit(c: Control) -> None:
        if c.widget == "checkbox":
            post.appendlist(c.name, "0")
            if c.checked:
                post.appendlist(c.name, "1")
        elif c.widget == "select":
            chosen = [o for o in c.options if o.selected] or [c.options[0]]
            post.appendlist(c.name, chosen[-1].value)
        elif c.widget == "multi":
            post.appendlist(c.name, "")
            for o in c.options:
                if o.selected:
                    post.appendlist(c.name, o.value)
        elif c.widget == "object":
            if c.nullable:
                post.appendlist(c.name, "0")
                if c.checked:
                    post.appendlist(c.name, "1")
            for child in c.children:
                emit(child)
        else:
            post.appendlist(c.name, c.value)

    for control in controls:
        emit(control)
    return post


TEXT = st.text(
    alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyz ABC<>&\"'-0123456789"),
    min_size=1,
    max_size=20,
).filter(lambda s: s.strip())


def value_for(f: Field) -> st.SearchStrategy[Any]:
    if f.kind in ("string", "text"):
        base = TEXT.map(str.strip)
        return st.one_of(st.none(), base) if f.nullable else base
    if f.kind == "integer":
        low = int(f.minimum) if f.minimum is not None else 0
        high = int(f.maximum) if f.maximum is not None else 1000
        return st.integers(low, high)
    if f.kind == "number":
        low = int((f.minimum or 0) * 4)
        high = int((f.maximum if f.maximum is not None else 100) * 4)
        return st.integers(low, high).map(lambda n: n / 4)
    if f.kind == "boolean":
        return st.booleans()
    if f.kind == "choice":
        values = list(f.values) + ([None] if f.nullable and None not in f.values else [])
        return st.sampled_from(values)
    if f.kind == "multi":
        # the builder lists ticked choices in the rule set's order
        return st.lists(st.booleans(), min_size=len(f.values), max_size=len(f.values)).map(
            lambda picks: [v for v, p in zip(f.values, picks, strict=True) if p]
        )
    if f.kind == "object":
        inner = st.fixed_dictionaries({sub.name: value_for(sub) for sub in f.fields})
        return st.one_of(st.none(), inner) if f.nullable else inner
    raise AssertionError(f.kind)


@st.composite
def ruleset_and_unit(draw: st.DrawFn) -> tuple[rules.RuleSet, dict[str, Any]]:
    ruleset = draw(st.sampled_from(rules.all_rulesets()))
    unit = draw(st.fixed_dictionaries({f.name: value_for(f) for f in ruleset.unit_fields}))
    return ruleset, unit


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(ruleset_and_unit())
def test_every_rule_sets_controls_post_back_the_same_unit(case):
    ruleset, raw = case
    try:
        parsed = parse_document(army(ruleset.slug, [raw])).units[0]
    except rules.MalformedDocument:
        assume(False)
    controls = controls_for(ruleset.unit_fields, parsed, "u0")
    for control in controls:  # a unit is never offered a value its rule set lacks
        if control.widget == "select":
            field = ruleset.unit_field(control.name.removeprefix("f."))
            allowed = {"" if v is None else str(v) for v in field.values} | {""}
            assert {o.value for o in control.options} <= allowed
    read = values_from_post(ruleset.unit_fields, browser_post(controls), {}, "units[0]")
    again = parse_document(army(ruleset.slug, [read])).units[0]
    assert again == parsed


def test_a_refused_change_leaves_the_army_in_memory_as_it_was(user):
    saved = services.create_army(example("into-the-dark-source-examples.json"), owner=user)
    before = json.loads(json.dumps(saved.document))
    with pytest.raises(rules.MalformedDocument):
        services.update_settings(saved, data={"f.figure_scale": "28mm", "name": "X"}, version=1)
    assert saved.document == before and saved.version == 1
