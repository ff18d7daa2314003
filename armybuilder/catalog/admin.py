from typing import Any

from django.contrib import admin, messages
from django.db import models
from django.db.models import Q, QuerySet
from django.http import HttpRequest

from armybuilder.accounts.support import PrivateContentAdmin
from armybuilder.catalog.models import (
    LINK,
    PUBLISHED,
    SUBMITTED,
    ArmyList,
    ArmyListRevision,
    new_share_token,
)
from armybuilder.catalog.selectors import public_lists
from armybuilder.catalog.services import save_list
from armybuilder.textrule import TextRuleJSONField


class RevisionInline(admin.TabularInline):
    """Old revisions stay readable; none can be changed or removed here."""

    model = ArmyListRevision
    fields = ("number", "name", "created", "author")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _staff_see(lists: QuerySet[ArmyList], prefix: str = "") -> QuerySet[ArmyList]:
    """Without the support permission: the public catalogue and the lists submitted to it
    (to publish them); a player's private or link-shared list is theirs alone."""
    visible = public_lists() | Q(status=SUBMITTED)
    if prefix:
        visible = Q(**{f"{prefix}__in": ArmyList.objects.filter(visible)})
    return lists.filter(visible)


def _private_author(army_list: ArmyList) -> Any:
    if army_list.is_public or army_list.status == SUBMITTED:
        return None
    return army_list.author


@admin.register(ArmyList)
class ArmyListAdmin(PrivateContentAdmin):
    # the text rule: refused characters shown escaped, never breaking the page
    formfield_overrides = {models.JSONField: {"form_class": TextRuleJSONField}}
    list_display = ("name", "ruleset", "slug", "author", "status", "latest_revision", "updated")
    list_filter = ("status", "ruleset")
    search_fields = ("name", "slug", "period")
    readonly_fields = ("updated", "latest_revision", "share_token")
    raw_id_fields = ("author",)
    inlines = [RevisionInline]
    actions = ["publish"]

    def save_model(self, request: HttpRequest, obj: ArmyList, form: Any, change: bool) -> None:
        """Through the one save of a list: a changed content is a new revision."""
        if obj.status == LINK:
            obj.share_token = obj.share_token or new_share_token()
        else:
            obj.share_token = None
        saved = save_list(obj, by=request.user)
        if not saved.created:
            obj.save()  # only who sees it (status, author) changed: no new revision

    @admin.action(description="Publish the selected lists in the public catalogue")
    def publish(self, request: HttpRequest, queryset: QuerySet[ArmyList]) -> None:
        count = queryset.update(status=PUBLISHED, share_token=None)
        self.message_user(request, f"Published {count} lists.", messages.SUCCESS)

    def get_queryset(self, request: HttpRequest) -> QuerySet[ArmyList]:
        return super().get_queryset(request).select_related("author")

    def without_support(self, queryset: QuerySet[ArmyList]) -> QuerySet[ArmyList]:
        return _staff_see(queryset)

    def owner_of(self, obj: ArmyList) -> Any:
        return _private_author(obj)


@admin.register(ArmyListRevision)
class ArmyListRevisionAdmin(PrivateContentAdmin):
    """Revisions are read here, never written: armies are checked against them."""

    def without_support(self, queryset: QuerySet[ArmyListRevision]) -> QuerySet[Any]:
        return _staff_see(queryset, "army_list")

    def owner_of(self, obj: ArmyListRevision) -> Any:
        return _private_author(obj.army_list)

    list_display = ("army_list", "number", "name", "created", "author")
    list_filter = ("army_list__ruleset",)
    search_fields = ("army_list__name", "army_list__slug", "name")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
