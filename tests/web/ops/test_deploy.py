"""Production settings pass Django's deployment checklist."""

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
