"""Units of one name are numbered on the builder's cards as in a game, on the page and in
each answer that changes which units share a name (the page engine's names are held to the
server's in test_builder_page_engine)."""

from __future__ import annotations

import re

import pytest

from armybuilder.armies import services
from tests.support import army, item_id
from tests.web.armies.sending import send

pytestmark = pytest.mark.django_db

ARCHERS = {"name": "Archers", "quality": "average", "figures": 12}
SPEARS = {"name": "Spears", "quality": "average", "figures": 12}


def heads(html: str) -> dict[str, str]:
    """Each card's summary id -> the name its head shows."""
    found = re.findall(
        r'id="(unit-[\w-]+)-summary".*?<strong class="item-name">([^<]*)</strong>', html, re.S
    )
    return dict(found)


def test_the_page_numbers_units_that_share_a_name_and_leaves_the_others(owner_client, user):
    saved = services.create_army(
        army("into-the-dark", [dict(ARCHERS), dict(SPEARS), dict(ARCHERS)]), owner=user
    )
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    assert list(heads(page).values()) == ["Archers 1", "Spears", "Archers 2"]
    # the link to a closed card's editor says which of them it opens
    assert ">Edit Archers 2</a>" in page


def test_a_copy_numbers_both_cards_and_a_delete_takes_the_number_away(owner_client, user):
    saved = services.create_army(army("into-the-dark", [dict(ARCHERS), dict(SPEARS)]), owner=user)
    first = item_id(saved, 0)

    copied = send(owner_client, saved, "duplicate", first, value={"id": "copy1"})
    assert copied.result["status"] == "applied"
    # the copy's card, and the first card's head out of band: it is "Archers 1" now
    assert heads(copied.html) == {f"unit-{first}": "Archers 1", "unit-copy1": "Archers 2"}

    deleted = send(owner_client, saved, "delete", "copy1")
    assert deleted.result["status"] == "applied"
    assert heads(deleted.html) == {f"unit-{first}": "Archers"}


def test_renaming_one_unit_renumbers_the_units_it_left(owner_client, user):
    saved = services.create_army(
        army("into-the-dark", [dict(ARCHERS), dict(ARCHERS), dict(ARCHERS)]), owner=user
    )
    ids = [item_id(saved, i) for i in range(3)]
    renamed = send(owner_client, saved, "set", ids[1], "name", "Bowmen", "Archers")
    assert renamed.result["status"] == "applied"
    # the first stays "Archers 1"; the third was "Archers 3"
    assert heads(renamed.html) == {
        f"unit-{ids[1]}": "Bowmen",
        f"unit-{ids[2]}": "Archers 2",
    }
    # an edit that moves no name sends no other card
    figures = send(owner_client, saved, "set", ids[0], "figures", 14, 12)
    assert set(heads(figures.html)) == {f"unit-{ids[0]}"}
