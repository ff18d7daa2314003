"""The order of battle prints identical units on one card unless asked for one per unit."""

import re
from typing import Any

import pytest

from armybuilder.printing import services
from tests.support import army

KNIGHTS = {
    "name": "Knights",
    "figures": 12,
    "quality": "fanatic",
    "density": "loose",
    "armour": "mailed",
    "mounted": True,
    "training": "melee",
}


def twelve_units() -> dict[str, Any]:
    """Four identical Knights and eight units each different from every other."""
    others = [
        {"name": f"Militia {n}", "figures": 10 + n, "quality": "levy", "training": "melee"}
        for n in range(8)
    ]
    return army("into-the-dark", [dict(KNIGHTS), *others[:4], dict(KNIGHTS), *others[4:]]
                + [dict(KNIGHTS), dict(KNIGHTS)], points_limit=2000)  # fmt: skip


def cards(html: str) -> list[str]:
    return re.findall(r'<article class="block unit', html)


@pytest.mark.django_db
def test_identical_units_share_one_card_with_their_count_and_numbers():
    html = services.army_sheet_html(twelve_units(), sheet="roster")
    assert len(cards(html)) == 9
    assert "Knights ×4" in html
    assert '<span class="num">1, 6, 11, 12</span>' in html


@pytest.mark.django_db
def test_one_card_per_unit_when_the_player_asks():
    html = services.army_sheet_html(twelve_units(), sheet="roster", extras=["one-card-per-unit"])
    assert len(cards(html)) == 12
    assert "×4" not in html
    # each card names its unit as the builder and a game do: numbered among its name
    assert [n for n in range(1, 5) if f"Knights {n}<" in html] == [1, 2, 3, 4]


@pytest.mark.django_db
def test_units_differing_only_in_a_problem_or_a_field_keep_their_own_cards():
    document = twelve_units()
    document["units"][5]["figures"] = 13
    html = services.army_sheet_html(document, sheet="roster")
    assert "Knights ×3" in html and len(cards(html)) == 10
    assert "Knights 2<" in html  # the one that differs, by its number among the Knights


@pytest.mark.django_db
def test_the_roster_option_is_ignored_by_the_qrs_and_other_options_are_refused():
    services.army_sheet_html(twelve_units(), sheet="qrs", extras=["one-card-per-unit"])
    with pytest.raises(services.PrintError):
        services.army_sheet_html(twelve_units(), sheet="roster", extras=["sieges"])
