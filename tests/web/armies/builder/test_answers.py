"""What an answer to a builder change redraws besides the card's summary: the unit's other
menus when a choice changed what the rules allow them."""

import re

import pytest

from armybuilder.armies import services
from tests.support import army, item_id
from tests.web.armies.sending import operation, send, send_batch

pytestmark = pytest.mark.django_db


def _option(html: str, unit: str, value: str) -> str:
    menu = re.search(rf'<select id="u-{unit}-missile-weapon".*?</select>', html, re.S)
    assert menu, "the missile weapon menu is in the answer"
    return re.search(rf'<option value="{value}"[^>]*>', menu.group(0)).group(0)


def test_training_for_missiles_answers_the_missile_menu_with_the_bow_allowed(owner_client, user):
    saved = services.create_army(
        army("into-the-dark", [{"name": "Archers", "quality": "average", "figures": 12}]),
        owner=user,
    )
    unit = item_id(saved, 0)
    shown = owner_client.get(
        f"/armies/{saved.pk}/unit/{unit}/editor/", headers={"HX-Request": "true"}
    )
    assert "disabled" in _option(shown.content.decode(), unit, "foot_bow")  # melee: no bow

    answer = send(owner_client, saved, "set", unit, "training", "missile", "melee")
    assert answer.result["status"] == "applied"
    assert "disabled" not in _option(answer.json["html"], unit, "foot_bow")
    # a redrawn menu still names its unit: the next change made with it lands there
    assert (
        f'id="u-{unit}-missile-weapon-wrap" data-field="missile_weapon" data-target="{unit}"'
        in (answer.json["html"])
    )


def test_a_figures_change_sends_no_menu(owner_client, user):
    saved = services.create_army(
        army("into-the-dark", [{"name": "Archers", "quality": "average", "figures": 12}]),
        owner=user,
    )
    answer = send(owner_client, saved, "set", item_id(saved, 0), "figures", 14, 12)
    assert answer.result["status"] == "applied"
    assert "<select" not in answer.json["html"]


def test_an_operation_sent_again_after_a_lost_answer_leaves_the_redraw_to_the_page(
    owner_client, user
):
    saved = services.create_army(
        army("into-the-dark", [{"name": "Archers", "quality": "average", "figures": 12}]),
        owner=user,
    )
    made = operation(saved, "set", item_id(saved, 0), "name", "Renamed", "Archers")
    first = send_batch(owner_client, saved, [made]).json()
    assert first["results"][0]["status"] == "applied" and "Renamed" in first["html"]
    again = send_batch(owner_client, saved, [made]).json()  # a reload before the answer came
    assert again["results"][0]["status"] == "duplicate"
    # no builder drawn whole over the page (it would close the cards the player opened):
    # without html the page patches what differs from the server's builder
    assert "html" not in again
