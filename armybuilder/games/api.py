"""The JSON API of a game (``/api/v1/games/<game>``): the game as its ``muster.game/1``
document, the same file ``/games/<game>/game.json`` downloads.

Session auth, as the game's pages: its owner only; anyone else, signed in or not, gets
the same JSON 404 as for a game that does not exist. Read-only (GET), never cached.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, JsonResponse
from django.urls import path
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from armybuilder.games import selectors
from armybuilder.games.exporting import game_document


@never_cache
@require_safe
def game(request: HttpRequest, game: int) -> JsonResponse:
    try:
        found = selectors.game_or_404(request, game)
    except Http404:
        return JsonResponse({"error": "no such game", "path": ""}, status=404)
    return JsonResponse(game_document(found))


urlpatterns = [path("<int:game>", game, name="game")]
