"""Settings of the development servers some tests start in processes of their own: the
project's settings, with passwords hashed as the rest of the suite hashes them
(tests/hashers.py), so a sign-up or a login there costs a millisecond, not 0.7 s."""

from django.conf import global_settings

from armybuilder.settings import *  # noqa: F403

PASSWORD_HASHERS = [
    "tests.hashers.FewIterationsPBKDF2PasswordHasher",
    *global_settings.PASSWORD_HASHERS,
]
