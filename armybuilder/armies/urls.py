"""Armies (/armies/...) and shared armies (/s/<token>/...)."""

from django.urls import path, register_converter

from armybuilder.armies import share_views, views


class KindConverter:
    """``units`` or ``generals``: the two lists of an army document a builder edits."""

    regex = "units|generals"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(KindConverter, "kind")

app_name = "armies"

urlpatterns = [
    path("armies/", views.my_armies, name="list"),
    path("armies/new/", views.new_army, name="new"),
    path("armies/new/lists/", views.list_options, name="list_options"),
    path("armies/import/", views.import_army, name="import"),
    path("armies/<int:pk>/", views.builder, name="builder"),
    path("armies/<int:pk>/export.json", views.export_json, name="export"),
    path("armies/<int:pk>/duplicate/", views.duplicate_army, name="duplicate"),
    path("armies/<int:pk>/delete/", views.delete_army, name="delete"),
    path("armies/<int:pk>/restore/", views.restore_army, name="restore"),  # issue 10: undo
    path("armies/<int:pk>/settings/", views.update_settings, name="settings"),
    path("armies/<int:pk>/roll/", views.roll_force, name="roll"),
    path("armies/<int:pk>/share/regenerate/", views.regenerate_share, name="share_regenerate"),
    path("armies/<int:pk>/share/off/", views.stop_sharing, name="share_off"),
    path("armies/<int:pk>/<kind:kind>/add/", views.add_item, name="add_item"),
    path("armies/<int:pk>/<kind:kind>/<int:index>/", views.edit_item, name="edit_item"),
    path(
        "armies/<int:pk>/<kind:kind>/<int:index>/duplicate/",
        views.duplicate_item,
        name="duplicate_item",
    ),
    path("armies/<int:pk>/<kind:kind>/<int:index>/move/", views.move_item, name="move_item"),
    path("armies/<int:pk>/<kind:kind>/<int:index>/delete/", views.delete_item, name="delete_item"),
    path("s/<str:token>/", share_views.shared, name="shared"),
    path("s/<str:token>/army.json", share_views.shared_json, name="shared_json"),
    path("s/<str:token>/copy/", share_views.copy_shared, name="copy"),
]
