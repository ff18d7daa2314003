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
``confusable-homoglyphs`` package ships it (README says why that package). On top of it a
name's look is *folded*: combining marks dropped (``carol`` with an acute on its ``l``
reads as ``carol``), small capitals (``ᴀlice``, which that data mostly leaves out) read as
the letters their Unicode names say they are, and what the data keeps apart but a reader
does not (``vv`` and ``w``; the Cyrillic palochka ``ӏ``, which it maps to ``i``, and
``l``) made one.

Each account's looks are stored (``NameLook``, one row per look, the look unique), so two
sign-ups of look-alike names at once, in two processes, cannot both get in: the second
finds the first's row (``claim``). Sign-up and the admin store them as they save an
account; one made otherwise (a shell, ``createsuperuser``) has them stored by the next
check (``record_missing``).
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser

from armybuilder.accounts.models import NameLook

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
    # the small palochka is a bare stroke, as its capital (which the data maps to l) is
    mapping["\u04cf"] = mapping.get("l", "l")
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


def _unmarked(text: str) -> str:
    return "".join(
        c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) not in ("Mn", "Me")
    )


# Letters a reader takes for one another that Unicode's data keeps apart (it already has
# rn for m, 1 and I for l, 0 for O): each written as the first.
_READ_ALIKE = (("vv", "w"),)


def _folded(text: str) -> str:
    """A skeleton with no marks, in small letters, each read-alike pair made one."""
    text = _unmarked(skeleton(_unmarked(text)).casefold())
    for kept, folded in _READ_ALIKE:
        text = text.replace(folded, kept)
    return unicodedata.normalize("NFC", text)


def look_alike_keys(username: str) -> frozenset[str]:
    """What a name looks like: the skeleton of its account key, and its own skeleton
    case-folded (then its skeleton again), each folded (``_folded``). Both, because a
    capital I looks like l where a small i does not: ``caroI`` looks like ``carol``, and
    ``ERIC`` is still ``eric``. Two names look alike when they share one."""
    name = _plain_letters(unicodedata.normalize("NFKC", username[:_MAX_CHARS]).strip())
    return frozenset({_folded(account_key(name)), _folded(skeleton(name).casefold())})


def _digests(looks: Iterable[str]) -> set[str]:
    """The stored form of looks: fixed length, whatever a look's length."""
    return {hashlib.sha256(look.encode("utf-8", "surrogatepass")).hexdigest() for look in looks}


def look_alike(username: str) -> str | None:
    """An existing username that looks the same as ``username`` (None: no look-alike):
    one of its looks (``look_alike_keys``) is stored for another account (``NameLook``)."""
    record_missing()
    found = (
        NameLook.objects.filter(key__in=_digests(look_alike_keys(username)))
        .select_related("user")
        .order_by("user_id")
        .first()
    )
    return None if found is None else str(found.user.get_username())


def record(user_id: int, username: str, looks_model: Any = NameLook) -> None:
    """Store the looks of account ``user_id``'s name (its old name's dropped). A look
    another account holds already stays theirs: ``claim`` says so where it matters."""
    keys = _digests(look_alike_keys(username))
    looks_model.objects.filter(user_id=user_id).exclude(key__in=keys).delete()
    looks_model.objects.bulk_create(
        [looks_model(key=key, user_id=user_id) for key in keys], ignore_conflicts=True
    )


def claim(user: AbstractBaseUser) -> str | None:
    """Store the looks of a new account's name; the name of another account already
    holding one of them (None: every look is this account's). Run in the transaction that
    made the account, and roll it back on a name: the looks are unique, so of two
    look-alike sign-ups at once the second waits for the first, then sees its rows."""
    record(user.pk, user.get_username())
    keys = _digests(look_alike_keys(user.get_username()))
    other = NameLook.objects.filter(key__in=keys).exclude(user_id=user.pk).select_related("user")
    found = other.order_by("user_id").first()
    return None if found is None else str(found.user.get_username())


def record_missing() -> None:
    """Store the looks of accounts that have none: made without Muster's forms (a shell,
    ``createsuperuser``). Sign-up and the admin store them as they save."""
    missing = get_user_model()._default_manager.filter(name_looks__isnull=True)
    for user_id, username in missing.order_by("pk").values_list("pk", "username"):
        record(user_id, username)


def record_all(user_model: Any, looks_model: Any) -> None:
    """Store every account's looks, oldest account first (a look two old accounts share
    stays the older's): for a data migration, with its historical models."""
    names = user_model._default_manager.order_by("pk").values_list("pk", "username")
    for user_id, username in names.iterator(chunk_size=500):
        record(user_id, username, looks_model)
