"""One name per account: the key every per-account count and the look-alike check use.

Django authenticates the NFKC form of the posted username (``UsernameField`` and
``AbstractBaseUser.normalize_username``), so ``ｐ1`` (full-width) and ``𝐜arol`` (mathematical
bold) log in as ``p1`` and ``carol``. A lock-out keyed on the raw posted name would give
each spelling its own counter; keying on NFKC, case-folded (and NFKC again, because case
folding can leave a string that is not NFKC) gives every spelling of one account one key.
"""

from __future__ import annotations

import unicodedata

from django.contrib.auth import get_user_model

# A username Django accepts is at most 150 characters, and no normalisation shortens a
# string, so a longer post can never be an account: cutting it keeps the work bounded.
_MAX_CHARS = 300


def account_key(username: str) -> str:
    """The name an account is counted under: NFKC case-folded (Unicode's NFKC_Casefold)."""
    name = unicodedata.normalize("NFKC", username[:_MAX_CHARS])
    return unicodedata.normalize("NFKC", name.casefold()).strip()


def look_alike(username: str) -> str | None:
    """An existing username with the same key as ``username`` (None: no look-alike).

    Case folding has no portable SQL form (``iexact`` folds ASCII only on SQLite), so the
    names are compared here; a club's accounts number in the hundreds, not millions.
    """
    key = account_key(username)
    names = get_user_model()._default_manager.values_list("username", flat=True)
    for existing in names.iterator(chunk_size=2000):
        if account_key(existing) == key:
            return str(existing)
    return None
