"""The builder's unit cards carry what the page prices a figures change with offline
(``data-estimate``: ``RuleSet.figure_cost`` as whole numbers), and the server's own points
for a change agree with it; cards the rule set cannot price that way carry none."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest

import rules
from armybuilder.armies import services
from rules import registry
from tests.support import DEWITT_ARCHER, DEWITT_KNIGHT, army, item_id, item_url

HX = {"HX-Request": "true"}
PRICED = {
    "into-the-dark": [
        {"name": "Town Militia", "quality": "levy", "figures": 12},
        {"name": "Longbows", "quality": "average", "armour": "protected", "training": "missile",
         "missile_weapon": "longbow", "figures": 11},
        {"name": "Hero", "quality": "elite", "armour": "armoured", "density": "open",
         "champion": True, "figures": 1},
    ],
    "dewitt-medieval": [{**DEWITT_KNIGHT, "command": "c_in_c"}, DEWITT_ARCHER],
}  # fmt: skip


def summaries(page: str) -> dict[str, str]:
    """Each card's markup from its summary to the next card's summary, by the card's id."""
    starts = list(re.finditer(r'<span class="item-summary[^"]*" id="([^"]+)-summary"', page))
    ends = [found.start() for found in starts[1:]] + [len(page)]
    return {
        found.group(1): page[found.start() : end] for found, end in zip(starts, ends, strict=True)
    }


def estimate_of(card: str) -> dict[str, Any] | None:
    found = re.search(r'data-estimate="([^"]*)"', card)
    return json.loads(html.unescape(found.group(1))) if found else None


def shown_points(page: str, anchor: str) -> int:
    """The points the card ``anchor`` shows (its summary's ``data-points``)."""
    summary = page[page.index(f'id="{anchor}-summary"') :]
    return int(re.search(r'data-points="(\d+)"', summary).group(1))


def page_points(data: dict[str, Any], count: int) -> int:
    """As static/js/estimate.js works them out: whole numbers, rounded up."""
    return -(-(data["per"] * count + data["fixed"]) // data["den"])


@pytest.mark.parametrize("slug", sorted(PRICED))
def test_each_unit_card_carries_its_estimate_and_a_saved_figures_change_costs_what_it_says(
    owner_client, user, slug
):
    saved = services.create_army(army(slug, PRICED[slug]), owner=user)
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    cards = summaries(page)
    for index, unit in enumerate(PRICED[slug]):
        anchor = f"unit-{item_id(saved, index)}"
        data = estimate_of(cards[anchor])
        assert data is not None
        field = "stands" if slug == "dewitt-medieval" else "figures"
        assert (data["field"], data["count"], data["round"]) == (field, unit[field], "up")
        assert page_points(data, data["count"]) == shown_points(page, anchor)
        changed = data["max"] if data["count"] != data["max"] else data["min"]
        answer = owner_client.post(
            item_url(saved, index),
            {"version": saved.version, f"f.{field}": str(changed)},
            headers=HX,
        ).content.decode()
        assert shown_points(answer, anchor) == page_points(data, changed)
        assert estimate_of(summaries(answer)[anchor])["count"] == changed
        saved.refresh_from_db()


def test_the_costless_fields_of_a_card_are_named_with_its_estimate(owner_client, user):
    saved = services.create_army(army("into-the-dark", PRICED["into-the-dark"][:1]), owner=user)
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    data = estimate_of(summaries(page)[f"unit-{item_id(saved, 0)}"])
    assert data is not None
    assert data["free"] == ["name", "density", "warband", "skirmishers", "division"]


@pytest.mark.parametrize("slug", sorted(r.slug for r in rules.all_rulesets() if not r.uses_points))
def test_cards_of_a_rule_set_without_points_carry_no_estimate(owner_client, user, slug):
    saved = services.create_army(army(slug, [{"name": "Foot"}]), owner=user)
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    assert summaries(page)
    assert "data-estimate" not in page


def test_a_general_s_card_carries_no_estimate_beside_units_that_do(owner_client, user):
    document = army(
        "into-the-dark",
        PRICED["into-the-dark"][:1],
        generals=[{"name": "Harold", "rating": "good", "commanding": True}],
    )
    saved = services.create_army(document, owner=user)
    cards = summaries(owner_client.get(f"/armies/{saved.pk}/").content.decode())
    assert estimate_of(cards[f"general-{item_id(saved, 0, 'generals')}"]) is None
    assert estimate_of(cards[f"unit-{item_id(saved, 0)}"]) is not None


@pytest.fixture
def toy():
    registry.register_package("tests.toy_ruleset")
    yield
    registry.unregister("toy-skirmish")
    rules.memo.clear()


def test_a_rule_set_with_points_that_does_not_say_how_they_follow_the_figures_sends_none(
    owner_client, user, toy
):
    units = [{"name": "Shield Wall", "kind": "spearmen", "figures": 8}]
    saved = services.create_army(army("toy-skirmish", units), owner=user)
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    assert shown_points(page, f"unit-{item_id(saved, 0)}") == 16
    assert "data-estimate" not in page


def test_the_builder_loads_the_estimate_script_from_the_site_itself(owner_client, user):
    saved = services.create_army(army("into-the-dark", PRICED["into-the-dark"][:1]), owner=user)
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    assert re.search(r'<script src="/static/js/estimate\.js" defer></script>', page)
