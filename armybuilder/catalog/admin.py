from django.contrib import admin

from armybuilder.catalog.models import ArmyList


@admin.register(ArmyList)
class ArmyListAdmin(admin.ModelAdmin):
    list_display = ("name", "ruleset", "slug", "period", "updated")
    list_filter = ("ruleset",)
    search_fields = ("name", "slug", "period")
    readonly_fields = ("updated",)
