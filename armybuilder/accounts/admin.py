"""The admin's users page, with an add-user form that refuses look-alike usernames."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User

from armybuilder.accounts.forms import AdminAddUserForm


class AccountAdmin(UserAdmin):
    add_form = AdminAddUserForm


admin.site.unregister(User)
admin.site.register(User, AccountAdmin)
