"""A revision's values are read and set by path in a document, and an item is found by
its id, never by where it stands."""

from __future__ import annotations

import pytest

from armybuilder.armies.history.revisions import ItemGone, get_value, id_at, index_of, with_value

DOCUMENT = {
    "name": "Hastings",
    "options": {"figure_scale": "15mm"},
    "units": [{"id": "u1", "type": "spear"}, {"id": "u2", "type": "bow"}],
}


def test_a_value_is_read_from_the_army_an_option_or_an_item():
    assert get_value(DOCUMENT, "army", None, "name") == "Hastings"
    assert get_value(DOCUMENT, "army", None, "options.figure_scale") == "15mm"
    assert get_value(DOCUMENT, "units", 1, "type") == "bow"
    assert get_value(DOCUMENT, "army", None, "options.missing") is None


def test_setting_a_value_copies_along_its_path_and_leaves_the_document_be():
    changed = with_value(DOCUMENT, "units", 0, "type", "axe")
    assert changed["units"][0] == {"id": "u1", "type": "axe"}
    assert changed["units"][1] is DOCUMENT["units"][1]
    assert DOCUMENT["units"][0]["type"] == "spear"
    scaled = with_value(DOCUMENT, "army", None, "options.figure_scale", "25mm")
    assert scaled["options"] == {"figure_scale": "25mm"}
    assert DOCUMENT["options"] == {"figure_scale": "15mm"}


def test_an_item_is_found_by_its_id_wherever_it_stands():
    assert index_of(DOCUMENT, "units", "u2") == 1
    assert id_at(DOCUMENT, "units", 0) == "u1"
    assert id_at(DOCUMENT, "units", 5) == ""
    assert id_at(DOCUMENT, "units", None) == ""


@pytest.mark.parametrize("item_id", ["u9", ""])
def test_an_id_no_item_has_is_gone(item_id):
    with pytest.raises(ItemGone):
        index_of(DOCUMENT, "units", item_id)
