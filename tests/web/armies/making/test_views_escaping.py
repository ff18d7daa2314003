"""Player-typed names are always escaped: an army or unit named like a script stays text."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import Resolver404, resolve

from tests.support import army, item_url, shared_army

SCRIPT = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
HX = {"HX-Request": "true"}


@pytest.fixture
def owner(db):
    return User.objects.create_user("owner", password="a-long-Pass-123")


@pytest.fixture
def saved(owner):
    units = [{"name": SCRIPT, "training": "missile", "division": SCRIPT}]  # two errors, named
    doc = army("into-the-dark", units, name=SCRIPT, notes=SCRIPT)
    doc["generals"] = [{"name": SCRIPT, "commanding": True}]
    return shared_army(doc, owner=owner)


def assert_escaped(body: bytes, where: str) -> None:
    text = body.decode()
    assert SCRIPT not in text, where
    assert ESCAPED in text, where


def resolves(path: str) -> bool:
    try:
        resolve(path)
    except Resolver404:
        return False
    return True


def test_names_render_escaped_on_every_page(saved):
    owner = Client()
    owner.force_login(saved.owner)
    token = saved.share_token
    pages = {
        "builder": owner.get(f"/armies/{saved.pk}/"),
        "my armies": owner.get("/armies/"),
        "delete": owner.get(f"/armies/{saved.pk}/delete/"),
        "share": Client().get(f"/s/{token}/"),
        "copy": owner.get(f"/s/{token}/copy/"),
    }
    for path in (f"/armies/{saved.pk}/roster/", f"/s/{token}/roster/"):
        if resolves(path):
            pages[path] = (owner if path.startswith("/armies") else Client()).get(path)
    for where, response in pages.items():
        assert response.status_code == 200, where
        assert_escaped(response.content, where)


def test_names_render_escaped_in_every_htmx_response(saved):
    owner = Client()
    owner.force_login(saved.owner)
    base = f"/armies/{saved.pk}/"
    unit, general = item_url(saved, 0), item_url(saved, 0, "generals")
    responses = {
        "edit": owner.post(unit, {"version": 1, "f.figures": "6"}, headers=HX),
        "refused": owner.post(unit, {"version": 2, "f.figures": "x"}, headers=HX),
        "add": owner.post(base + "units/add/", {"version": 2}, headers=HX),
        "general": owner.post(general, {"version": 3, "f.rating": "good"}, headers=HX),
        "settings": owner.post(base + "settings/", {"version": 4, "points_limit": "9"}, headers=HX),
        "stale": owner.post(unit, {"version": 99, "f.figures": "5"}, headers=HX),
    }
    for where, response in responses.items():
        assert response.status_code in (200, 400, 409), where
        assert_escaped(response.content, where)


def test_the_open_graph_tags_escape_the_name(saved):
    page = Client().get(f"/s/{saved.share_token}/").content.decode()
    assert f'<meta property="og:title" content="{ESCAPED}">' in page


def test_the_exported_document_keeps_the_name_as_data(saved):
    owner = Client()
    owner.force_login(saved.owner)
    response = owner.get(f"/armies/{saved.pk}/export.json")
    assert response["Content-Type"].startswith("application/json")
    assert "<script>" in response.json()["name"]  # data, served as JSON, never as HTML
