"""Printable sheets: PDFs and their HTML print previews.

Paths are part of the public interface (army-format.md) and other pages link to them.
"""

from django.urls import path

from armybuilder.printing import progress_views, views

app_name = "printing"

ROSTER, QRS = {"sheet": "roster"}, {"sheet": "qrs"}

urlpatterns = [
    path("armies/<int:pk>/roster.pdf", views.army_pdf, ROSTER, name="army_roster_pdf"),
    path("armies/<int:pk>/qrs.pdf", views.army_pdf, QRS, name="army_qrs_pdf"),
    path("armies/<int:pk>/roster/", views.army_preview, ROSTER, name="army_roster"),
    path("armies/<int:pk>/qrs/", views.army_preview, QRS, name="army_qrs"),
    path("s/<str:token>/roster.pdf", views.shared_pdf, ROSTER, name="shared_roster_pdf"),
    path("s/<str:token>/qrs.pdf", views.shared_pdf, QRS, name="shared_qrs_pdf"),
    path("s/<str:token>/roster/", views.shared_preview, ROSTER, name="shared_roster"),
    path("s/<str:token>/qrs/", views.shared_preview, QRS, name="shared_qrs"),
    path("rulesets/<slug:slug>/qrs.pdf", views.ruleset_qrs_pdf, name="ruleset_qrs_pdf"),
    path("rulesets/<slug:slug>/qrs/", views.ruleset_qrs, name="ruleset_qrs"),
    # background renders: the builder's print panel, progress, download, API status
    path("armies/<int:pk>/print/", progress_views.army_print, name="army_print"),
    path("prints/<uuid:render_id>/", progress_views.print_status, name="status"),
    path("prints/<uuid:render_id>/pdf", progress_views.print_download, name="download"),
    path("api/v1/prints/<uuid:render_id>", progress_views.api_print_status, name="api_status"),
]
