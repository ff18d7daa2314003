"""The builder's unit cards as HTML, each drawn once per content and then reused.

A card drawn closed (its summary, and the link its editor comes from) is fixed by its row
(``presenters.Row``: the unit's name, number, cost, problems, stats, address and editor
key): the same row draws the same card. So each process keeps the cards it drew, keyed by
the whole row, and a builder page draws only the cards whose row changed since (after one
edit: that one card). A card drawn open carries its editor and the page's CSRF token: it
is drawn each time, never kept.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Iterable

from django.http import HttpRequest
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe

from armybuilder.armies.builder.presenters import Row
from armybuilder.armies.models import Army

CARD = "armies/builder.html#item-row"
MAX_CARDS = 20_000  # about 1.3 KB each: some 26 MB per process at most

_CARDS: OrderedDict[str, SafeString] = OrderedDict()
_LOCK = threading.Lock()


def card(row: Row, request: HttpRequest, army: Army) -> SafeString:
    """The card of ``row`` (the ``item-row`` partial of the builder page)."""
    template = get_template(CARD)
    if row.has_editor:
        drawn = template.render({"row": row, "army": army, "editing": True}, request)
        return mark_safe(drawn)  # noqa: S308
    # the whole row, digested: the key weighs nothing beside the card it names
    key = hashlib.blake2b(repr(row).encode(), digest_size=16).hexdigest()
    with _LOCK:
        found = _CARDS.get(key)
        if found is not None:
            _CARDS.move_to_end(key)
            return found
    # nothing of the request's: the same row draws the same card for every page
    drawn = mark_safe(template.render({"row": row, "editing": True}))  # noqa: S308
    with _LOCK:
        _CARDS[key] = drawn
        while len(_CARDS) > MAX_CARDS:
            _CARDS.popitem(last=False)
    return drawn


def cards(rows: Iterable[Row], request: HttpRequest, army: Army) -> list[SafeString]:
    return [card(row, request, army) for row in rows]


def forget_all() -> None:
    with _LOCK:
        _CARDS.clear()
