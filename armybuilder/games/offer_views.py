"""``GET /games/<game>/offers.json`` (and by the link to play): every combat the page may
offer (``games.offers``), which its script keeps on the phone to choose a combat offline.
It never changes for a game, so the phone asks for it once; private, as the game is."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_safe

from armybuilder.games.access import seat_of
from armybuilder.games.offers import all_offers


@require_safe
def offers(request: HttpRequest, game: int | None = None, token: str = "") -> JsonResponse:
    found = seat_of(request, game, token, acting=False).game
    # never stored by the browser's cache (urls.py): the page keeps its own copy
    return JsonResponse({"game": found.pk, **all_offers(found)})
