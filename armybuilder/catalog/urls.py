from django.urls import path

from armybuilder.catalog import list_editor, list_history, list_operation_views, list_views, views

app_name = "catalog"
LIST = "rulesets/<slug:slug>/lists/<slug:list_slug>/"

urlpatterns = [
    path("", views.home, name="home"),
    path("rulesets/<slug:slug>/", views.ruleset_detail, name="ruleset"),
    path("rulesets/<slug:slug>/lists/<slug:list_slug>/", views.army_list_detail, name="army_list"),
    path("lists/shared/<str:token>/", views.shared_list, name="shared_list"),
    path("lists/shared/<str:token>/copy/", list_views.shared_list_copy, name="shared_list_copy"),
    path(f"{LIST}status/", list_views.list_status, name="list_status"),
    path(f"{LIST}revoke/", list_views.list_revoke, name="list_revoke"),
    path(f"{LIST}delete/", list_views.list_delete, name="list_delete"),
    path(f"{LIST}undelete/", list_views.list_undelete, name="list_undelete"),  # undoes a delete
    path(f"{LIST}copy/", list_views.list_copy, name="list_copy"),
    path(f"{LIST}edit/", list_editor.edit_list, name="list_edit"),
    path(f"{LIST}version.json", list_editor.version, name="list_version"),
    path(f"{LIST}operations/", list_operation_views.operations, name="list_operations"),
    path(f"{LIST}history/", list_history.history, name="list_history"),
    path(f"{LIST}history/compare/", list_history.compare, name="list_compare"),
    path(f"{LIST}history/<int:number>/restore/", list_history.restore, name="list_restore"),
    path("rulesets/<slug:slug>/new-list/", list_editor.new_list, name="list_new"),
]
