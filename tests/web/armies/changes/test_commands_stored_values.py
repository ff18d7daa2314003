"""What an army keeps once stored: names on one line, whole numbers as integers, whichever
way the value came in (an imported file, the builder's one-field change, the settings)."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from armybuilder.armies.models import Army
from tests.support import army, item_id
from tests.web.armies.sending import send

HX = {"HX-Request": "true"}
pytestmark = pytest.mark.django_db


def imported(client, doc: dict) -> Army:
    upload = SimpleUploadedFile("army.json", json.dumps(doc).encode(), "application/json")
    response = client.post("/armies/import/", {"document": upload})
    assert response.status_code == 302, response.content[:300]
    return Army.objects.get()


def test_an_imported_twelve_point_oh_is_stored_and_exported_as_twelve(owner_client):
    doc = army("into-the-dark", [{"name": "Fyrd", "figures": 12.0}], points_limit=500.0)
    saved = imported(owner_client, doc)
    figures, limit = saved.document["units"][0]["figures"], saved.document["points_limit"]
    assert (figures, type(figures), limit, type(limit)) == (12, int, 500, int)
    exported = owner_client.get(f"/armies/{saved.pk}/export.json").content.decode()
    assert '"figures": 12,' in exported and '"points_limit": 500,' in exported
    assert "12.0" not in exported and "500.0" not in exported


def test_an_imported_unit_name_with_a_line_break_is_refused(owner_client):
    doc = army("into-the-dark", [{"name": "Two\nlines"}])
    upload = SimpleUploadedFile("army.json", json.dumps(doc).encode(), "application/json")
    response = owner_client.post("/armies/import/", {"document": upload})
    assert response.status_code == 400
    assert "this field is one line" in response.content.decode()
    assert not Army.objects.exists()


@pytest.mark.parametrize("kind,made_from", [("units", "Fyrd"), ("generals", "Harold")])
def test_a_line_break_typed_into_a_name_is_refused_and_nothing_is_saved(
    owner_client, kind, made_from
):
    doc = army("into-the-dark", [{"name": "Fyrd"}], generals=[{"name": "Harold"}])
    saved = imported(owner_client, doc)
    response = send(owner_client, saved, "set", item_id(saved, 0, kind), "name", "Two\nlines",
                    made_from)  # fmt: skip
    assert response.status_code == 400
    assert "one line" in response.content.decode()
    saved.refresh_from_db()
    assert saved.document[kind][0]["name"] == made_from and saved.version == 1


def test_a_line_break_in_the_army_name_is_refused(owner_client):
    saved = imported(owner_client, army("into-the-dark", [{"name": "Fyrd"}], name="Wessex"))
    response = send(owner_client, saved, "set", "army", "name", "Wes\nsex", "Wessex")
    assert response.status_code == 400
    saved.refresh_from_db()
    assert saved.name == "Wessex" and saved.version == 1
