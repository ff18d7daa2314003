"""Games at the table: my games, one game's page and its forms, its file; the same by the
opponent's links."""

from django.urls import path
from django.views.decorators.cache import never_cache

from armybuilder.games import offer_views, views
from armybuilder.games.access import by_link

app_name = "games"

# A game's page changes with every action and is its owner's (or a link's): never stored.
_patterns = [
    path("games/", views.my_games, name="mine"),
    path("games/<int:game>/", views.game_page, name="game"),
    path("games/<int:game>/work-out/", views.work_out, name="work_out"),
    path("games/<int:game>/apply/", views.apply, name="apply"),
    path("games/<int:game>/next-phase/", views.next_phase, name="next_phase"),
    path("games/<int:game>/undo/", views.undo, name="undo"),
    path("games/<int:game>/remove/", views.remove, name="remove"),
    path("games/<int:game>/rally/", views.rally, name="rally"),
    path("games/<int:game>/force-morale/", views.force_morale, name="force_morale"),
    path("games/<int:game>/operations/", views.operations_batch, name="operations"),
    path("games/<int:game>/version", views.version, name="version"),
    path("games/<int:game>/game.json", views.export, name="export"),
    path("games/<int:game>/summary.pdf", views.summary_pdf, name="summary_pdf"),
    path("games/<int:game>/links/", views.links, name="links"),
    path("games/<int:game>/offers.json", offer_views.offers, name="offers"),
    # a game played by a link, taken out of the player's My games (their seat, not the game)
    path("games/played/<int:seat>/remove/", views.forget_seat, name="forget_seat"),
    # the opponent's links: the token is the only key, in the URL of every action (the
    # link to watch answers only the page, its version and the file; its actions are 404)
    path("g/<str:token>/", views.game_page, name="shared"),
    path("g/<str:token>/work-out/", by_link(views.work_out), name="shared_work_out"),
    path("g/<str:token>/apply/", by_link(views.apply), name="shared_apply"),
    path("g/<str:token>/next-phase/", by_link(views.next_phase), name="shared_next_phase"),
    path("g/<str:token>/undo/", by_link(views.undo), name="shared_undo"),
    path("g/<str:token>/remove/", by_link(views.remove), name="shared_remove"),
    path("g/<str:token>/rally/", by_link(views.rally), name="shared_rally"),
    path("g/<str:token>/force-morale/", by_link(views.force_morale), name="shared_force_morale"),
    path("g/<str:token>/operations/", by_link(views.operations_batch), name="shared_operations"),
    path("g/<str:token>/version", views.version, name="shared_version"),
    path("g/<str:token>/game.json", views.export, name="shared_export"),
    path("g/<str:token>/offers.json", offer_views.offers, name="shared_offers"),
    path("g/<str:token>/summary.pdf", views.summary_pdf, name="shared_summary_pdf"),
]

urlpatterns = [path(str(p.pattern), never_cache(p.callback), name=p.name) for p in _patterns]
