"""Armies (/armies/...) and shared armies (/s/<token>/...)."""

from django.urls import path, register_converter

from armybuilder.armies.builder import (
    card_views,
    form_views,
    operation_views,
    rewind_views,
    upgrade_views,
)
from armybuilder.armies.history import history_views
from armybuilder.armies.making import find, start, views
from armybuilder.armies.sharing import share_views
from rules.document import ID_PATTERN


class KindConverter:
    """``units`` or ``generals``: the two lists of an army document a builder edits."""

    regex = "units|generals"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class ItemConverter:
    """``unit`` or ``general`` in an item's address, read as its list (``units``,
    ``generals``): ``/armies/<pk>/unit/<id>/`` names one unit by its stable id."""

    regex = "unit|general"

    def to_python(self, value: str) -> str:
        return value + "s"

    def to_url(self, value: str) -> str:
        return value.removesuffix("s")


class ItemIdConverter:
    """A unit's or general's stable id (``rules.document.ID_PATTERN``)."""

    regex = ID_PATTERN.pattern

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(KindConverter, "kind")
register_converter(ItemConverter, "item")
register_converter(ItemIdConverter, "item_id")

app_name = "armies"

urlpatterns = [
    path("armies/", views.my_armies, name="list"),
    path("armies/new/", views.new_army, name="new"),
    path("armies/new/lists/", views.list_options, name="list_options"),
    path("armies/new/<slug:slug>/", start.choose_list, name="start"),
    path("armies/find/", find.find_list, name="find"),
    path("armies/import/", views.import_army, name="import"),
    path("armies/<int:pk>/", views.builder, name="builder"),
    path("armies/<int:pk>/export.json", views.export_json, name="export"),
    path("armies/<int:pk>/version.json", views.army_version, name="version"),
    path("armies/<int:pk>/duplicate/", views.duplicate_army, name="duplicate"),
    path("armies/<int:pk>/delete/", views.delete_army, name="delete"),
    path("armies/<int:pk>/restore/", views.restore_army, name="restore"),  # undoes a delete
    path("armies/<int:pk>/settings/", form_views.update_settings, name="settings"),
    path("armies/<int:pk>/roll/", form_views.roll_force, name="roll"),
    path("armies/<int:pk>/undo/", rewind_views.undo, name="undo"),
    path("armies/<int:pk>/operations/", operation_views.apply, name="operations"),
    path("armies/<int:pk>/history/", history_views.history, name="history"),
    path("armies/<int:pk>/history/compare/", history_views.compare, name="compare"),
    path("armies/<int:pk>/history/snapshots/", history_views.name_snapshot, name="name_snapshot"),
    path(
        "armies/<int:pk>/history/snapshots/<int:snapshot>/restore/",
        rewind_views.restore_snapshot,
        name="restore_snapshot",
    ),
    path("armies/<int:pk>/history/<int:version>/restore/", rewind_views.restore, name="restore"),
    path("armies/<int:pk>/share/regenerate/", views.regenerate_share, name="share_regenerate"),
    path("armies/<int:pk>/share/off/", views.stop_sharing, name="share_off"),
    path("armies/<int:pk>/lists/", upgrade_views.list_upgrade, name="list_upgrade"),
    path(
        "armies/<int:pk>/lists/accept/",
        upgrade_views.accept_list_upgrade,
        name="list_upgrade_accept",
    ),
    path("armies/<int:pk>/lists/undo/", upgrade_views.undo_list_upgrade, name="list_upgrade_undo"),
    path("armies/<int:pk>/<kind:kind>/add/", form_views.add_item, name="add_item"),
    # one unit or general, by its stable id: never by its place in the list
    path("armies/<int:pk>/<item:kind>/<item_id:item_id>/", form_views.edit_item, name="edit_item"),
    path("armies/<int:pk>/<item:kind>/<item_id:item_id>/editor/", card_views.editor, name="editor"),
    path(
        "armies/<int:pk>/<item:kind>/<item_id:item_id>/duplicate/",
        form_views.duplicate_item,
        name="duplicate_item",
    ),
    path(
        "armies/<int:pk>/<item:kind>/<item_id:item_id>/move/",
        form_views.move_item,
        name="move_item",
    ),
    path(
        "armies/<int:pk>/<item:kind>/<item_id:item_id>/delete/",
        form_views.delete_item,
        name="delete_item",
    ),
    path("s/<str:token>/", share_views.shared, name="shared"),
    path("s/<str:token>/army.json", share_views.shared_json, name="shared_json"),
    path("s/<str:token>/copy/", share_views.copy_shared, name="copy"),
]
