"""The picker's guided entries: a Feudal stand-in replaces the unit it names, d5 allies
come grouped by their list's name, one tap each."""

import html
import json
import re

from armybuilder.armies import services
from armybuilder.armies.models import Army
from tests.support import army

HX = {"HX-Request": "true"}
FREEMEN = {"name": "Freemen of Powys", "type": "freemen"}
KNIGHTS = {"name": "Teulu", "type": "knights"}


def welsh(user, units) -> Army:
    return services.create_army(army("feudal-2017", units, army_list="north-welsh"), owner=user)


def add(client, saved: Army, preset: str):
    saved.refresh_from_db()
    return client.post(
        f"/armies/{saved.pk}/units/add/", {"version": saved.version, "preset": preset}, headers=HX
    )


def test_a_stand_in_replaces_the_last_unit_it_names_in_its_place(owner_client, user):
    saved = welsh(user, [dict(FREEMEN), KNIGHTS, dict(FREEMEN, name="Freemen of Lleyn")])
    response = add(owner_client, saved, "entry:freemen-as-brigans")
    assert response.status_code == 200
    saved.refresh_from_db()
    units = saved.document["units"]
    assert [u["name"] for u in units] == ["Freemen of Powys", "Teulu", "Brigans"]
    assert units[2]["type"] == "brigans"
    assert "Replaced Freemen of Lleyn with Brigans" in response.content.decode()
    assert saved.revisions.count() == 1  # the replacement is one revision


def test_undo_puts_the_replaced_unit_back(owner_client, user):
    saved = welsh(user, [dict(FREEMEN), KNIGHTS])
    before = saved.document["units"]
    add(owner_client, saved, "entry:freemen-as-brigans")
    replaced = saved.revisions.get()  # the change the toast's Undo names
    undone = owner_client.post(f"/armies/{saved.pk}/undo/", {"revision": replaced.pk}, headers=HX)
    assert undone.status_code == 200
    saved.refresh_from_db()
    assert saved.document["units"] == before


def test_a_stand_in_with_nothing_to_replace_is_marked_and_refused_with_the_reason(
    owner_client, user
):
    saved = welsh(user, [KNIGHTS])
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    tile = re.search(r'<button[^>]*value="entry:freemen-as-brigans"[^>]*>.*?</button>', page, re.S)
    assert 'aria-disabled="true"' in tile.group(0)
    assert "no Freemen to replace" in tile.group(0)
    response = add(owner_client, saved, "entry:freemen-as-brigans")
    assert response.status_code == 400
    assert "the army has no Freemen to replace" in response.content.decode()
    saved.refresh_from_db()
    assert saved.version == 1 and saved.document["units"][0]["name"] == "Teulu"


def d5_vikings(user, units) -> Army:
    document = army("dark-ages-d5", units, army_list="viking")
    return services.create_army(document, owner=user)


def test_ally_tiles_are_grouped_under_each_other_lists_name(owner_client, user):
    saved = d5_vikings(user, [])
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    groups = re.findall(r'<details class="entry-group"[^>]*><summary>([^<]+)</summary>', page)
    assert "Allies from Irish" in groups
    assert "Allies from North Welsh (Gwynedd)" in groups
    assert not any("Viking" in g for g in groups)  # never the army's own list
    slugs = ("north-welsh", "sub-roman-british", "scots-dal-riata", "anglo-saxon")
    assert not any(slug in g for g in groups for slug in slugs)  # names, never slugs
    assert 'value="entry:ally-irish-nobles"' in page


def test_one_tap_on_an_ally_tile_adds_a_legal_allied_unit(owner_client, user):
    saved = d5_vikings(user, [])
    response = add(owner_client, saved, "entry:ally-irish-nobles")
    assert response.status_code == 200
    saved.refresh_from_db()
    (unit,) = saved.document["units"]
    assert unit["ally"] == "irish" and unit["name"] == "Irish nobles"
    body = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    assert 'data-code="ally-not-required"' not in body
    opened = re.search(r'<details class="entry-group" open><summary>([^<]+)<', body)
    assert opened.group(1) == "Allies from Irish"


def test_a_second_allied_list_is_offered_no_more_and_says_why(owner_client, user):
    saved = d5_vikings(user, [])
    add(owner_client, saved, "entry:ally-irish-nobles")
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    tile = re.search(r'<button[^>]*value="entry:ally-picts-horse"[^>]*>.*?</button>', page, re.S)
    assert 'aria-disabled="true"' in tile.group(0)
    assert "the allies already come from Irish" in tile.group(0)


def test_each_tile_names_the_unit_it_adds_as_the_server_then_draws_it(owner_client, user):
    """What a tap draws at once (offline too): the name, size and points the server's card
    shows once the unit is added; a stand-in, which changes a unit already there, says
    nothing to draw."""
    saved = welsh(user, [dict(FREEMEN), KNIGHTS])
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    tiles = re.findall(r'<button[^>]*name="preset"[^>]*>', page)
    drawn = {re.search(r'value="([^"]+)"', t).group(1): t for t in tiles if "data-unit=" in t}
    assert drawn and not any("freemen-as-brigans" in key for key in drawn)
    key, tile = next(iter(drawn.items()))
    unit = json.loads(html.unescape(re.search(r'data-unit="([^"]*)"', tile).group(1)))
    points = re.search(r'data-points="(\d+)"', tile)
    add(owner_client, saved, key)
    saved.refresh_from_db()
    added = saved.document["units"][-1]
    assert unit["name"] == added["name"]
    card = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    summary = re.findall(r'<span class="item-summary.*?</span>\s*</span>', card, re.S)[-1]
    if unit["size"]:
        assert f'<span class="item-size">{unit["size"]}</span>' in summary
    if points:
        assert f'data-points="{points.group(1)}"' in summary
