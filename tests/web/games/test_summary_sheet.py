"""The game's summary as a one-page PDF, read back with pypdf: the armies, turns and the
losses after a removal; names printed as text; made by the worker, never in a web request;
owner-only and rate-limited (a render queued costs one PDF, a stored one nothing)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from armybuilder.armies.services import create_army
from armybuilder.games import services, summary_sheet
from tests.support import army
from tests.web.games.conftest import unit
from tests.web.routes import signed_in

pytestmark = pytest.mark.django_db


def made(game) -> bytes:
    """The summary's PDF as the worker makes it (tests run tasks as they are queued)."""
    render = summary_sheet.summary_render(game)
    assert render.status == render.READY, render.error
    return bytes(render.pdf)


def text_of(pdf: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(pdf))
    return len(reader.pages), " ".join(p.extract_text() for p in reader.pages)


def test_the_summary_prints_the_armies_turns_and_the_units_lost(game, owner_client):
    services.remove_unit(
        game, version=game.version, unit_id=unit(game, "b", "Knights"), why="Routed"
    )
    response = owner_client.get(reverse("games:summary_pdf", args=[game.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert "normans-v-saxons-summary.pdf" in response["Content-Disposition"]
    assert "no-store" in response["Cache-Control"]
    pages, text = text_of(response.content)
    assert pages == 1
    assert "Normans v Saxons" in text and "Feudal Wargame Rules" in text
    assert "Turns played: 1" in text
    assert "0 of 2" in text and "1 of 2" in text and "Knights" in text
    assert "Points lost" not in text  # Feudal has no points


def test_a_points_rule_set_prints_the_points_lost(user):
    units = [{"name": "Spears"}, {"name": "Archers", "missile_weapon": "foot_bow"}]
    host = create_army(army("into-the-dark", units, name="Host"), owner=user)
    game = services.start_game(user, army_a=host, army_b=host)
    lost = services.remove_unit(game, version=game.version, unit_id=unit(game, "a", "Archers"))
    summary = summary_sheet.selectors.summary(game)
    points = summary.sides[0].points_lost
    assert points and lost.payload["unit_name"] == "Archers"
    _, text = text_of(made(game))
    assert "Points lost" in text and "Archers" in text and str(points) in text


def test_names_print_as_text_never_as_markup(user):
    named = create_army(army("feudal-2017", [{"name": "<b>Bold</b>", "type": "knights"}],
                             name="<script>alert(1)</script>"), owner=user)  # fmt: skip
    game = services.start_game(user, army_a=named, army_b=named)
    services.remove_unit(game, version=game.version, unit_id=unit(game, "b", "<b>Bold</b>"))
    html = summary_sheet.summary_html(game)
    assert "<script>" not in html and "&lt;script&gt;" in html and "<b>Bold" not in html
    _, text = text_of(made(game))
    assert "<script>alert(1)</script>" in text and "<b>Bold</b>" in text


def test_the_game_page_links_the_summary(game, owner_client):
    page = owner_client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert reverse("games:summary_pdf", args=[game.pk]) in page


def test_others_get_404_and_the_pdf_limit_counts_it(game, owner_client, settings):
    url = reverse("games:summary_pdf", args=[game.pk])
    assert signed_in("mallory").get(url).status_code == 404
    assert Client().get(url).status_code == 404
    settings.MUSTER_RATE_LIMITS = {**settings.MUSTER_RATE_LIMITS, "pdf": (0, 600)}
    assert owner_client.get(url).status_code == 429


@pytest.mark.django_db(transaction=True)  # the worker opens its own connections
def test_a_web_request_never_renders_the_summary_the_worker_does(game, owner_client, settings):
    settings.TASKS = {"default": settings.TASK_BACKENDS["database"]}  # a queue, no worker yet
    url = reverse("games:summary_pdf", args=[game.pk])
    waiting = owner_client.get(url)
    assert waiting.status_code == 202  # the request queued it and answered at once
    page = waiting.content.decode()
    assert "Queued" in page and "normans-v-saxons-summary.pdf" in page
    assert f'hx-get="{url}?poll=1"' in page  # the page watches the game's own URL
    assert owner_client.get(url, {"poll": "1"}, HTTP_HX_REQUEST="true").status_code == 200
    call_command("db_worker", "--batch", "--no-startup-delay", "--queue-name", "default")
    ready = owner_client.get(url)
    assert ready.status_code == 200 and ready["Content-Type"] == "application/pdf"
    assert "Turns played: 0" in text_of(ready.content)[1]


def test_the_same_game_asked_again_is_served_from_the_store_and_costs_nothing(
    game, owner_client, settings
):
    url = reverse("games:summary_pdf", args=[game.pk])
    settings.MUSTER_RATE_LIMITS = {**settings.MUSTER_RATE_LIMITS, "pdf": (1, 600)}
    first = owner_client.get(url)
    assert first.status_code == 200 and first["X-Muster-Cache"] == "miss"
    again = owner_client.get(url)
    assert again.status_code == 200 and again["X-Muster-Cache"] == "hit"
    assert again.content == first.content
    services.remove_unit(
        game, version=game.version, unit_id=unit(game, "b", "Knights"), why="Routed"
    )
    assert owner_client.get(url).status_code == 429  # a new version is a new render
