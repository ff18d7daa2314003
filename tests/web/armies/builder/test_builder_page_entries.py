"""Each unit card of the builder names the picker tile its unit counts against
(``data-entry``, the tile's preset), as the rule set's list assigns it, so the page's
offline drawing counts a copy or a delete of a card on that tile; the list's entries are
worked out once a page."""

import re

import pytest

import rules
from armybuilder.armies import services
from armybuilder.armies.documents import check_army
from armybuilder.catalog import services as catalog
from armybuilder.catalog.models import ArmyList
from rules.base import RuleSet
from tests.support import DEWITT_ARCHER, DEWITT_KNIGHT, DEWITT_LIST, army

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
CARD = re.compile(r'<li class="item[^"]*" id="unit-([a-z0-9]+)"[^>]*>')
TILE = re.compile(r'<button type="submit" name="preset" value="(entry:[^"]+)"[^>]*>')


def tile_units(ruleset: str, slug: str, keys: list[str]) -> list[dict]:
    data = ArmyList.objects.get(ruleset=ruleset, slug=slug).data
    entries = {e.key: e for e in rules.get_ruleset(ruleset).list_entries(data, None)}
    return [dict(entries[key].values) for key in keys]


def cards(page: str) -> dict[str, str]:
    """Unit id -> its card's data-entry ("" without one)."""
    found = {}
    for match in CARD.finditer(page):
        entry = re.search(r'data-entry="([^"]*)"', match.group(0))
        found[match.group(1)] = entry.group(1) if entry else ""
    return found


def tiles(page: str) -> dict[str, str]:
    """A tile's preset -> its whole button tag."""
    return {m.group(1): m.group(0) for m in TILE.finditer(page)}


def have(tag: str) -> int:
    return int(re.search(r'data-have="(\d+)"', tag).group(1))


def engine_entries(saved) -> dict[str, str]:
    checked = check_army(saved)
    statuses = rules.get_ruleset(saved.ruleset).list_entries(
        checked.parsed.list_data, checked.parsed
    )
    return {unit_id: f"entry:{s.key}" for s in statuses for unit_id in s.unit_ids}


def make(user, ruleset: str, slug: str, units: list[dict]):
    return services.create_army(army(ruleset, units, army_list=slug), owner=user)


ARMIES = {
    "into-the-dark": ("viking", ["hird", "bondi", "bondi"]),
    "dark-ages-2015": ("picts", ["infantry", "infantry", "infantry", "horse"]),
    "dark-ages-d5": ("picts", ["infantry", "infantry", "infantry", "horse"]),
}


@pytest.mark.parametrize("ruleset", sorted(ARMIES))
def test_every_card_names_the_tile_its_unit_counts_on(owner_client, user, ruleset):
    slug, keys = ARMIES[ruleset]
    saved = make(user, ruleset, slug, tile_units(ruleset, slug, keys))
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    drawn, offered = cards(page), tiles(page)
    assert len(drawn) == len(keys) and all(drawn.values())
    assert drawn == engine_entries(saved)
    assert set(drawn.values()) <= set(offered)
    for preset, tag in offered.items():
        if "data-have" in tag:  # the tile counts exactly the cards that name it
            assert have(tag) == list(drawn.values()).count(preset), preset


def test_a_feudal_stand_in_names_its_replacement_and_the_others_their_column(owner_client, user):
    units = [
        {"name": "Freemen", "type": "freemen"},
        {"name": "Freemen 2", "type": "freemen"},
        {"name": "Brigans", "type": "brigans"},
        {"name": "Brigans 2", "type": "brigans"},
        {"name": "Brigans 3", "type": "brigans"},
        {"name": "Teulu", "type": "knights"},
    ]
    saved = make(user, "feudal-2017", "north-welsh", units)
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    drawn = cards(page)
    assert drawn == engine_entries(saved)
    assert "entry:freemen-as-brigans" in drawn.values()
    assert {"entry:core", "entry:t1", "entry:t2"} <= set(drawn.values())
    assert set(drawn.values()) <= set(tiles(page))


def test_d5_allied_cards_name_their_allied_tiles(owner_client, user):
    host = tile_units("dark-ages-d5", "picts", ["infantry", "infantry", "infantry", "horse"])
    saved = make(user, "dark-ages-d5", "picts", host)
    checked = check_army(saved)
    statuses = rules.get_ruleset("dark-ages-d5").list_entries(
        checked.parsed.list_data, checked.parsed
    )
    ally = next(s for s in statuses if s.group.startswith("Allies from Irish"))
    saved = make(user, "dark-ages-d5", "picts", [*host, dict(ally.values), dict(ally.values)])
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    drawn = cards(page)
    assert list(drawn.values())[-2:] == [f"entry:{ally.key}"] * 2
    assert have(tiles(page)[f"entry:{ally.key}"]) == 2
    assert drawn == engine_entries(saved)


def test_a_players_dewitt_list_names_its_entries_on_the_cards(owner_client, user):
    draft = ArmyList(ruleset="dewitt-medieval", slug="free-company", author=user)
    catalog.save_list(draft, by=user, name="Free company", data=DEWITT_LIST)
    saved = make(user, "dewitt-medieval", "free-company", [DEWITT_KNIGHT, DEWITT_ARCHER])
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    assert list(cards(page).values()) == ["entry:knights", "entry:archers"]
    assert {"entry:knights", "entry:archers"} <= set(tiles(page))


def test_the_cards_an_answer_draws_name_their_tile(owner_client, user):
    units = tile_units("into-the-dark", "viking", ["hird", "bondi"])
    saved = make(user, "into-the-dark", "viking", units)
    hird = saved.document["units"][0]["id"]
    added = owner_client.post(
        f"/armies/{saved.pk}/units/add/",
        {"version": saved.version, "preset": "entry:bondi"},
        headers=HX,
    ).content.decode()
    saved.refresh_from_db()
    new = saved.document["units"][-1]["id"]
    assert cards(added) == {new: "entry:bondi"}
    copied = owner_client.post(
        f"/armies/{saved.pk}/unit/{hird}/duplicate/", {"version": saved.version}, headers=HX
    ).content.decode()
    saved.refresh_from_db()
    copy = saved.document["units"][1]["id"]
    assert cards(copied) == {copy: "entry:hird"}


def test_the_list_is_counted_once_a_page(owner_client, user, monkeypatch):
    units = tile_units("into-the-dark", "viking", ["hird", "bondi"])
    saved = make(user, "into-the-dark", "viking", units)
    ruleset = type(rules.get_ruleset("into-the-dark"))
    counted = []
    original = ruleset.list_entries

    def list_entries(self: RuleSet, list_data, army_now):
        if army_now is not None:  # the drop-down's presets read the list without an army
            counted.append(army_now)
        return original(self, list_data, army_now)

    monkeypatch.setattr(ruleset, "list_entries", list_entries)
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    assert len(counted) == 1
    assert set(cards(page).values()) == {"entry:hird", "entry:bondi"}


def test_a_tile_carries_its_entrys_bounds_for_the_counts_drawn_offline(owner_client, user):
    saved = make(user, "into-the-dark", "viking", tile_units("into-the-dark", "viking", ["hird"]))
    offered = tiles(owner_client.get(f"/armies/{saved.pk}/").content.decode())
    assert 'data-have="1" data-minimum="1" data-maximum="2"' in offered["entry:hird"]
    assert 'data-have="0" data-minimum="2" data-maximum="8"' in offered["entry:bondi"]
