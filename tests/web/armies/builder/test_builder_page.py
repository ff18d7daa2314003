"""The builder page and its htmx edits: swaps, out-of-band totals and issues, fallbacks."""

import re
from typing import Any

import pytest
from django.contrib.auth.models import User

import rules
from armybuilder.armies import services
from armybuilder.armies.models import Army
from tests.support import army, builder_with_editors, item_id, item_url

HX = {"HX-Request": "true"}
MILITIA = {"name": "Town Militia", "quality": "levy"}
# an edit: session, user, the army, the rule set's army lists, and the operation kernel's
# transaction (a savepoint inside a test's, its release), the army's row locked, the
# versioned UPDATE, the revision it records
QUERIES_PER_EDIT = 9


def itd(units: list[dict[str, Any]], **top: Any) -> dict[str, Any]:
    return army("into-the-dark", units, **top)


def make(user: User, units: list[dict[str, Any]], **top: Any) -> Army:
    return services.create_army(itd(units, **top), owner=user)


def edit(client, saved: Army, index: int, version: int | None = None, **fields: str):
    data = {"version": saved.version if version is None else version}
    data.update({f"f.{k}": v for k, v in fields.items()})
    return client.post(item_url(saved, index), data, headers=HX)


def test_builder_page_offers_exactly_the_rule_sets_values(owner_client, user):
    saved = make(user, [MILITIA])
    page = builder_with_editors(owner_client, saved)
    armour = re.search(
        rf'<select id="u-{item_id(saved, 0)}-armour" name="f.armour"[^>]*>(.*?)</select>', page
    ).group(1)
    assert re.findall(r'value="([^"]*)"', armour) == [
        "unarmoured",
        "protected",
        "armoured",
        "mailed",
        "encased",
    ]
    missile = re.search(
        rf'<select id="u-{item_id(saved, 0)}-missile-weapon"[^>]*>(.*?)</select>', page
    ).group(1)
    assert re.findall(r'value="([^"]*)"', missile)[0] == ""  # "none" for a nullable choice
    assert (
        f'type="number" id="u-{item_id(saved, 0)}-figures" name="f.figures" value="12" min="1" max="400"'
        in page
    )
    assert f'id="u-{item_id(saved, 0)}-mounted" name="f.mounted" value="1"' in page


@pytest.mark.parametrize("ruleset", [r.slug for r in rules.all_rulesets()])
def test_every_rule_set_builds_labelled_controls_from_its_vocabulary(owner_client, user, ruleset):
    saved = services.create_army(army(ruleset, []), owner=user)
    response = owner_client.post(
        f"/armies/{saved.pk}/units/add/", {"version": 1, "preset": "blank"}, headers=HX
    )
    assert response.status_code == 200
    page = builder_with_editors(owner_client, saved)
    fields = rules.get_ruleset(ruleset).unit_fields
    for f in fields:
        if f.kind in ("multi", "object"):
            assert f"<legend>{f.label}</legend>" in page
            continue
        ident = f"u-{item_id(saved, 0)}-{f.name}".replace("_", "-")
        assert f'id="{ident}"' in page
        assert f'<label for="{ident}">' in page, f"{ruleset}: no label for {f.name}"


def test_htmx_unit_edit_swaps_the_summary_and_out_of_band_totals_and_issues(owner_client, user):
    saved = make(user, [MILITIA])
    response = edit(owner_client, saved, 0, figures="24")
    body = response.content.decode()
    assert response.status_code == 200
    assert f'<span class="item-summary" id="unit-{item_id(saved, 0)}-summary" hx-swap-oob' in body
    assert "24 figures x 2 = 48" in body and 'data-points="68"' in body
    assert '<input type="hidden" id="army-version" value="2" hx-swap-oob="true">' in body
    assert re.search(r'<section id="army-totals"[^>]*hx-swap-oob="true"', body)
    assert re.search(r'<section id="issues"[^>]*hx-swap-oob="true"', body)
    assert '<span class="total-points" id="total-points" data-points="68">68</span>' in body
    assert "<form" not in body  # the controls the player is using stay untouched


def test_the_three_source_units_total_446_through_htmx_edits(owner_client, user):
    saved = make(user, [])
    edits = [
        {"name": "Town Militia", "quality": "levy"},
        {"name": "Knights", "quality": "fanatic", "density": "loose", "armour": "mailed",
         "mounted": "1"},
        {"name": "Combat Archers", "quality": "elite", "density": "loose",
         "armour": "protected", "training": "cross_trained", "missile_weapon": "foot_bow"},
    ]  # fmt: skip
    version = 1
    totals = []
    for index, fields in enumerate(edits):
        add = owner_client.post(f"/armies/{saved.pk}/units/add/", {"version": version}, headers=HX)
        assert add.status_code == 200
        body = edit(owner_client, saved, index, version + 1, **fields).content.decode()
        totals.append(int(re.search(r'id="total-points" data-points="\d+">(\d+)<', body).group(1)))
        version += 2
    assert totals == [44, 44 + 242, 446]


def test_a_rule_error_is_listed_with_its_rule_and_a_link_to_the_unit_then_goes(owner_client, user):
    saved = make(user, [MILITIA, MILITIA])
    body = edit(owner_client, saved, 1, missile_weapon="foot_bow").content.decode()
    issues = body[body.index('<section id="issues"') :]
    assert 'data-code="melee-with-missile-weapon"' in issues
    assert "Rule: Missile Weapons" in issues
    assert (
        f'<a href="#unit-{item_id(saved, 1)}" data-open-target>Town Militia (unit 2)</a>' in issues
    )
    assert '<span class="badge illegal">Illegal</span>' in body
    body = edit(owner_client, saved, 1, version=2, missile_weapon="").content.decode()
    assert "melee-with-missile-weapon" not in body
    assert "No problems: this army is legal." in body


def test_warnings_are_listed_too(owner_client, user):
    saved = make(user, [MILITIA])
    body = edit(owner_client, saved, 0, figures="3").content.decode()
    assert 'class="issue warning" data-code="too-few-figures"' in body
    assert '<span class="badge legal">Legal</span>' in body


def test_a_malformed_edit_answers_400_with_the_message_and_saves_nothing(owner_client, user):
    saved = make(user, [MILITIA])
    response = edit(owner_client, saved, 0, figures="0")
    assert response.status_code == 400
    body = response.content.decode()
    assert response["HX-Retarget"] == f"#u-{item_id(saved, 0)}-figures-msg"
    assert "Town Militia (unit 1), Figures: 0 is below the minimum 1" in body
    saved.refresh_from_db()
    assert saved.version == 1 and saved.document["units"][0]["figures"] == 12


def test_a_malformed_edit_without_javascript_shows_the_page_with_the_message(owner_client, user):
    saved = make(user, [MILITIA])
    response = owner_client.post(item_url(saved, 0), {"version": 1, "f.name": "   "})
    assert response.status_code == 400
    assert "Not saved: Town Militia (unit 1), Name: must not be empty" in response.content.decode()
    saved.refresh_from_db()
    assert saved.document["units"][0]["name"] == "Town Militia"


def test_without_javascript_a_change_posts_and_redirects_to_the_unit(owner_client, user):
    saved = make(user, [MILITIA])
    response = owner_client.post(item_url(saved, 0), {"version": 1, "f.figures": "6"})
    assert response.status_code == 302
    assert response["Location"] == f"/armies/{saved.pk}/#unit-{item_id(saved, 0)}"
    saved.refresh_from_db()
    assert saved.document["units"][0]["figures"] == 6


def test_queries_per_unit_edit_are_the_same_at_5_and_at_50_units(
    owner_client, user, django_assert_num_queries
):
    for size in (5, 50):
        saved = make(user, [dict(MILITIA, name=f"Militia {i}") for i in range(size)])
        url = item_url(saved, size // 2)
        with django_assert_num_queries(QUERIES_PER_EDIT):
            response = owner_client.post(url, {"version": 1, "f.figures": "20"}, headers=HX)
        assert response.status_code == 200


def test_queries_per_edit_do_not_grow_for_a_visitors_draft_either(
    client, db, django_assert_num_queries
):
    client.post("/armies/new/", {"ruleset": "into-the-dark", "name": "Draft"})
    saved = Army.objects.get()
    url = f"/armies/{saved.pk}/units/add/"
    for version in range(1, 51):
        client.post(url, {"version": version}, headers=HX)
    # as for a player's army, less the user row
    url = item_url(saved, 25)
    with django_assert_num_queries(QUERIES_PER_EDIT - 1):
        response = client.post(url, {"version": 51, "f.figures": "6"}, headers=HX)
    assert response.status_code == 200


def test_the_same_field_changed_in_another_tab_is_a_409_conflict_at_the_field(owner_client, user):
    saved = make(user, [MILITIA])
    assert edit(owner_client, saved, 0, version=1, figures="20").status_code == 200
    response = edit(owner_client, saved, 0, version=1, figures="6")  # the second tab
    assert response.status_code == 409
    assert response["HX-Retarget"] == f"#u-{item_id(saved, 0)}-figures-msg"
    body = response.content.decode()
    assert "<strong>20</strong>" in body and "<strong>6</strong>" in body
    saved.refresh_from_db()
    assert saved.document["units"][0]["figures"] == 20 and saved.version == 2


def test_a_stale_version_without_javascript_is_409_too(owner_client, user):
    saved = make(user, [MILITIA])
    edit(owner_client, saved, 0, version=1, figures="20")
    response = owner_client.post(item_url(saved, 0), {"version": 1, "f.figures": "6"})
    assert response.status_code == 409
    saved.refresh_from_db()
    assert saved.document["units"][0]["figures"] == 20


def test_structural_changes_from_an_older_page_apply_to_the_army_as_it_is_now(owner_client, user):
    saved = make(user, [MILITIA, dict(MILITIA, name="Spears")])
    edit(owner_client, saved, 0, version=1, figures="20")  # version 2 (another tab)
    base = f"/armies/{saved.pk}/"
    # a settings save made from version 1 changes what the player changed, and only that
    older = owner_client.post(base + "settings/", {"version": 1, "name": "Other"}, headers=HX)
    assert older.status_code == 200
    first, spears = item_id(saved, 0), item_id(saved, 1)  # as the version-1 page names them
    for url, extra in [
        ("units/add/", {}),
        (f"unit/{first}/duplicate/", {}),
        (f"unit/{spears}/move/", {"direction": "up"}),
    ]:
        response = owner_client.post(base + url, {"version": 1, **extra}, headers=HX)
        assert response.status_code == 200, url
    saved.refresh_from_db()
    # "Spears" of the version-1 page is unit 2 after the duplicate, and it is the one that
    # moved up
    assert [u["name"] for u in saved.document["units"]] == [
        "Town Militia",
        "Spears",
        "Town Militia",
        "Unit 3",
    ]
    assert saved.document["units"][0]["figures"] == 20  # the other tab's edit stays


def test_structural_changes_answer_only_the_cards_they_touch(owner_client, user):
    saved = make(user, [MILITIA, dict(MILITIA, name="Spears")])
    base = f"/armies/{saved.pk}/unit/"
    militia, spears = item_id(saved, 0), item_id(saved, 1)
    text = owner_client.post(
        base + f"{spears}/move/", {"version": 1, "direction": "up"}, headers=HX
    ).content.decode()
    assert f'<li id="unit-{spears}" hx-swap-oob="delete"></li>' in text
    assert '<div hx-swap-oob="afterbegin:#unit-list">' in text
    assert f'id="unit-{militia}"' not in text
    text = owner_client.post(
        base + f"{spears}/duplicate/", {"version": 2}, headers=HX
    ).content.decode()
    # the copy's whole card, and of the first Spears only its head: both numbered now
    assert text.count('class="item-name">Spears 2<') == 1
    assert text.count('class="item-name">Spears 1<') == 1
    assert text.count(f'<li id="unit-{spears}"') == 0
    assert f'hx-swap-oob="afterend:#unit-{spears}"' in text
    add = f"/armies/{saved.pk}/units/add/"
    text = owner_client.post(add, {"version": 3}, headers=HX).content.decode()
    assert (
        f'id="u-{item_id(saved, 3)}-name" name="f.name" value="Unit 4"' in text
        and " autofocus" in text
    )
    text = owner_client.post(
        base + f"{militia}/delete/", {"version": 4}, headers=HX
    ).content.decode()
    assert f'<li id="unit-{militia}" hx-swap-oob="delete"></li>' in text
    assert 'id="army-version" value="5" hx-swap-oob="true"' in text


def test_moving_needs_a_direction(owner_client, user):
    saved = make(user, [MILITIA])
    response = owner_client.post(item_url(saved, 0, "units", "move/"), {"version": 1})
    assert response.status_code == 400


def test_a_unit_that_is_not_there_is_gone_and_changes_nothing(owner_client, user):
    saved = make(user, [MILITIA])
    for unit in ("no-such-unit", "0"):
        url = f"/armies/{saved.pk}/unit/{unit}/"
        response = owner_client.post(url, {"version": 1, "f.figures": "3"})
        assert response.status_code == 409
        assert "deleted or moved away" in response.content.decode()
    assert owner_client.post(f"/armies/{saved.pk}/units/0/", {"version": 1}).status_code == 404
    saved.refresh_from_db()
    assert saved.version == 1


def test_generals_are_404_in_a_rule_set_without_generals(owner_client, user):
    saved = services.create_army(army("feudal-2017", []), owner=user)
    response = owner_client.post(f"/armies/{saved.pk}/generals/add/", {"version": 1})
    assert response.status_code == 404


def test_generals_are_added_and_edited_with_the_object_champion(owner_client, user):
    saved = make(user, [dict(MILITIA, division="Odo")])
    base = f"/armies/{saved.pk}/generals/"
    text = owner_client.post(base + "add/", {"version": 1}, headers=HX).content.decode()
    assert '<div hx-swap-oob="afterbegin:#general-list">' in text
    assert '<datalist id="general-names" hx-swap-oob="true"><option value="General 1">' in text
    data = {"version": 2, "f.name": "Odo", "f.rating": "good", "f.commanding": ["0", "1"],
            "f.champion": ["0", "1"], "f.champion.quality": "elite",
            "f.champion.armour": "armoured"}  # fmt: skip
    response = owner_client.post(item_url(saved, 0, "generals"), data, headers=HX)
    assert response.status_code == 200
    saved.refresh_from_db()
    general = saved.document["generals"][0]
    assert general["champion"] == {"quality": "elite", "armour": "armoured"}
    assert "good general 3 x 25 = 75" in response.content.decode()
    assert "unknown-division" not in response.content.decode()


def test_settings_change_redraws_every_unit_out_of_band(owner_client, user):
    saved = make(user, [MILITIA])
    data = {"version": 1, "name": "Hastings", "f.figure_scale": "15mm", "points_limit": "40"}
    response = owner_client.post(f"/armies/{saved.pk}/settings/", data, headers=HX)
    text = response.content.decode()
    assert response.status_code == 200
    assert '<h1 id="army-title" hx-swap-oob="true">Hastings</h1>' in text
    assert f'id="unit-{item_id(saved, 0)}-summary" hx-swap-oob="true"' in text
    assert 'id="units"' not in text
    assert 'data-code="over-points-limit"' in text
    editor = owner_client.get(item_url(saved, 0, tail="editor/"), headers=HX).content.decode()
    assert "<dt>move</dt><dd>3&quot;</dd>" in editor  # 15 mm halves 6"


def test_a_malformed_setting_is_refused_with_the_field_named(owner_client, user):
    saved = make(user, [MILITIA])
    response = owner_client.post(
        f"/armies/{saved.pk}/settings/", {"version": 1, "points_limit": "0"}, headers=HX
    )
    assert response.status_code == 400
    assert response["HX-Retarget"] == "#army-limit-msg"
    assert "Not saved: Points limit: 0 is below the minimum 1" in response.content.decode()
    response = owner_client.post(
        f"/armies/{saved.pk}/settings/", {"version": 1, "f.figure_scale": "28mm"}, headers=HX
    )
    assert response["HX-Retarget"] == "#opt-figure-scale-msg"
    assert (
        "Option Figure scale: &#x27;28mm&#x27; is not one of 25mm, 15mm"
        in response.content.decode()
    )


def test_changing_the_army_list_applies_its_checks_and_offers_its_entries(owner_client, user):
    saved = make(user, [dict(MILITIA, quality="fanatic", mounted=True, name="Camels")])
    data = {"version": 1, "army_list": "anglo-danish-1066"}
    text = owner_client.post(f"/armies/{saved.pk}/settings/", data, headers=HX).content.decode()
    assert 'data-code="not-in-army-list"' in text
    assert re.search(
        r'name="preset" value="entry:huscarls"[^>]*>\s*<span class="entry-name">Huscarls<', text
    )


def test_roll_a_force_is_offered_only_where_the_rule_set_has_a_force_matrix(owner_client, user):
    feudal = services.create_army(army("feudal-2017", []), owner=user)
    itd_army = make(user, [])
    assert "Roll a force" not in owner_client.get(f"/armies/{itd_army.pk}/").content.decode()
    assert "Roll a force" in owner_client.get(f"/armies/{feudal.pk}/").content.decode()
    response = owner_client.post(f"/armies/{feudal.pk}/roll/", {"version": 1}, headers=HX)
    assert response.status_code == 200
    assert '<div id="builder" hx-swap-oob="true"' in response.content.decode()
    feudal.refresh_from_db()
    assert len(feudal.document["units"]) == 6
    assert "Fits force-matrix row" in response.content.decode()


def test_builder_marks_a_visitors_draft_and_offers_sign_up(client, db):
    client.post("/armies/new/", {"ruleset": "into-the-dark"})
    saved = Army.objects.get()
    page = client.get(f"/armies/{saved.pk}/").content.decode()
    assert "This draft is kept for this browser" in page
    assert f'href="/accounts/signup/?next=/armies/{saved.pk}/"' in page


def test_print_links_point_at_the_printing_apps_paths(owner_client, user):
    saved = make(user, [])
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    for path in ("roster.pdf", "qrs.pdf", "roster/", "export.json"):
        assert f'href="/armies/{saved.pk}/{path}"' in page


def test_without_javascript_every_change_posts_and_redirects(owner_client, user):
    saved = make(user, [MILITIA])
    base = f"/armies/{saved.pk}/"

    def unit(index, action):  # the unit's address as the page drawn then names it
        return lambda: f"unit/{item_id(saved, index)}/{action}/"

    steps = [
        (lambda: "units/add/", {"version": 1, "preset": "blank"}, lambda: "#unit-", 1),
        (unit(0, "duplicate"), {"version": 2}, lambda: "#unit-", 1),
        (unit(2, "move"), {"version": 3, "direction": "up"}, lambda: "#unit-", 1),
        (unit(0, "delete"), {"version": 4}, lambda: "#units", None),
        (lambda: "generals/add/", {"version": 5}, lambda: "#general-", 0),
        (lambda: "settings/", {"version": 6, "name": "Plain HTML"}, lambda: "#settings", None),
    ]
    for address, data, anchor, at in steps:
        url = address()
        response = owner_client.post(base + url, data)
        assert response.status_code == 302, url
        kind = "generals" if "general" in anchor() else "units"
        card = "" if at is None else item_id(saved, at, kind)  # the card it made or moved
        assert response["Location"] == base + anchor() + card
    saved.refresh_from_db()
    assert saved.version == 7 and saved.document["name"] == "Plain HTML"
    assert [u["name"] for u in saved.document["units"]] == ["Unit 2", "Town Militia"]
    page = builder_with_editors(owner_client, saved)
    assert '<noscript><button type="submit">Save unit</button></noscript>' in page
    assert '<noscript><button type="submit">Save settings</button></noscript>' in page


def test_ticking_champion_sets_open_order_and_one_figure_and_redraws_the_unit(owner_client, user):
    saved = make(user, [MILITIA])
    response = edit(owner_client, saved, 0, champion="1")
    body = response.content.decode()
    # the controls the builder set along with it, out of band; never the ticked box
    assert f'id="u-{item_id(saved, 0)}-density-wrap"' in body
    assert f'id="u-{item_id(saved, 0)}-champion-wrap"' not in body
    assert '<option value="open" selected>' in body
    assert f'id="u-{item_id(saved, 0)}-figures" name="f.figures" value="1"' in body
    assert "champion-not-open" not in body and "champion-figures" not in body
    saved.refresh_from_db()
    unit = saved.document["units"][0]
    assert (unit["champion"], unit["density"], unit["figures"]) == (True, "open", 1)
    # the player may still change it back, and is then told why it is wrong
    body = edit(owner_client, saved, 0, density="close").content.decode()
    assert 'data-code="champion-not-open"' in body
    assert (
        f'id="u-{item_id(saved, 0)}-density-wrap"'
        not in edit(owner_client, saved, 0, version=3, figures="2").content.decode()
    )


def test_an_army_with_no_units_says_so_instead_of_legal(owner_client, user):
    saved = make(user, [])
    body = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    assert "No units yet" in body
    assert '<span class="badge legal">Legal</span>' not in body
    assert "this army is legal" not in body
