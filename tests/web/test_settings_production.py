"""Production settings (armybuilder/settings_production.py): Django's deployment checklist
passes, a secret key is generated once, proxy headers are trusted only when told."""

import os
import secrets
import subprocess
import sys

from tests.support import ROOT


def test_check_deploy_is_clean_with_production_settings():
    # a browser test earlier in this process sets DJANGO_ALLOW_ASYNC_UNSAFE for its own ORM
    # calls (tests/browser/conftest.py); a deployment never has it
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        DJANGO_SETTINGS_MODULE="armybuilder.settings_production",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def _production(env_extra, code):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(DJANGO_SETTINGS_MODULE="armybuilder.settings_production", **env_extra)
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + code],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_production_settings_generate_a_secret_key_once_when_none_is_set(tmp_path):
    key_file = tmp_path / "secret"
    code = "from django.conf import settings; print(settings.SECRET_KEY, settings.DEBUG)"
    first = _production({"DJANGO_SECRET_KEY_FILE": str(key_file)}, code)
    second = _production({"DJANGO_SECRET_KEY_FILE": str(key_file)}, code)
    assert first == second and first.endswith(" False")
    assert len(first.split()[0]) >= 50
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"


def test_the_proxy_headers_are_trusted_only_when_the_environment_says_so(tmp_path):
    code = (
        "from django.conf import settings; "
        "print(settings.SECURE_PROXY_SSL_HEADER, settings.USE_X_FORWARDED_HOST)"
    )
    env = {"DJANGO_SECRET_KEY_FILE": str(tmp_path / "k")}
    assert _production(env, code) == "None False"
    behind = {**env, "DJANGO_PROXY_SSL_HEADER": "1", "DJANGO_USE_X_FORWARDED_HOST": "1"}
    assert _production(behind, code) == "('HTTP_X_FORWARDED_PROTO', 'https') True"
