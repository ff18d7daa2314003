"""Staff are not owners: the support permission, and the log of every use of it.

A player's private list or army is theirs alone. ``is_staff`` opens the admin, not other
players' private content: only an account granted ``accounts.support_private`` (on
purpose, in the admin's user page) may see or change it, and each time it does, a
``SupportAccess`` row (and a log line) says who, when, what and whose.
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse

from armybuilder.accounts.models import SupportAccess

PERMISSION = "accounts.support_private"

log = logging.getLogger("armybuilder.support")


def may_support(user: Any) -> bool:
    """Does ``user`` hold the support permission (superusers hold every permission)?"""
    return bool(
        user is not None
        and getattr(user, "is_authenticated", False)
        and getattr(user, "is_active", False)
        and user.has_perm(PERMISSION)
    )


def record(user: Any, action: str, what: Any, owner: Any = None) -> None:
    """One use of the permission: who did ``action`` to ``what`` (of ``owner``)."""
    label, whose = str(what)[:200], "" if owner is None else str(owner)[:150]
    SupportAccess.objects.create(user=user, action=action[:40], what=label, owner=whose)
    log.warning("support access: %s did %s to %s of %s", user, action, label, whose or "-")


class PrivateContentAdmin(admin.ModelAdmin):
    """An admin of models that hold players' private content: without the support
    permission its private rows are not there at all (the list leaves them out, their
    pages are "not found"); with it, every page that shows or changes them is logged."""

    def without_support(self, queryset: QuerySet[Any]) -> QuerySet[Any]:
        """The rows staff may see without the permission (none by default)."""
        return queryset.none()

    def owner_of(self, obj: Any) -> Any:
        """Whose private content ``obj`` is (None: it is not private)."""
        return getattr(obj, "owner", None)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset = super().get_queryset(request)
        return queryset if may_support(request.user) else self.without_support(queryset)

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        response = super().changelist_view(request, extra_context)
        if may_support(request.user) and response.status_code == 200:
            name = self.model._meta.verbose_name_plural
            record(request.user, "admin list", name)
        return response

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        response = super().change_view(request, object_id, form_url, extra_context)
        if may_support(request.user) and response.status_code in (200, 302):
            obj = self.get_object(request, unquote(object_id))
            owner = None if obj is None else self.owner_of(obj)
            if owner is not None:
                action = "admin change" if request.method == "POST" else "admin view"
                record(request.user, action, obj, owner)
        return response
