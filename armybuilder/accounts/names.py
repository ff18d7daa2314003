"""One name per account: the key every per-account count and the look-alike check use.

Django authenticates the NFKC form of the posted username (``UsernameField`` and
``AbstractBaseUser.normalize_username``), so ``ｐ1`` (full-width) and ``𝐜arol`` (mathematical
bold) log in as ``p1`` and ``carol``. A lock-out keyed on the raw posted name would give
each spelling its own counter; keying on NFKC, case-folded (and NFKC again, because case
folding can leave a string that is not NFKC) gives every spelling of one account one key.

NFKC leaves other scripts alone: ``cаrol`` with a Cyrillic ``а`` is another account to
Django, yet looks exactly like ``carol``. Sign-up compares names by their *skeleton* as
well (Unicode's UTS #39: every character replaced by the one its confusables data says it
is mistaken for), so a name that looks like an existing one in any script, or with ``rn``
for ``m`` or ``I`` for ``l``, is refused. The data is Unicode's ``confusables.txt`` as the
``confusable-homoglyphs`` package ships it (README says why that package). Small capitals
(``ᴀlice``), which that data mostly leaves out, are read as the letters their Unicode names
say they are.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from django.contrib.auth import get_user_model

# A username Django accepts is at most 150 characters, and no normalisation shortens a
# string, so a longer post can never be an account: cutting it keeps the work bounded.
_MAX_CHARS = 300


def account_key(username: str) -> str:
    """The name an account is counted under: NFKC case-folded (Unicode's NFKC_Casefold)."""
    name = unicodedata.normalize("NFKC", username[:_MAX_CHARS])
    return unicodedata.normalize("NFKC", name.casefold()).strip()


# Marks the package puts around right-to-left characters so that its data prints legibly.
_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character -> the string standing for everything it is mistaken for.

    The package keeps ``confusables.txt`` both ways round (each character lists what it
    maps to and what maps to it), so the groups are its connected parts; a group's
    prototype is the one that many map to (or the sequence, such as ``rn``, when there is
    one), as in the Unicode file. Loaded once, on the first sign-up."""
    from confusable_homoglyphs.confusables import confusables_data  # 0.9 MB of JSON

    parent: dict[str, str] = {}

    def root(node: str) -> str:
        while parent.setdefault(node, node) != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    degree: dict[str, int] = {}
    for raw, homoglyphs in confusables_data.items():
        source = raw.translate(_DIRECTION_MARKS)
        for entry in homoglyphs:
            target = entry["c"].translate(_DIRECTION_MARKS)
            parent[root(source)] = root(target)
            degree[target] = degree.get(target, 0) + 1
        degree[source] = degree.get(source, 0) + len(homoglyphs)
    groups: dict[str, list[str]] = {}
    for node in parent:
        groups.setdefault(root(node), []).append(node)
    mapping = {}
    for members in groups.values():
        prototype = min(members, key=lambda m: (len(m) == 1, -degree.get(m, 0), len(m), m))
        mapping.update((m, prototype) for m in members if len(m) == 1)
    return mapping


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: decomposed, each character by its prototype."""
    prototypes = _prototypes()
    for _ in range(3):  # a prototype sequence can hold characters with prototypes of their own
        mapped = "".join(prototypes.get(c, c) for c in unicodedata.normalize("NFD", text))
        mapped = unicodedata.normalize("NFD", mapped)
        if mapped == text:
            break
        text = mapped
    return text


_SMALL_CAPITAL = re.compile(r"(LATIN|GREEK|CYRILLIC) LETTER SMALL CAPITAL (.+)")


@functools.cache
def _small_capital(char: str) -> str:
    """A small capital (``ᴀ``, ``ʀ``) as the small letter it reads as: Unicode gives small
    capitals no decomposition and its confusables data leaves most of them out, yet
    ``ᴀlice`` reads as ``alice``. Their names say which letter they are."""
    found = _SMALL_CAPITAL.fullmatch(unicodedata.name(char, ""))
    if found is None:
        return char
    try:
        return unicodedata.lookup(f"{found[1]} SMALL LETTER {found[2]}")
    except KeyError:
        return char


def _plain_letters(text: str) -> str:
    return "".join(_small_capital(c) for c in text)


def look_alike_keys(username: str) -> frozenset[str]:
    """What a name looks like: the skeleton of its account key, and its own skeleton
    case-folded (then its skeleton again). Both, because a capital I looks like l where a
    small i does not: ``caroI`` looks like ``carol``, and ``ERIC`` is still ``eric``. Two
    names look alike when they share one."""
    name = _plain_letters(unicodedata.normalize("NFKC", username[:_MAX_CHARS]).strip())
    return frozenset({skeleton(account_key(name)), skeleton(skeleton(name).casefold())})


def look_alike(username: str) -> str | None:
    """An existing username that looks the same as ``username`` (None: no look-alike):
    the same account key (NFKC, case-folded) or the same skeleton (any script).

    Case folding has no portable SQL form (``iexact`` folds ASCII only on SQLite), so the
    names are compared here; a club's accounts number in the hundreds, not millions.
    """
    key, looks = account_key(username), look_alike_keys(username)
    names = get_user_model()._default_manager.values_list("username", flat=True)
    for existing in names.iterator(chunk_size=2000):
        if account_key(existing) == key or look_alike_keys(existing) & looks:
            return str(existing)
    return None
