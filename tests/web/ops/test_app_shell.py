"""The installable app's manifest and service worker, and the army version a page re-reads."""

import json
import posixpath
import re
from pathlib import Path

from django.contrib.auth.models import User
from django.contrib.staticfiles import finders

from armybuilder.armies import services
from tests.support import army


def test_the_manifest_names_the_app_its_start_page_and_icons_that_exist(client, db):
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.content)
    assert manifest["name"] and manifest["short_name"] == "Muster"
    assert manifest["start_url"] == "/armies/" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        assert icon["type"] == "image/png"
        assert finders.find(icon["src"].split("/static/", 1)[1]), icon["src"]
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}


def test_the_service_worker_is_served_from_the_root_as_a_script_naming_the_app_shell(client, db):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert "no-cache" in answer["Cache-Control"]
    body = answer.content.decode()
    shell = json.loads(body.split("const SHELL = ", 1)[1].split(";\n", 1)[0])
    assert "/" in shell and any(url.endswith("js/changes/main.js") for url in shell)
    # the shell is the same for everyone: never a page that shows a player's own armies
    assert "/armies/" not in shell
    paths = json.loads(body.split("const PATHS = ", 1)[1].split(";\n", 1)[0])
    assert paths["start"] == "/armies/" and paths["shared"] == "/s/"
    assert "/accounts/" in paths["never"] and paths["prints"] in paths["never"]
    # the page engine's part comes with it, one script: its files kept in a cache of their own
    assert 'var ENGINE_CACHE = "muster-engine"' in body and "async function engineFile(" in body
    assert any(url.endswith("js/engine/worker.js") for url in shell)
    assert 'addEventListener("fetch"' in body


def _imports(path: str) -> set[str]:
    """The static paths of the modules the script at ``path`` imports."""
    text = Path(finders.find(path)).read_text()
    found = re.findall(r'^import [^;]*? from "(\./[^"]+|\.\./[^"]+)";', text, re.M)
    return {posixpath.normpath(posixpath.join(posixpath.dirname(path), f)) for f in found}


def _scripts_and_kept(client, url: str) -> tuple[set[str], set[str], set[str]]:
    """The scripts the page at ``url`` names, every module they import (theirs too), and
    the static files the app shell keeps."""
    page = client.get(url).content.decode()
    scripts = set(re.findall(r'<script[^>]* src="/static/(js/[^"]+)"', page))
    wanted, seen = set(scripts), set()
    while wanted - seen:
        path = (wanted - seen).pop()
        seen.add(path)
        wanted |= _imports(path)
    shell = client.get("/sw.js").content.decode().split("const SHELL = ", 1)[1]
    kept = {url.split("/static/", 1)[1] for url in json.loads(shell.split(";\n", 1)[0])
            if "/static/" in url}  # fmt: skip
    return scripts, seen, kept


def test_the_shell_keeps_every_script_of_the_builder_and_every_module_they_import(
    client, django_user_model
):
    user = django_user_model.objects.create_user("keeper", password="pw-keeper-1")
    saved = services.create_army(army("into-the-dark", [{"name": "Archers"}]), owner=user)
    client.force_login(user)
    scripts, seen, kept = _scripts_and_kept(client, f"/armies/{saved.pk}/")
    assert {"js/builder-ui.js", "js/changes/main.js"} <= scripts
    assert "js/changes/problem.js" in seen
    assert seen <= kept, f"not kept for offline use: {sorted(seen - kept)}"


def test_the_shell_keeps_every_script_of_the_list_editor_and_every_module_they_import(
    client, django_user_model
):
    client.force_login(django_user_model.objects.create_user("writer", password="pw-writer-1"))
    made = client.post("/rulesets/into-the-dark/new-list/", {"name": "Saxon raiders"})
    scripts, seen, kept = _scripts_and_kept(client, made["Location"])
    assert "js/list-editor.js" in scripts
    assert {"js/list-follow.js", "js/changes/follow.js", "js/vendor/idiomorph.js"} <= seen
    assert seen <= kept, f"not kept for offline use: {sorted(seen - kept)}"


def test_every_page_links_the_manifest(client, db):
    assert 'rel="manifest" href="/manifest.webmanifest"' in client.get("/").content.decode()


def test_the_army_version_is_its_owners_only_and_never_cached(client, db):
    user = User.objects.create_user("alice", password="a-long-Pass-123")
    saved = services.create_army(army("into-the-dark", [{"name": "Knights"}]), owner=user)
    assert client.get(f"/armies/{saved.pk}/version.json").status_code == 404
    client.force_login(user)
    answer = client.get(f"/armies/{saved.pk}/version.json")
    assert answer.json() == {"version": saved.version}
    assert "no-store" in answer["Cache-Control"]


def test_favicon_leads_to_the_apps_icon(client, db):
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == "/static/icons/icon-192.png"
    assert finders.find("icons/icon-192.png")  # a file the static files hold
