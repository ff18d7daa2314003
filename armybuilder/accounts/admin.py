"""The admin's users page, with an add-user form that refuses look-alike usernames (and
every account it saves has its name's looks stored), and the log of every use of the
support permission."""

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.http import HttpRequest

from armybuilder.accounts.forms import AdminAddUserForm
from armybuilder.accounts.models import SupportAccess
from armybuilder.accounts.names import record


class AccountAdmin(UserAdmin):
    add_form = AdminAddUserForm

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        record(obj.pk, obj.get_username())  # made or renamed: its looks follow its name


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
