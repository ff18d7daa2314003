"""No CDN: every script and stylesheet comes from the app, so a club LAN needs no internet."""

import re

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders

from tests.support import army, shared_army


def test_pages_load_scripts_and_styles_only_from_the_app(client, db):
    user = User.objects.create_user("alice", password="a-long-Pass-123")
    saved = shared_army(army("into-the-dark", [{"name": "Knights"}]), owner=user)
    anonymous_pages = ["/accounts/login/", "/accounts/signup/", f"/s/{saved.share_token}/"]
    client.force_login(user)
    pages = [f"/armies/{saved.pk}/", "/armies/", "/armies/new/", "/armies/import/"]
    assets = set()
    for url in pages:
        assets |= set(
            re.findall(
                r'<(?:script|link)[^>]+(?:src|href)="([^"]+)"', client.get(url).content.decode()
            )
        )
    client.logout()
    for url in anonymous_pages:
        assets |= set(
            re.findall(
                r'<(?:script|link)[^>]+(?:src|href)="([^"]+)"', client.get(url).content.decode()
            )
        )
    # the web app manifest is the app's own too, served from the root (its worker's scope)
    assets.discard("/manifest.webmanifest")
    assert assets
    for asset in assets:
        # Django reads the relative "static/" from the site's root: "/static/"
        assert asset.startswith(settings.STATIC_URL), asset
        path = asset.split(settings.STATIC_URL, 1)[1]
        assert finders.find(path), f"{asset} is not a static file of the app"
    assert any("django_htmx/htmx-2" in a for a in assets)
    assert any(a.endswith("js/changes/main.js") for a in assets)
    assert any(a.endswith("css/builder.css") for a in assets)


def test_production_serves_static_files_with_whitenoise(monkeypatch):
    import importlib
    import sys

    monkeypatch.setenv("DJANGO_SECRET_KEY", "test-only-production-key")
    monkeypatch.delitem(sys.modules, "armybuilder.settings_production", raising=False)
    production = importlib.import_module("armybuilder.settings_production")
    assert "whitenoise.middleware.WhiteNoiseMiddleware" in production.MIDDLEWARE
