"""Data for the load benchmark (bench/load.py), in the benchmark's own throwaway database:
a player with a signed-in session, a shared 30-unit army. Prints what the load needs as JSON."""

import json
import os
import secrets
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings_production")

import django  # noqa: E402

django.setup()

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402

from armybuilder.armies.models import Army  # noqa: E402
from armybuilder.catalog.services import check_document  # noqa: E402
from bench.pdf import army_of  # noqa: E402
from rules.document import with_ids  # noqa: E402


def main() -> None:
    user = User.objects.create_user("bench", password=secrets.token_urlsafe(16))
    parsed, _report = check_document(with_ids(army_of(30)))  # stored as the parser normalised it
    army = Army.objects.create(owner=user, document=parsed.to_document())
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    print(
        json.dumps(
            {
                "army": army.pk,
                "token": army.share_token,
                "session": session.session_key,
                "document": army.document,
            }
        )
    )


if __name__ == "__main__":
    main()
