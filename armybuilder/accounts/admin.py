"""The admin's users page, with an add-user form that refuses look-alike usernames, and the
log of every use of the support permission."""

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.http import HttpRequest

from armybuilder.accounts.forms import AdminAddUserForm
from armybuilder.accounts.models import SupportAccess


class AccountAdmin(UserAdmin):
    add_form = AdminAddUserForm


admin.site.unregister(User)
admin.site.register(User, AccountAdmin)


@admin.register(SupportAccess)
class SupportAccessAdmin(admin.ModelAdmin):
    """The log of every use of the support permission: read here, never changed."""

    list_display = ("at", "user", "action", "what", "owner")
    list_filter = ("action",)
    search_fields = ("user__username", "what", "owner")
    readonly_fields = ("at", "user", "action", "what", "owner")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
