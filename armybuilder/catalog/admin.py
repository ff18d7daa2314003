from django.contrib import admin
from django.db import models

from armybuilder.catalog.models import ArmyList
from armybuilder.textrule import TextRuleJSONField


@admin.register(ArmyList)
class ArmyListAdmin(admin.ModelAdmin):
    # the text rule (issue 13): refused characters shown escaped, never breaking the page
    formfield_overrides = {models.JSONField: {"form_class": TextRuleJSONField}}
    list_display = ("name", "ruleset", "slug", "period", "updated")
    list_filter = ("ruleset",)
    search_fields = ("name", "slug", "period")
    readonly_fields = ("updated",)
