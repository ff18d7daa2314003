"""Club events: organisers' pages, players' entries, the desk, the reveal and the files."""

from django.urls import path
from django.views.decorators.cache import never_cache

from armybuilder.events import desk_views, entry_views, files_views, pack_views, views

app_name = "events"

# Every event page depends on who asks and on the clock (the reveal): never stored by a
# browser or a shared cache, never revalidated by an ETag.
_patterns = [
    path("events/", views.my_events, name="mine"),
    path("events/new/", views.new_event, name="new"),
    path("events/join/", views.join_by_code, name="join"),
    path("events/<str:code>/", views.event_page, name="event"),
    path("events/<str:code>/edit/", views.edit_event, name="edit"),
    path("events/<str:code>/enter/", views.enter, name="enter"),
    path("events/<str:code>/games/", views.games, name="games"),
    path("events/<str:code>/entry/", entry_views.entry, name="entry"),
    path("events/<str:code>/entry/submit/", entry_views.submit, name="submit"),
    path("events/<str:code>/entry/pin/", entry_views.pin_to_event, name="pin"),
    path("events/<str:code>/entry/roll/", entry_views.roll, name="roll"),
    path("events/<str:code>/entry/reply/", entry_views.reply, name="reply"),
    path("events/<str:code>/desk/", desk_views.desk, name="desk"),
    path("events/<str:code>/reopen/", desk_views.reopen, name="reopen"),
    path("events/<str:code>/desk.csv", desk_views.desk_csv, name="desk_csv"),
    path(
        "events/<str:code>/entrants/<int:entrant>/<str:action>/",
        desk_views.entrant_action,
        name="entrant_action",
    ),
    path(
        "events/<str:code>/armies/<int:submission>/", desk_views.submission_page, name="submission"
    ),
    path(
        "events/<str:code>/armies/<int:submission>/army.json",
        desk_views.submission_file,
        name="submission_file",
    ),
    path("events/<str:code>/rules.json", desk_views.rules_file, name="rules_file"),
    path("events/<str:code>/flyer.pdf", files_views.flyer, name="flyer"),
    path("events/<str:code>/pack/", pack_views.pack, name="pack"),
    path("events/<str:code>/pack/<int:pack>.pdf", pack_views.pack_pdf, name="pack_pdf"),
]

urlpatterns = [path(str(p.pattern), never_cache(p.callback), name=p.name) for p in _patterns]
