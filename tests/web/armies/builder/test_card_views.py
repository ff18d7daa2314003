"""A unit card's editor comes when the card is opened: the page stays small, the editor is
the owner's alone, and without JavaScript it is a page whose form saves the unit."""

import re
from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from armybuilder.armies import services
from armybuilder.armies.builder import cards
from armybuilder.armies.models import Army
from tests.support import army, item_id, item_url

HX = {"HX-Request": "true"}
MILITIA = {"name": "Town Militia", "quality": "levy"}


def make(user: User, count: int = 2, **top: Any) -> Army:
    units = [dict(MILITIA, name=f"Militia {i + 1}") for i in range(count)]
    return services.create_army(army("into-the-dark", units, **top), owner=user)


def editor_url(saved: Army, index: int) -> str:
    return item_url(saved, index, tail="editor/")


def test_the_builder_draws_cards_closed_with_where_their_editor_comes_from(owner_client, user):
    saved = make(user, 3)
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    for i in range(3):
        unit = item_id(saved, i)
        assert f'data-editor="{editor_url(saved, i)}"' in page
        assert f'id="unit-{unit}-editor" hx-get="{editor_url(saved, i)}"' in page
        assert f'<a href="{editor_url(saved, i)}">Edit Militia {i + 1}</a>' in page
        assert f'id="u-{unit}-figures"' not in page  # no control until the card is opened
    assert 'class="item-form"' not in page


def test_an_opened_card_gets_its_editor_with_every_control(owner_client, user):
    saved = make(user)
    response = owner_client.get(editor_url(saved, 1), headers=HX)
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    body = response.content.decode()
    unit = item_id(saved, 1)
    assert body.lstrip().startswith(f'<div class="card-editor" id="unit-{unit}-editor">')
    assert f'id="unit-{unit}-form" method="post" action="{item_url(saved, 1)}"' in body
    assert f'type="number" id="u-{unit}-figures" name="f.figures" value="12"' in body
    assert f'<select id="u-{unit}-quality" name="f.quality"' in body
    assert 'name="csrfmiddlewaretoken"' in body
    assert "<html" not in body


def test_the_editors_key_on_the_page_moves_only_with_what_the_editor_shows(owner_client, user):
    saved = make(user, 3)
    base = f"/armies/{saved.pk}/"

    def keys() -> list[str]:
        page = owner_client.get(base).content.decode()
        return re.findall(r'data-editor-key="([^"]+)"', page)

    before = keys()
    editor = owner_client.get(editor_url(saved, 1), headers=HX)
    assert editor["X-Muster-Editor-Key"] == before[1]
    saved.refresh_from_db()
    data = {"version": saved.version, "_field": "figures", "_from": "12", "f.figures": "14"}
    assert owner_client.post(item_url(saved, 1), data, headers=HX).status_code == 200
    after = keys()
    assert after[0] == before[0] and after[2] == before[2]
    assert after[1] != before[1]
    assert owner_client.get(editor_url(saved, 1), headers=HX)["X-Muster-Editor-Key"] == after[1]


def test_without_javascript_the_editor_is_a_page_whose_form_saves_the_unit(owner_client, user):
    saved = make(user)
    response = owner_client.get(editor_url(saved, 0))
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    page = response.content.decode()
    assert page.startswith("<!doctype html>")
    assert "<h1>Unit 1: Militia 1</h1>" in page
    assert f'<form class="item-form" id="unit-{item_id(saved, 0)}-form" method="post"' in page
    assert f'action="{item_url(saved, 0)}"' in page
    assert '<noscript><button type="submit">Save unit</button></noscript>' in page
    assert f'href="/armies/{saved.pk}/#unit-{item_id(saved, 0)}"' in page
    posted = owner_client.post(
        item_url(saved, 0),
        {"version": saved.version, "f.name": "Militia 1", "f.figures": "20", "f.quality": "levy"},
    )
    assert posted.status_code == 302
    assert posted["Location"] == f"/armies/{saved.pk}/#unit-{item_id(saved, 0)}"
    saved.refresh_from_db()
    assert saved.document["units"][0]["figures"] == 20


def test_another_player_and_a_visitor_get_404_for_an_editor(owner_client, user):
    saved = make(user)
    other = Client()
    other.force_login(User.objects.create_user("bob"))
    for client in (other, Client()):
        assert client.get(editor_url(saved, 0), headers=HX).status_code == 404
        assert client.get(editor_url(saved, 0)).status_code == 404


def test_an_editor_of_a_unit_that_is_not_there_is_404(owner_client, user):
    saved = make(user)
    assert owner_client.get(f"/armies/{saved.pk}/unit/nosuchid/editor/").status_code == 404
    # Into the Dark has no generals
    general = f"/armies/{saved.pk}/general/{item_id(saved, 0)}/editor/"
    assert owner_client.get(general).status_code == 404


def test_a_refused_or_stale_change_draws_its_card_open_with_its_editor(owner_client, user):
    saved = make(user)
    unit = item_id(saved, 1)
    data = {"version": saved.version, "f.name": "Militia 2", "f.figures": "20"}
    assert owner_client.post(item_url(saved, 1), data, headers=HX).status_code == 200
    # without JavaScript: the page again, the card open at the field that was refused
    stale = owner_client.post(item_url(saved, 1), dict(data, **{"f.figures": "6"}))
    assert stale.status_code == 409
    body = stale.content.decode()
    assert f'id="u-{unit}-figures" name="f.figures" value="20"' in body
    assert f'id="u-{item_id(saved, 0)}-figures"' not in body  # the other card stays closed
    assert re.search(
        rf'id="unit-{unit}"[^>]*>\s*<details name="units" class="unit-card" open', body
    )


def test_a_closed_card_is_drawn_once_per_content(owner_client, user):
    cards.forget_all()
    saved = make(user, 3)
    owner_client.get(f"/armies/{saved.pk}/")
    drawn = len(cards._CARDS)
    assert drawn == 3
    owner_client.get(f"/armies/{saved.pk}/")
    assert len(cards._CARDS) == drawn  # the same three cards: nothing drawn again
    saved.refresh_from_db()
    data = {"version": saved.version, "_field": "figures", "_from": "12", "f.figures": "14"}
    owner_client.post(item_url(saved, 2), data, headers=HX)
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    assert len(cards._CARDS) == drawn + 1  # only the changed card is drawn anew
    assert "14 figures" in page
