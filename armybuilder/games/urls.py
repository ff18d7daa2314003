"""Games at the table: my games, one game's page and its forms, its file; the same by the
opponent's links."""

from django.urls import path, register_converter
from django.views.decorators.cache import never_cache

from armybuilder.games import kinds, offer_views, views
from armybuilder.games.access import by_link

app_name = "games"


class KindPath:
    """A kind of game action's form in a URL: its ``path`` (``next-phase``), read as its
    name (``next_phase``). Looked up in ``kinds.KINDS`` at each request, so a kind
    registered later is served too; any other segment matches no kind (404)."""

    regex = kinds.PATH

    def to_python(self, value: str) -> str:
        found = kinds.by_path(value)
        if found is None:
            raise ValueError(value)  # Django's resolver: this pattern does not match
        return found.name

    def to_url(self, value: str) -> str:
        if value not in kinds.KINDS:
            raise ValueError(value)
        return kinds.KINDS[value].path


register_converter(KindPath, "game_op")

# A game's page changes with every action and is its owner's (or a link's): never stored.
_patterns = [
    path("games/", views.my_games, name="mine"),
    path("games/<int:game>/", views.game_page, name="game"),
    path("games/<int:game>/work-out/", views.work_out, name="work_out"),
    path("games/<int:game>/operations/", views.operations_batch, name="operations"),
    path("games/<int:game>/version", views.version, name="version"),
    path("games/<int:game>/game.json", views.export, name="export"),
    path("games/<int:game>/summary.pdf", views.summary_pdf, name="summary_pdf"),
    path("games/<int:game>/links/", views.links, name="links"),
    # the link to play's seat freed from the device holding it (games.claims)
    path("games/<int:game>/links/release/", views.release_seat, name="release_seat"),
    path("games/<int:game>/offers.json", offer_views.offers, name="offers"),
    # a game played by a link, taken out of the player's My games (their seat, not the game)
    path("games/played/<int:seat>/remove/", views.forget_seat, name="forget_seat"),
    # the opponent's links: the token is the only key, in the URL of every action (the
    # link to watch answers only the page, its version and the file; its actions are 404)
    path("g/<str:token>/", views.game_page, name="shared"),
    # the link to play's seat taken by this device (a GET of the link never takes it)
    path(
        "g/<str:token>/take-seat/", by_link(views.take_seat, taking=True), name="shared_take_seat"
    ),
    path("g/<str:token>/work-out/", by_link(views.work_out), name="shared_work_out"),
    path("g/<str:token>/operations/", by_link(views.operations_batch), name="shared_operations"),
    path("g/<str:token>/version", views.version, name="shared_version"),
    path("g/<str:token>/game.json", views.export, name="shared_export"),
    path("g/<str:token>/offers.json", offer_views.offers, name="shared_offers"),
    path("g/<str:token>/summary.pdf", views.summary_pdf, name="shared_summary_pdf"),
    # every kind of action's form, the owner's and the link's (last: a fixed route above
    # wins over a kind's path)
    path("games/<int:game>/<game_op:op>/", views.act, name="act"),
    path("g/<str:token>/<game_op:op>/", by_link(views.act), name="shared_act"),
]

urlpatterns = [path(str(p.pattern), never_cache(p.callback), name=p.name) for p in _patterns]
